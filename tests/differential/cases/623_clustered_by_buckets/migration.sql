-- CLUSTERED BY ... INTO n BUCKETS: Spark turns it into a bucket partition transform, after the
-- PARTITIONED BY ones, with the column spelled as the table spells it.
CREATE TABLE db.views (id bigint, User_Id bigint, ts timestamp) USING iceberg PARTITIONED BY (days(ts)) CLUSTERED BY (user_id) INTO 8 BUCKETS;
INSERT INTO db.views VALUES (1, 10, TIMESTAMP '2024-01-01 10:00:00');
ALTER TABLE db.views DROP PARTITION FIELD User_Id_bucket;
CREATE TABLE db.bad1 (id bigint, name string) USING iceberg CLUSTERED BY (id, name) INTO 4 BUCKETS;
CREATE TABLE db.bad2 (id bigint, name string) USING iceberg CLUSTERED BY (id) SORTED BY (name) INTO 4 BUCKETS;
CREATE TABLE db.bad3 (id bigint, name string) USING iceberg PARTITIONED BY (bucket(4, id)) CLUSTERED BY (id) INTO 8 BUCKETS;
CREATE TABLE db.bad4 (id bigint, name string) USING iceberg CLUSTERED BY (nope) INTO 4 BUCKETS;
CREATE TABLE IF NOT EXISTS db.clicks (id bigint, user_id bigint, ts timestamp) USING iceberg CLUSTERED BY (nope) INTO 4 BUCKETS;
CREATE TABLE IF NOT EXISTS db.clicks (id bigint, user_id bigint, ts timestamp) USING iceberg CLUSTERED BY (user_id) INTO 4 BUCKETS;
INSERT INTO db.clicks VALUES (2, 20, TIMESTAMP '2024-01-02 10:00:00');
CREATE TABLE db.copied USING iceberg CLUSTERED BY (id) INTO 4 BUCKETS AS SELECT id, user_id FROM db.clicks;
INSERT INTO db.copied VALUES (3, 30);
