-- release 2: product wants payload back, as bytes this time
ALTER TABLE db.events ADD COLUMN payload binary COMMENT 'raw bytes';
