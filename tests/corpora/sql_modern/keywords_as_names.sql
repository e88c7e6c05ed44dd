-- Columns whose names are SQL keywords in some dialect.
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    date DATE NOT NULL,
    year INTEGER,
    month INTEGER,
    name TEXT,
    value REAL,
    type VARCHAR(20),
    key TEXT,
    values TEXT,
    comment TEXT,
    data JSON,
    filter TEXT,
    first TEXT,
    last TEXT,
    position INTEGER,
    status TEXT,
    level INTEGER,
    count INTEGER
);

INSERT INTO events (id, date, year, name, value, type, key, values, filter, first, last)
VALUES (1, DATE '2024-05-01', 2024, 'launch', 1.0, 'milestone', 'k1', 'a,b', 'on', 'x', 'y');

SELECT date, year, name, value, type, key, filter, position, count
FROM events
WHERE type = 'milestone' AND year = 2024 AND key IS NOT NULL
ORDER BY date DESC, name;

SELECT e.date AS day, e.year, e.values AS vals, count(*) AS count, max(e.value) value
FROM events AS e
GROUP BY e.date, e.year, e.values;

SELECT right.name, left.name
FROM events AS left
JOIN events AS right ON right.year = left.year + 1;
