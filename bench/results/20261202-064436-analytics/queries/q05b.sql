SELECT COUNT(*) FROM customers WHERE email LIKE 'user123%'
