SELECT c.name,
       o.id AS order_id,
       p.title,
       s.carrier
FROM customers c
INNER JOIN orders o ON o.customer_id = c.id
LEFT JOIN order_items oi USING (order_id)
RIGHT OUTER JOIN products p ON p.id = oi.product_id
FULL OUTER JOIN shipments s ON s.order_id = o.id
CROSS JOIN settings
NATURAL JOIN order_flags
WHERE c.country IN ('DE', 'FR', 'NL')
ORDER BY c.name, o.id;

SELECT u.id, latest.created_at, latest.total
FROM users u
CROSS JOIN LATERAL (
    SELECT o.created_at, o.total
    FROM orders o
    WHERE o.user_id = u.id
    ORDER BY o.created_at DESC
    LIMIT 1
) AS latest;

SELECT a.id, b.id AS other_id
FROM (points a JOIN points b ON a.cluster = b.cluster AND a.id < b.id)
LEFT JOIN (SELECT cluster, COUNT(*) AS n FROM points GROUP BY cluster) AS sizes (cluster_id, n)
  ON sizes.cluster_id = a.cluster
WHERE sizes.n > 1;

SELECT g.n, t.label
FROM generate_series(1, 10) AS g(n)
LEFT JOIN labels t ON t.n = g.n;
