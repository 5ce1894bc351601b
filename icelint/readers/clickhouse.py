"""ClickHouse's Iceberg reader, measured with chDB 4.4.0 (ClickHouse 26.9.0): `SELECT * FROM icebergLocal('<db>/<t>')`.

ClickHouse's documentation says nested changes are not supported and v3 is not read; the engine
does better: it reads every schema change Spark makes (nested ones included) and v3 tables, with
the values Spark reads. It fails on one table state: deletion vectors, which Spark 3.5 + Iceberg
1.10 writes for a merge-on-read DELETE/UPDATE/MERGE that removes part of a data file of a v3
table; and position deletes on a v2 table unless both the delete files and the data files they
apply to are Parquet. Parquet position delete files over Parquet data files are read.
Each entry names the reader differential case (`tests/readers/`) that measured it.
"""

from __future__ import annotations

from icelint.readers.model import READ_ALIKE, Behaviour, Does, Profile, reads_all

DV_ERROR = (
    "Code: 36. DB::Exception: Position deletes are supported only for parquet format: "
    "While executing ReadFromObjectStorage. (BAD_ARGUMENTS)"
)

ORC_DELETES_ERROR = (
    "Code: 48. DB::Exception: Position deletes are only supported for data files of Parquet format in Iceberg, "
    "but got ORC: While executing ReadFromObjectStorage. (NOT_IMPLEMENTED)"
)

NULL_NESTED = "a NULL struct reads as a struct of NULLs, a NULL list as [] and a NULL map as {} (Spark: NULL)"

_READS = {
    **READ_ALIKE,
    "avro-data-files": "r09_avro_default",
}

TABLE = {
    **reads_all(_READS),
    ("format-upgrade", 2): Behaviour(Does.READS, "r11_format_upgrades, 077_format_version_properties"),
    ("format-upgrade", 3): Behaviour(Does.READS, "r11_format_upgrades"),
    ("position-deletes", 2): Behaviour(Does.READS, "r06_v2_position_deletes"),
    **{("null-nested-values", v): Behaviour(Does.WRONG, "092_all_types_added, 013_drop_then_add_whole_struct, r18_added_nested_columns", NULL_NESTED) for v in (1, 2, 3)},
    ("orc-position-deletes", 2): Behaviour(Does.FAILS, "r15_orc_position_deletes", ORC_DELETES_ERROR),
    ("orc-delete-files", 2): Behaviour(Does.FAILS, "r16_orc_delete_files", DV_ERROR),
    ("avro-delete-files", 2): Behaviour(Does.FAILS, "r17_avro_delete_files", DV_ERROR),
    ("deletion-vectors", 3): Behaviour(
        Does.FAILS, "r01_v3_mor_delete, r02_v3_mor_update, r03_v3_mor_merge, r04_upgrade_mor_v2_to_v3, r05_set_mor_on_v3",
        DV_ERROR,
    ),
}

PROFILE = Profile(
    name="clickhouse",
    title="ClickHouse",
    measured_with="chDB 4.4.0 (ClickHouse 26.9.0): SELECT * FROM icebergLocal('<db>/<t>')",
    table=TABLE,
)
