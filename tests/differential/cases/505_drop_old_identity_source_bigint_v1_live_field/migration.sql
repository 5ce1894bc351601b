-- v1: void(shop_id) stays in the current spec next to days(sold_at): every later INSERT fails
ALTER TABLE db.sales DROP COLUMN shop_id;
