SELECT customer_id, SUM(total_cents) AS revenue, COUNT(*) AS orders_n FROM orders GROUP BY customer_id ORDER BY SUM(total_cents) DESC, customer_id ASC LIMIT 100
