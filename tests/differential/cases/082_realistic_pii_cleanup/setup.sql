CREATE TABLE db.users (
  user_id    bigint NOT NULL,
  email      string,
  ssn        string,
  birth_date date,
  profile    struct<nickname: string, phone: string, score: int>,
  signup_ts  timestamp
) USING iceberg
PARTITIONED BY (months(signup_ts));
INSERT INTO db.users VALUES
  (1, 'a@x', '111', DATE '1990-01-01', named_struct('nickname', 'a', 'phone', '+1', 'score', 1), TIMESTAMP '2024-01-01 00:00:00'),
  (2, 'b@x', '222', DATE '1991-01-01', named_struct('nickname', 'b', 'phone', '+2', 'score', 2), TIMESTAMP '2024-02-01 00:00:00');
