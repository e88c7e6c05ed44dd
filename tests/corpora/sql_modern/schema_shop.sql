-- Schema for a small shop.
CREATE TABLE IF NOT EXISTS customers (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email       VARCHAR(320) NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    country     CHAR(2) DEFAULT 'US' NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP,
    is_active   BOOLEAN NOT NULL DEFAULT TRUE,
    CONSTRAINT email_has_at CHECK (email LIKE '%@%')
);

CREATE TABLE products (
    id          SERIAL PRIMARY KEY,
    sku         VARCHAR(32) NOT NULL,
    title       TEXT NOT NULL,
    price       NUMERIC(10, 2) NOT NULL CHECK (price >= 0),
    weight_kg   DOUBLE PRECISION,
    tags        TEXT[],
    UNIQUE (sku)
);

CREATE TABLE orders (
    id           BIGSERIAL PRIMARY KEY,
    customer_id  BIGINT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    status       VARCHAR(16) NOT NULL DEFAULT 'new',
    placed_on    DATE NOT NULL DEFAULT CURRENT_DATE,
    note         CHARACTER VARYING(200) COLLATE "C",
    CHECK (status IN ('new', 'paid', 'shipped', 'cancelled'))
);

CREATE TABLE order_items (
    order_id    BIGINT NOT NULL,
    product_id  INTEGER NOT NULL,
    quantity    INTEGER NOT NULL DEFAULT 1 CHECK (quantity > 0),
    unit_price  NUMERIC(10, 2) NOT NULL,
    PRIMARY KEY (order_id, product_id),
    CONSTRAINT fk_order FOREIGN KEY (order_id) REFERENCES orders (id)
        ON DELETE CASCADE ON UPDATE NO ACTION,
    FOREIGN KEY (product_id) REFERENCES products (id) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX idx_orders_customer ON orders (customer_id, placed_on DESC);
CREATE UNIQUE INDEX IF NOT EXISTS idx_products_sku ON products USING btree (lower(sku));
CREATE INDEX idx_open_orders ON orders (placed_on) WHERE status <> 'cancelled';

CREATE OR REPLACE VIEW order_totals (order_id, total) AS
SELECT oi.order_id, SUM(oi.quantity * oi.unit_price)
FROM order_items oi
GROUP BY oi.order_id;
