SELECT customer_id, email, tier FROM customers WHERE email = '${PK_EMAIL}'
