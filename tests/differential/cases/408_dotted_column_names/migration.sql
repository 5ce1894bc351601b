ALTER TABLE db.visits ADD COLUMN `utm.source` string;
ALTER TABLE db.visits ADD COLUMN ctx.`page.url` string;
ALTER TABLE db.visits RENAME COLUMN page TO `page.path`;
ALTER TABLE db.visits RENAME COLUMN `page.path` TO page_path;
