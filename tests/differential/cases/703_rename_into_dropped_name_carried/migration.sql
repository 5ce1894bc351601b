-- Renaming into a dropped column's name: when the dropped column's values were carried into the
-- renamed column before the drop (the textbook type change), readers of the name keep them; when
-- not, every row reads the other column's values (here: fewer of them) under the old name.
ALTER TABLE db.e ADD COLUMN amount_v2 bigint;
UPDATE db.e SET amount_v2 = CAST(amount AS bigint);
ALTER TABLE db.e DROP COLUMN amount;
ALTER TABLE db.e RENAME COLUMN amount_v2 TO amount;
ALTER TABLE db.e DROP COLUMN other;
ALTER TABLE db.e RENAME COLUMN notes TO other;
