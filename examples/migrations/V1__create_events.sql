-- The table as it was first deployed (pipelines have written rows into it since).
CREATE TABLE db.events (
  event_id bigint NOT NULL,
  account_id bigint NOT NULL,
  kind string,
  payload string,
  created_at timestamp
) USING iceberg
PARTITIONED BY (days(created_at));

ALTER TABLE db.events SET IDENTIFIER FIELDS event_id;
