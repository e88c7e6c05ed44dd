SELECT id, email FROM customers WHERE country = 'DE'
UNION
SELECT id, email FROM customers WHERE country = 'AT'
UNION ALL
SELECT id, email FROM prospects
ORDER BY email NULLS FIRST
LIMIT 50 OFFSET 100;

SELECT product_id FROM order_items
INTERSECT
SELECT id FROM products WHERE price > 10
EXCEPT
SELECT product_id FROM recalls;

(SELECT id FROM a ORDER BY id LIMIT 5)
UNION ALL
(SELECT id FROM b ORDER BY id DESC LIMIT 5);

SELECT DISTINCT ON (customer_id) customer_id, id, placed_on
FROM orders
ORDER BY customer_id, placed_on DESC
OFFSET 10 ROWS FETCH FIRST 20 ROWS ONLY;
