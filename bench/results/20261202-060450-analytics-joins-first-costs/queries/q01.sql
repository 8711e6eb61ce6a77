SELECT customer_id, email, country, tier, lifetime_value_cents FROM customers WHERE customer_id = 16666
