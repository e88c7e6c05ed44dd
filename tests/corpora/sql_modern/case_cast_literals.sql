SELECT id,
       CASE status
           WHEN 'new' THEN 1
           WHEN 'paid' THEN 2
           ELSE 0
       END AS status_rank,
       CASE
           WHEN amount IS NULL THEN 'unknown'
           WHEN amount < 0 THEN 'refund'
           WHEN amount BETWEEN 0 AND 100 THEN 'small'
           ELSE 'large'
       END AS bucket,
       CAST(amount AS DECIMAL(12, 2)) AS amount_exact,
       amount::int AS amount_int,
       '2024-02-29'::date + 1 AS next_day,
       first_name || ' ' || last_name AS full_name,
       'It''s fine' AS quoted,
       E'tab\there' AS escaped,
       -amount * 2 + 3 % 2 AS arithmetic,
       2 ^ 10 AS power_of_two,
       TIMESTAMP '2024-01-01 12:00:00' AT TIME ZONE 'UTC' AS noon_utc,
       EXTRACT(YEAR FROM created_at) AS created_year,
       SUBSTRING(code FROM 1 FOR 3) AS prefix,
       TRIM(BOTH ' ' FROM label) AS clean_label,
       POSITION('@' IN email) AS at_pos,
       payload->>'kind' AS kind,
       1.5e3 AS big, .25 AS quarter, TRUE AS yes, FALSE AS no, NULL AS nothing
FROM payments
WHERE created_at >= TIMESTAMP '2024-01-01 00:00:00'
  AND note NOT LIKE '%test%'
  AND label ILIKE 'vip%'
  AND coalesce(flag, FALSE) IS NOT TRUE
  AND ref IS DISTINCT FROM 'x';
