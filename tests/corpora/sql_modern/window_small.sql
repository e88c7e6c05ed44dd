SELECT name, dept, salary,
       RANK() OVER (PARTITION BY dept ORDER BY salary DESC) AS r
FROM staff
WHERE salary IS NOT NULL AND dept <> 'ops'
ORDER BY dept, r
LIMIT 10;
