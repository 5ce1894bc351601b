"""The rules about names a dropped field held: one analysis (`analysis.py`) and four rules, ICE001
`drop_then_add`, ICE015 `drop_then_add_empty`, ICE016 `rename_into_dropped_name`, ICE030
`rename_into_dropped_name_backfilled`."""
