SELECT order_ym, COUNT(*) AS n, SUM(total_cents) AS revenue FROM orders WHERE order_ym BETWEEN 202401 AND 202406 GROUP BY order_ym ORDER BY order_ym
