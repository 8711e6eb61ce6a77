SELECT customer_id, email, tier FROM customers WHERE email = 'user1666@mail6.example'
