SELECT order_id, order_ts, status, total_cents FROM orders WHERE customer_id = 25007 ORDER BY order_id
