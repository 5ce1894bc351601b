INSERT INTO db.accounts VALUES (3, 'e3', NULL, 3.0, 'EU', named_struct('tier', 'gold', 'since', DATE '2022-01-01'));
INSERT INTO db.accounts VALUES (4, 'e4', 'd@x', 4.0, 'EU', named_struct('tier', 'gold', 'since', DATE '2022-01-01'));
