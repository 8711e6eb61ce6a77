SELECT c.tier, COUNT(*) AS orders_n, SUM(o.total_cents) AS revenue FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.tier ORDER BY c.tier
