-- Statements from Delta Lake and other databases that Spark 3.5 cannot run on an Iceberg table:
-- OPTIMIZE and VACUUM do not parse, GRANT and REVOKE are "Operation not allowed", CREATE/DROP INDEX
-- parse and are refused (ICE006, ICE005); then the Iceberg procedures the helps propose.
OPTIMIZE db.t ZORDER BY (id, v);
OPTIMIZE db.t WHERE dt >= '2024-01-01';
VACUUM db.t RETAIN 168 HOURS;
GRANT SELECT ON TABLE db.t TO analyst;
REVOKE SELECT ON TABLE db.t FROM analyst;
CREATE INDEX IF NOT EXISTS t_id ON TABLE db.t USING BTREE (id);
DROP INDEX t_id ON db.t;
CALL system.rewrite_data_files(table => 'db.t', strategy => 'sort', sort_order => 'zorder(id, v)');
CALL system.rewrite_data_files(table => 'db.t');
CALL system.expire_snapshots(table => 'db.t'); CALL system.remove_orphan_files(table => 'db.t');
INSERT INTO db.t VALUES (3, '2024-01-03', 7);
