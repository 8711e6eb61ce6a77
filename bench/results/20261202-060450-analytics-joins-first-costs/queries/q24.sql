SELECT order_id, customer_id, order_ts, total_cents FROM orders ORDER BY total_cents DESC, order_id ASC LIMIT 100
