SELECT order_ym, COUNT(DISTINCT customer_id) AS uniq_customers, COUNT(*) AS orders_n FROM orders GROUP BY order_ym ORDER BY order_ym
