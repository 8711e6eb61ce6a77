SELECT COUNT(*) AS customers_without_orders FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.order_id IS NULL
