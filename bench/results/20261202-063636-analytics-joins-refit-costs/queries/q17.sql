SELECT order_ym, SUM(total_cents) AS revenue, COUNT(*) AS n FROM orders GROUP BY order_ym HAVING SUM(total_cents) > 386000000 ORDER BY order_ym
