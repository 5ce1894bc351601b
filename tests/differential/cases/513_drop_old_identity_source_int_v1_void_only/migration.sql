-- src (int, format v1, current spec: no live partition field) only feeds partition spec 0
ALTER TABLE db.sales DROP COLUMN src;
