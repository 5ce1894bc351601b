ALTER TABLE db.events ADD COLUMN first_col int FIRST;
ALTER TABLE db.events ADD COLUMN after_kind int AFTER kind;
ALTER TABLE db.events ADD COLUMNS (c1 int AFTER event_id, c2 int FIRST, c3 int);
ALTER TABLE db.events ADD COLUMN attrs.first_in_struct int FIRST;
ALTER TABLE db.events ADD COLUMN attrs.after_source int AFTER source;
ALTER TABLE db.events ADD COLUMN items.element.after_name int AFTER name;
ALTER TABLE db.events ADD COLUMN bad int AFTER attrs.source;
ALTER TABLE db.events ADD COLUMN attrs.bad int AFTER kind;
