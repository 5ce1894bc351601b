-- src (boolean, format v1, current spec: void(src) or nothing, plus days(sold_at)) only feeds partition spec 0
ALTER TABLE db.sales DROP COLUMN src;
