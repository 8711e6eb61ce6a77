SELECT c.country, c.tier, COUNT(*) AS n, SUM(c.lifetime_value_cents) AS ltv FROM customers c GROUP BY c.country, c.tier ORDER BY c.country, c.tier
