CREATE TABLE db.jobs (
  job_id bigint,
  name   string
) USING iceberg;

INSERT INTO db.jobs VALUES (1, 'nightly'), (2, 'hourly');
