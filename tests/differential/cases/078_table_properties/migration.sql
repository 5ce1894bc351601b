ALTER TABLE db.events SET TBLPROPERTIES ('comment' = 'click stream', 'owner.team' = 'data');
ALTER TABLE db.events SET TBLPROPERTIES ('write.format.default' = 'orc');
ALTER TABLE db.events SET TBLPROPERTIES ('write.metadata.previous-versions-max' = '5', 'read.split.target-size' = '1048576');
ALTER TABLE db.events UNSET TBLPROPERTIES ('owner.team');
ALTER TABLE db.events UNSET TBLPROPERTIES ('never.set');
ALTER TABLE db.events UNSET TBLPROPERTIES IF EXISTS ('never.set');
ALTER TABLE db.events SET TBLPROPERTIES ('write.format.default' = 'parquet', 'write.parquet.compression-codec' = 'zstd');
