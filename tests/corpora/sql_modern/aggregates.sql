SELECT dept_id,
       COUNT(*) AS employees,
       COUNT(DISTINCT title) AS titles,
       COUNT(*) FILTER (WHERE salary > 100000) AS high_earners,
       string_agg(name, ', ' ORDER BY name) AS roster,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY salary) AS median_salary,
       SUM(salary) AS payroll
FROM employees
WHERE hired_on >= DATE '2015-01-01'
GROUP BY dept_id
HAVING COUNT(*) >= 3 AND SUM(salary) > 250000
ORDER BY payroll DESC;

SELECT region, product, SUM(amount) AS total, GROUPING(region) AS region_total
FROM sales
GROUP BY GROUPING SETS ((region, product), (region), ());

SELECT region, product, SUM(amount)
FROM sales
GROUP BY ROLLUP (region, product);
