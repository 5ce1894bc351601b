-- A SET key with `-` must be back-quoted: unquoted it is Spark's INVALID_SET_SYNTAX parse error.
SET spark.sql.iceberg.use-timestamp-without-timezone-in-new-tables=false;
SET spark.sql.iceberg.use-timestamp-without-timezone-in-new-tables = false;
SET spark.sql.iceberg.use-timestamp-without-timezone-in-new-tables;
SET `spark.sql.iceberg.use-timestamp-without-timezone-in-new-tables`=false;
SET `spark.sql.iceberg.use-timestamp-without-timezone-in-new-tables` = false;
SET spark.sql.shuffle.partitions=4;
SET spark.sql.iceberg:check=1;
INSERT INTO db.t VALUES (2);
