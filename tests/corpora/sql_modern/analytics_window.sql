-- Monthly revenue per region with running totals, ranks and month-over-month change.
WITH monthly AS (
    SELECT r.name AS region,
           date_trunc('month', o.created_at) AS month,
           SUM(oi.quantity * oi.unit_price) AS revenue,
           COUNT(DISTINCT o.customer_id) AS buyers
    FROM orders o
    JOIN order_items oi ON oi.order_id = o.id
    JOIN customers c ON c.id = o.customer_id
    LEFT JOIN regions r ON r.id = c.region_id
    WHERE o.status <> 'cancelled'
      AND o.created_at >= DATE '2023-01-01'
    GROUP BY r.name, date_trunc('month', o.created_at)
)
SELECT region,
       month,
       revenue,
       SUM(revenue) OVER (PARTITION BY region ORDER BY month
                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_total,
       AVG(revenue) OVER (PARTITION BY region ORDER BY month
                          ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving_avg_3m,
       revenue - LAG(revenue, 1, 0) OVER w AS change,
       RANK() OVER (PARTITION BY month ORDER BY revenue DESC) AS rank_in_month,
       ROW_NUMBER() OVER (ORDER BY revenue DESC NULLS LAST) AS overall_position,
       round(100.0 * revenue / NULLIF(SUM(revenue) OVER (PARTITION BY month), 0), 2) AS share_pct
FROM monthly
WINDOW w AS (PARTITION BY region ORDER BY month)
ORDER BY region, month;
