SELECT customer_id, email, tier FROM customers WHERE email = 'user83333@mail13.example'
