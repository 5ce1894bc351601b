"""Hive table commands (and indexes) Spark parses and then refuses on an Iceberg table (a v2 table to Spark).

Teams coming from Hive tables keep writing them in migrations: `ALTER TABLE t ADD PARTITION (...)`,
`MSCK REPAIR TABLE t`, `ANALYZE TABLE t COMPUTE STATISTICS`. Each fails when the migration runs, with
these messages (Spark 3.5.9 + Iceberg 1.10.2, probed on 2026-11-24; differential case 626). Spark
qualifies the table with its catalog in the first (`local`.`db`.`t`); icelint names it as written.
"""

from __future__ import annotations

from icelint.values import changes as ch
from icelint.model.table import TableMetadata
from icelint.replay.common import quoted
from icelint.replay.errors import ReplayError

_PARTITIONS = "[INVALID_PARTITION_OPERATION.PARTITION_MANAGEMENT_IS_UNSUPPORTED] The partition command is invalid. Table {table} does not support partition management."

MESSAGES = {
    "add partition": _PARTITIONS,  # ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (...) [LOCATION '...'] ...
    "drop partition": _PARTITIONS,  # ALTER TABLE t DROP [IF EXISTS] PARTITION (...)[, PARTITION (...)] [PURGE]
    "rename partition": _PARTITIONS,  # ALTER TABLE t PARTITION (...) RENAME TO PARTITION (...)
    "truncate partition": _PARTITIONS,  # TRUNCATE TABLE t PARTITION (...)
    "partition location": "ALTER TABLE SET LOCATION does not support partition for v2 tables.",
    "recover partitions": "[NOT_SUPPORTED_COMMAND_FOR_V2_TABLE] ALTER TABLE ... RECOVER PARTITIONS is not supported for v2 tables.",
    "serde": "[NOT_SUPPORTED_COMMAND_FOR_V2_TABLE] ALTER TABLE ... SET [SERDE|SERDEPROPERTIES] is not supported for v2 tables.",
    "analyze table": "[NOT_SUPPORTED_COMMAND_FOR_V2_TABLE] ANALYZE TABLE is not supported for v2 tables.",
    "repair table": "[NOT_SUPPORTED_COMMAND_FOR_V2_TABLE] MSCK REPAIR TABLE is not supported for v2 tables.",
    # CREATE INDEX [IF NOT EXISTS] i ON [TABLE] t (...), DROP INDEX [IF EXISTS] i ON [TABLE] t (Spark: `local.db.t`)
    "create index": "CreateIndex is not supported in this table {name}.",
    "drop index": "DropIndex is not supported in this table {name}.",
    # CREATE TABLE t LIKE s: Spark's CreateTableLikeCommand works on its built-in session catalog only (measured
    # with the Iceberg catalog as the current one: `db.s` → [SCHEMA_NOT_FOUND] `db`, `cat.db.s` → syntax error)
    "create table like": "CREATE TABLE ... LIKE is not supported for Iceberg tables: Spark copies the source in its "
    "built-in session catalog, not in the Iceberg catalog ([SCHEMA_NOT_FOUND] where the namespace is only there)",
}


def not_for_v2(replay: object, meta: TableMetadata, c: ch.NotForV2, step: ch.Commit) -> TableMetadata:
    """Spark refuses the command on an existing Iceberg table (a missing one: not found, before this)."""
    raise ReplayError("v2-command", MESSAGES[c.command].format(table=quoted(step.table), name=step.table), "spark", span=c.span)
