SELECT status, COUNT(*) AS n, SUM(total_cents) AS revenue FROM orders GROUP BY status ORDER BY status
