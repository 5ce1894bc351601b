"""pyiceberg's reader, the version icelint pins (0.12, with pyarrow 26): `StaticTable.from_metadata(<metadata.json>).scan().to_arrow()`.

pyiceberg reads every schema change Spark makes, v3 tables and their deletion vectors, and ORC data
files, with the values Spark reads. It fails on data files written as Avro
(`write.format.default` = 'avro') and on position delete files written as Avro
(`write.delete.format.default` = 'avro'): its scan reads Parquet and ORC files only.
Each entry names the reader differential case (`tests/readers/`) that measured it.
"""

from __future__ import annotations

from icelint.readers.model import READ_ALIKE, Behaviour, Does, Profile, reads_all

AVRO_ERROR = "ValueError: Unsupported file format: FileFormat.AVRO"
AVRO_DELETES_ERROR = "ValueError: Delete file format not supported: FileFormat.AVRO"

_READS = {
    **READ_ALIKE,
    "null-nested-values": "092_all_types_added, 013_drop_then_add_whole_struct, r18_added_nested_columns",
}

TABLE = {
    **reads_all(_READS),
    ("format-upgrade", 2): Behaviour(Does.READS, "r11_format_upgrades, 077_format_version_properties"),
    ("format-upgrade", 3): Behaviour(Does.READS, "r11_format_upgrades"),
    ("position-deletes", 2): Behaviour(Does.READS, "r06_v2_position_deletes"),
    ("orc-position-deletes", 2): Behaviour(Does.READS, "r15_orc_position_deletes"),
    ("orc-delete-files", 2): Behaviour(Does.READS, "r16_orc_delete_files"),
    ("avro-delete-files", 2): Behaviour(Does.FAILS, "r17_avro_delete_files", AVRO_DELETES_ERROR),
    ("deletion-vectors", 3): Behaviour(Does.READS, "r01_v3_mor_delete, r02_v3_mor_update, r03_v3_mor_merge"),
    **{("avro-data-files", v): Behaviour(Does.FAILS, "r09_avro_default", AVRO_ERROR) for v in (1, 2, 3)},
}

PROFILE = Profile(
    name="pyiceberg",
    title="pyiceberg",
    measured_with="pyiceberg 0.12.0 + pyarrow 26.0.1: StaticTable.from_metadata(<metadata.json>).scan().to_arrow()",
    table=TABLE,
)
