"""Statements that name a branch, tag or snapshot of a table after its name (`db.t.branch_audit`).

Iceberg 1.10's SparkCatalog, asked for a table that does not exist, reads a last name part
`branch_<name>`, `tag_<name>`, `snapshot_id_<id>` or `at_timestamp_<ms>` as a ref of the table before
it (measured, differential case 633): a branch that exists (or `main`) takes INSERT, UPDATE, DELETE,
MERGE and TRUNCATE against the table's current schema; a tag or a snapshot takes no writes; DDL finds
no table of that name; DROP TABLE finds the ref, drops nothing and succeeds. With the session's
`spark.wap.branch` set, writes to a table with `write.wap.enabled=true` go to that branch, which the
first one makes (case 636).
"""

from __future__ import annotations

from types import MappingProxyType

from icelint.values import changes as ch
from icelint.model.table import TableMetadata
from icelint.replay.common import quoted
from icelint.replay.errors import ReplayError


def exists(ref: ch.NamedRef, meta: TableMetadata) -> bool | None:
    """Whether the ref exists (None for a snapshot: its ids are known from a state source only). A
    table's refs are those its state lists and the migrations made, as for `CREATE` / `DROP BRANCH`."""
    if ref.kind == "branch" and ref.name == "main":
        return True
    if ref.kind in ("branch", "tag"):
        return meta.refs.get(ref.name) == ref.kind
    return None


def check_write(ref: ch.NamedRef, kind: str, meta: TableMetadata, wap: str | None = None) -> None:
    """A write to a ref: an existing branch (or `main`) takes rows; a tag or a snapshot cannot be
    written (INSERT, DELETE and MERGE measured; an UPDATE of a tag was accepted, and is left alone);
    no branch by name while the session writes the table to its WAP branch (`wap`, case 636)."""
    if ref.kind == "branch" and wap is not None:
        raise ReplayError("ref", f"Cannot write to both branch and WAP branch, but got branch [{ref.name}] and WAP branch [{wap}]", "iceberg")
    if ref.kind == "branch":
        if meta.refs.get(ref.name) == "tag":
            raise ReplayError("ref", f"{ref.name} is a tag, not a branch. Tags cannot be targets for producing snapshots", "iceberg")
        if not exists(ref, meta):
            raise ReplayError("ref", f"Cannot use branch (does not exist): {ref.name}", "iceberg")
        return
    if exists(ref, meta) is False:
        raise ReplayError("ref", _not_found(quoted(ref.written)), "spark")
    if kind.startswith("update"):
        return
    verb = "delete from" if kind.startswith("delete") else "write to"
    raise ReplayError("ref", f"Cannot {verb} table at a specific snapshot ({ref.label})", "iceberg")


def wap_enabled(meta: TableMetadata) -> bool:
    """Whether writes to the table go to the session's `spark.wap.branch` (table property `write.wap.enabled`)."""
    return meta.properties.get("write.wap.enabled", "").strip().lower() == "true"


def wap_write(meta: TableMetadata, branch: str) -> tuple[TableMetadata, ch.NamedRef]:
    """A write to the session's WAP branch (measured, differential case 636): the first one makes the
    branch; the write is then the branch's, as one to `t.branch_<name>` is."""
    if meta.refs.get(branch) is None and branch != "main":
        meta = meta.evolve(refs=MappingProxyType({**meta.refs, branch: "branch"}))
    return meta, ch.NamedRef("branch", branch, "", "")


def check_other(ref: ch.NamedRef, change: object, meta: TableMetadata) -> None:
    """Any other statement on a ref's name: DROP TABLE drops nothing where the ref exists, and fails where
    a branch does not (IF EXISTS or not: the catalog's look-up fails, it does not find "no table"); a
    tag that does not exist is no table (IF EXISTS: nothing to drop). Everything else finds no table."""
    if isinstance(change, ch.DropTable):
        if ref.kind == "branch" and not exists(ref, meta):
            raise ReplayError("ref", f"Cannot use branch (does not exist): {ref.name}", "iceberg")
        if exists(ref, meta) is False and not change.if_exists:
            raise ReplayError("ref", _not_found(quoted(ref.written)), "spark")
        return
    raise ReplayError("ref", _not_found(ref.written), "spark")


def _not_found(name: str) -> str:
    return f"[TABLE_OR_VIEW_NOT_FOUND] The table or view {name} cannot be found. Verify the spelling and correctness of the schema and catalog."
