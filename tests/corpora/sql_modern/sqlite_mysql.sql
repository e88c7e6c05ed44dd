-- MySQL
CREATE TABLE `users` (
  `id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `email` VARCHAR(255) NOT NULL,
  `role` ENUM('admin', 'user') NOT NULL DEFAULT 'user',
  `created_at` DATETIME DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  UNIQUE (`email`),
  KEY `idx_role` (`role`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

INSERT INTO `users` (`email`, `role`) VALUES ('a@b.c', 'admin')
ON DUPLICATE KEY UPDATE `role` = VALUES(`role`);

SELECT `id`, `email` FROM `users` WHERE `email` REGEXP '^a' LIMIT 10, 20;

-- SQLite
CREATE TABLE IF NOT EXISTS notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  body TEXT NOT NULL,
  created REAL DEFAULT (julianday('now'))
);

INSERT OR REPLACE INTO notes (id, body) VALUES (?1, ?2);
REPLACE INTO notes (body) VALUES (:body);

SELECT id, body FROM notes WHERE body GLOB '*todo*' AND id > ? ORDER BY created DESC LIMIT 5;

EXPLAIN QUERY PLAN SELECT * FROM notes WHERE id = 1;
