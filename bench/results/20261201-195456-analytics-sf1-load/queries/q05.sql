SELECT customer_id, email, tier FROM customers WHERE email = 'user166666@mail6.example'
