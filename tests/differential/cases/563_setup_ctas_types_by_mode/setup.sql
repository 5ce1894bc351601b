CREATE TABLE db.orders (
  order_id bigint NOT NULL,
  customer string,
  amount   decimal(10, 2)
) USING iceberg;

INSERT INTO db.orders VALUES (1, 'ann', 10.50), (2, 'bob', 20.00);

-- In the state mode icelint reads this table's types from metadata.json; in the pre-commit and folder
-- modes it replays this CTAS, and `customer_uc`, `name_len` and `amount2` get types it cannot know.
CREATE TABLE db.order_names USING iceberg
AS SELECT order_id, upper(customer) AS customer_uc, length(customer) AS name_len, amount * 2 AS amount2 FROM db.orders;
