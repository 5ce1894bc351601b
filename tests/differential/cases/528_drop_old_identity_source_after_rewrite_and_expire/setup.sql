-- modes: state
-- ICE003's help, followed: the files of the old spec rewritten and the old snapshots expired, from a
-- Spark session (operational steps, here in the setup), so no snapshot holds a file of spec 0 any more
CREATE TABLE db.sales (
  id      bigint NOT NULL,
  region  string,
  amount  int,
  sold_at timestamp
) USING iceberg
PARTITIONED BY (region)
TBLPROPERTIES ('format-version' = '2');

INSERT INTO db.sales VALUES (1, 'EU', 10, TIMESTAMP '2023-01-01 10:00:00'), (2, 'US', 20, TIMESTAMP '2023-01-02 10:00:00');

ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);
INSERT INTO db.sales VALUES (3, 'EU', 30, TIMESTAMP '2023-02-01 10:00:00');

CALL system.rewrite_data_files(table => 'db.sales', options => map('rewrite-all', 'true'));
CALL system.expire_snapshots(table => 'db.sales', older_than => TIMESTAMP '9999-12-31 00:00:00', retain_last => 1);
