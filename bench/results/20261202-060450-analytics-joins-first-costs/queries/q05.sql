SELECT customer_id, email, tier FROM customers WHERE email = 'user16666@mail6.example'
