SELECT d.name,
       (SELECT COUNT(*) FROM employees e WHERE e.dept_id = d.id) AS headcount,
       (SELECT MAX(salary) FROM employees e WHERE e.dept_id = d.id) AS top_salary
FROM departments d
WHERE EXISTS (SELECT 1 FROM employees e WHERE e.dept_id = d.id AND e.active)
  AND d.id NOT IN (SELECT dept_id FROM closed_departments WHERE dept_id IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM audits a WHERE a.dept_id = d.id AND a.failed);

SELECT e.name, e.salary
FROM employees e
WHERE e.salary > ALL (SELECT salary FROM employees WHERE dept_id = 3)
   OR e.salary = ANY (SELECT bonus_threshold FROM policies)
   OR e.id IN (1, 2, 3);

SELECT *
FROM (
    SELECT dept_id, AVG(salary) AS avg_salary
    FROM employees
    GROUP BY dept_id
) AS s
WHERE s.avg_salary BETWEEN 40000 AND 90000
  AND s.dept_id NOT BETWEEN 10 AND 20;
