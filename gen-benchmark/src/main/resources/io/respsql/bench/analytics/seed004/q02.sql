SELECT order_id, order_ts, status, total_cents FROM orders WHERE customer_id = ${NEEDLE_CUSTOMER} ORDER BY order_id
