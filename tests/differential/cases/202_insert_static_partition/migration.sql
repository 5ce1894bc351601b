INSERT INTO db.events PARTITION (kind = 'click') VALUES (3, 'p3', TIMESTAMP '2024-01-03 10:00:00');
INSERT INTO db.events PARTITION (kind = 'click') VALUES (4, 'click', 'p4', TIMESTAMP '2024-01-03 10:00:00');
INSERT INTO db.events PARTITION (payload = 'x') VALUES (5, 'click', TIMESTAMP '2024-01-03 10:00:00');
INSERT INTO db.events PARTITION (KIND = 'view') (event_id, payload, ts) VALUES (6, 'p6', TIMESTAMP '2024-01-04 10:00:00');
INSERT INTO db.events PARTITION (kind = 'view') (event_id, ts) VALUES (7, TIMESTAMP '2024-01-04 10:00:00');
INSERT INTO db.events PARTITION (kind) VALUES (8, 'view', 'p8', TIMESTAMP '2024-01-05 10:00:00');
INSERT OVERWRITE db.events PARTITION (kind = 'view') VALUES (9, 'p9');
