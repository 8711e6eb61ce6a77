SELECT customer_id, email, tier FROM customers WHERE email = 'user33333@mail13.example'
