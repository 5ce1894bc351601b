"""Deployments: where data appears between the statements of a replay.

Migrations rarely write rows; pipelines do, between deployments. So a migration file that is
context (applied history), and every file boundary of a folder checked without a state source,
is a *deployment*: after it, every table that exists is presumed to hold data in every column it
has. The plan (`pending.deployment_epochs`) numbers the files: a file whose number is higher than
the previous file's starts after a deployment. The replay calls `cross` before each step; the
rest of this module says why a table holds rows or not (`model.data.DataOrigin`).

Deployments only ever turn "empty" into "presumed to hold data", table by table, so replaying
tables apart (`run/parallel.py`) gives each table the same state as replaying them together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from icelint.values import changes as ch
from icelint.model.data import DataOrigin
from icelint.model.table import TableMetadata


@dataclass(frozen=True)
class Deployments:
    """Which files deploy together: data can appear between deployments, not within one."""

    epochs: Mapping[str, int]  # file path → deployment number (files of one batch share it)
    applied: frozenset[str] = field(default_factory=frozenset)  # context files: applied history


def cross(deployments: Deployments, step: ch.Step, last: int | None, tables: dict[str, TableMetadata | None]) -> int | None:
    """Apply the deployments between the previous step's file and `step`'s; the current epoch."""
    epoch = deployments.epochs.get(step.span.path)
    if epoch is None:
        return last
    if last is not None and epoch > last:
        for key, meta in tables.items():
            if meta is None:
                continue
            if not meta.has_data:
                tables[key] = meta.evolve(has_data=True, data_origin=_presumed(meta, deployments, step))
            elif meta.data_origin is not None:  # already holds rows: now in the columns added since, too
                tables[key] = meta.evolve(data_origin=meta.data_origin._replace(index=step.index - 1))
    return epoch if last is None else max(epoch, last)


def _presumed(meta: TableMetadata, deployments: Deployments, step: ch.Step) -> DataOrigin:
    before = meta.data_origin
    where = before.where if before is not None else None
    path = where.rsplit(":", 1)[0] if where else None
    if before is not None and before.kind == "created" and path is not None:
        how = f"it was created by {'an applied migration' if path in deployments.applied else 'a migration deployed before this file,'} {path}"
    elif before is not None and before.kind == "emptied" and path is not None:
        how = f"it was emptied by {'an applied migration' if path in deployments.applied else 'a migration deployed before this file,'} {path}"
    else:
        how = "it existed before this file was deployed"
    return DataOrigin("presumed", where, step.index - 1, detail=how)


def created(meta: TableMetadata, step: ch.Commit) -> TableMetadata:
    """A table created (or replaced) by a statement: it holds no rows until something writes it."""
    return meta.evolve(has_data=False, data_origin=DataOrigin("created", f"{step.span.path}:{step.span.line}", step.index))


def selected(meta: TableMetadata, step: ch.Commit) -> TableMetadata:
    """CREATE / REPLACE TABLE ... AS SELECT: the new table holds the query's rows."""
    return meta.evolve(has_data=True, data_origin=DataOrigin("written", f"{step.span.path}:{step.span.line}", step.index))


def written(meta: TableMetadata, c: ch.WriteData, step: ch.Commit, ref: ch.NamedRef | None = None) -> TableMetadata:
    """The state after DML: TRUNCATE empties the current snapshot, everything else writes rows (a
    branch's rows are the table's data files too; emptying a branch leaves the table's own)."""
    where = f"{step.span.path}:{step.span.line}"
    if ref is not None and ref.name != "main" and (c.kind.startswith("truncate") or c.kind == "delete all"):
        return meta  # a branch emptied: the table's own rows stay, and no rows were written
    if c.kind.startswith("truncate"):
        if not meta.has_data:
            return meta
        return meta.evolve(has_data=False, data_origin=DataOrigin("emptied", where, step.index, detail="TRUNCATE"))
    return meta.evolve(has_data=True, data_origin=DataOrigin("written", where, step.index))


def emptied(meta: TableMetadata, step: ch.Commit, how: str) -> TableMetadata:
    return meta.evolve(has_data=False, data_origin=DataOrigin("emptied", f"{step.span.path}:{step.span.line}", step.index, detail=how))
