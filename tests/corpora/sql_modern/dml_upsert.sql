INSERT INTO products (sku, title, price) VALUES ('A-100', 'Kettle', 29.90);

INSERT INTO products (sku, title, price, tags)
VALUES ('A-101', 'Toaster', 34.50, ARRAY['kitchen', 'small']),
       ('A-102', 'Teapot, ''Classic''', 19.00, NULL),
       ('A-103', 'Mug', 4.5, DEFAULT);

INSERT INTO customers (email, name, country)
VALUES ('ana@example.com', 'Ana', 'PT')
ON CONFLICT (email) DO UPDATE
SET name = excluded.name, country = excluded.country
WHERE customers.is_active
RETURNING id, email;

INSERT INTO customers (email, name) VALUES ('bo@example.com', 'Bo')
ON CONFLICT DO NOTHING;

INSERT INTO archived_orders (id, customer_id, placed_on)
SELECT id, customer_id, placed_on
FROM orders
WHERE placed_on < CURRENT_DATE - INTERVAL '2 years';

UPDATE products AS p
SET price = p.price * 1.05,
    title = upper(p.title)
WHERE p.id IN (SELECT product_id FROM order_items GROUP BY product_id HAVING SUM(quantity) > 100);

UPDATE orders o
SET status = 'shipped'
FROM shipments s
WHERE s.order_id = o.id AND s.shipped_at IS NOT NULL
RETURNING o.id, o.status;

UPDATE accounts SET (balance, updated_at) = (balance - 10, now()) WHERE id = $1;

DELETE FROM sessions WHERE expires_at < now() - INTERVAL '30 minutes';

DELETE FROM order_items oi
USING orders o
WHERE oi.order_id = o.id AND o.status = 'cancelled'
RETURNING oi.*;
