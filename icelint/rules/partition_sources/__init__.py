"""The rules about the columns partition specs read: one analysis (`analysis.py`) and four rules,
ICE003 `partition_source_change`, ICE025 `old_partition_source_drop`, ICE026
`partition_source_widening`, ICE027 `partition_source_rename`."""
