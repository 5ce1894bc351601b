"""What a reader does with a table after a kind of change: the shared model of the reader profiles.

A profile (one module per reader: `spark`, `clickhouse`, `pyiceberg`) is a table in code: per kind of
change (:data:`KINDS`) and format version, a :class:`Behaviour` that says whether the reader reads the
table as Spark does, fails (with its exact error line), or reads wrong values, and which measurement
shows it (a reader differential case under `tests/readers/`, run against the real engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping

FORMAT_VERSIONS = (1, 2, 3)

# kind of change → what it is (the keys of every profile's table)
KINDS: dict[str, str] = {
    "add-column": "a column added (top level or inside a struct)",
    "drop-column": "a column dropped (top level or inside a struct)",
    "null-nested-values": "a struct, list or map column added to a table with rows (old rows read NULL in Spark)",
    "drop-readd": "a column dropped and re-added under the same name (a new field id)",
    "rename": "a column renamed (top level or inside a struct)",
    "reorder": "a column moved (FIRST / AFTER)",
    "type-widening": "int → bigint, float → double, decimal precision widened (top level)",
    "nested-type-widening": "a struct field, list element or map value widened",
    "required-to-optional": "a NOT NULL column made nullable",
    "identifier-fields": "identifier fields set or dropped",
    "partition-evolution": "partition fields added, dropped or replaced",
    "format-upgrade": "the format version upgraded (1 → 2, 2 → 3)",
    "position-deletes": "merge-on-read DELETE/UPDATE/MERGE on a v2 table (position delete files)",
    "deletion-vectors": "merge-on-read DELETE/UPDATE/MERGE on a v3 table (deletion vectors in Puffin files)",
    "orc-position-deletes": "merge-on-read DELETE/UPDATE/MERGE on a v2 table whose data files are ORC",
    "orc-delete-files": "position delete files written as ORC (`write.delete.format.default`) on a v2 table",
    "avro-delete-files": "position delete files written as Avro (`write.delete.format.default`) on a v2 table",
    "orc-data-files": "data files written as ORC (`write.format.default` = 'orc')",
    "avro-data-files": "data files written as Avro (`write.format.default` = 'avro')",
}


class Does(str, Enum):
    READS = "reads"  # the same rows and values as Spark
    FAILS = "fails"  # the query fails
    WRONG = "wrong"  # the query succeeds with other values than Spark's (NULLs, another column)


@dataclass(frozen=True)
class Behaviour:
    """What one reader does with one kind of table content, and the measurement that shows it."""

    does: Does
    evidence: str  # the measurement: `tests/readers/cases.py::<case>` (and the docs section)
    detail: str = ""  # FAILS: the reader's exact error line; WRONG: what it reads instead

    @property
    def ok(self) -> bool:
        return self.does is Does.READS


@dataclass(frozen=True)
class Profile:
    """A reader (ClickHouse, pyiceberg): how it was measured and what it does, per kind and format version."""

    name: str  # as written in `readers = [...]` and `--readers`
    title: str  # as a sentence names it: "ClickHouse"
    measured_with: str  # engine, version and the read call measured
    table: Mapping[tuple[str, int], Behaviour]  # (kind, format version) → behaviour

    def behaviour(self, kind: str, format_version: int) -> Behaviour | None:
        return self.table.get((kind, format_version))

    def problem(self, kind: str, format_version: int) -> Behaviour | None:
        """The behaviour when the reader does not read the table as Spark does, else None."""
        b = self.behaviour(kind, format_version)
        return b if b is not None and not b.ok else None


# Changes after which ClickHouse and pyiceberg both read what Spark reads, and the cases that measured it
# (the reader suite, tests/readers/, reads each of these cases with both readers).
READ_ALIKE = {
    "add-column": "066_nested_adds, 065_add_column_positions, 092_all_types_added",
    "drop-column": "068_nested_drops, 037_drop_partition_field_then_column_v2",
    "drop-readd": "001_drop_then_add_same_file, 005/006/007 (struct field, list element, map value), 011 (v1)",
    "rename": "067_nested_renames, 012_rename_into_dropped_name, 039_rename_partition_source",
    "reorder": "063_column_moves",
    "type-widening": "023_legal_type_promotions, 083_realistic_widening_release",
    "nested-type-widening": "r12_nested_widening",
    "required-to-optional": "047_nullability_changes, r13_required_identifier",
    "identifier-fields": "050_identifier_fields, r13_required_identifier",
    "partition-evolution": "042_partition_evolution_v2, 043_partition_drop_readd_v1_and_v2",
    "orc-data-files": "r08_orc_default, r10_switch_to_orc",
}


def reads_all(evidence: Mapping[str, str], versions: tuple[int, ...] = FORMAT_VERSIONS) -> dict[tuple[str, int], Behaviour]:
    """`READS` for every kind in `evidence` (kind → the measurement) at each format version."""
    return {(k, v): Behaviour(Does.READS, e) for k, e in evidence.items() for v in versions}
