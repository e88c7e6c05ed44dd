/* Walk an employee hierarchy and a calendar with recursive CTEs. */
WITH RECURSIVE chain (id, manager_id, name, depth, path) AS (
    SELECT e.id, e.manager_id, e.name, 0, CAST(e.name AS TEXT)
    FROM employees AS e
    WHERE e.manager_id IS NULL
    UNION ALL
    SELECT e.id, e.manager_id, e.name, c.depth + 1, c.path || ' > ' || e.name
    FROM employees e
    INNER JOIN chain c ON e.manager_id = c.id
    WHERE c.depth < 10
)
SELECT id, name, depth, path
FROM chain
ORDER BY path;

WITH RECURSIVE days(day) AS (
    VALUES (DATE '2024-01-01')
    UNION ALL
    SELECT day + INTERVAL '1 day' FROM days WHERE day < DATE '2024-01-31'
)
SELECT d.day, COALESCE(COUNT(l.id), 0) AS logins
FROM days d
LEFT OUTER JOIN logins l ON CAST(l.logged_at AS DATE) = d.day
GROUP BY d.day
ORDER BY d.day;
