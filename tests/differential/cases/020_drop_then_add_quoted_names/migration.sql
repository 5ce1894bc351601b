ALTER TABLE db.web RENAME COLUMN `page title` TO `page_title`;
ALTER TABLE db.web DROP COLUMN `utm.source`;
ALTER TABLE db.web ADD COLUMN `UTM.Source` string;
