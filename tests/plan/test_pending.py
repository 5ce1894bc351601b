"""Pending versus applied files: named files and `--since REF` (on real git repositories), with and without a state."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ci.conftest import CLEAN, NARROW, READD, SNAPSHOT, codes, git, icelint, write


def check(base: Path, *args: str, cwd: Path | None = None):
    return icelint("check", *args, "--format", "json", cwd=cwd or base)


# ---------------------------------------------------------------------------- named files


def test_named_file_is_pending_and_the_folder_is_context(repo: Path) -> None:
    write(repo, "migrations/V3__readd.sql", READD)
    r = check(repo, "migrations/V3__readd.sql")
    # ICE001 needs the drop of V2 (context); V2's own warning (ICE011) is not reported
    assert codes(r) == [("ICE001", "V3__readd.sql", 1)]
    assert r.json()["summary"]["files"] == 1 and r.json()["summary"]["statements"] == 1
    assert "(and 2 as context)" in icelint("check", "migrations/V3__readd.sql", cwd=repo).out


def test_whole_folder_is_pending(repo: Path) -> None:
    write(repo, "migrations/V3__readd.sql", READD)
    assert [c[0] for c in codes(check(repo))] == ["ICE011", "ICE001"]  # V2 then V3
    assert codes(check(repo)) == codes(check(repo, "migrations"))


def test_files_are_replayed_in_folder_order_whatever_the_argument_order(repo: Path) -> None:
    write(repo, "migrations/V10__readd.sql", READD)
    write(repo, "migrations/V9__narrow.sql", NARROW)
    r = check(repo, "migrations/V10__readd.sql", "migrations/V9__narrow.sql")
    # findings follow the migration order too: V9 runs (and is reported) before V10
    assert codes(r) == [("ICE002", "V9__narrow.sql", 1), ("ICE001", "V10__readd.sql", 1)]


def test_file_outside_the_folder_is_checked_after_the_history(repo: Path) -> None:
    write(repo, "scratch/next.sql", READD)
    assert codes(check(repo, "scratch/next.sql")) == [("ICE001", "next.sql", 1)]


def test_table_unknown_to_the_history_is_reported_in_the_pending_file(repo: Path) -> None:
    write(repo, "migrations/V3__other.sql", "ALTER TABLE db.other ADD COLUMN a int;\n")
    write(repo, "migrations/V4__other.sql", "ALTER TABLE db.other ADD COLUMN b int;\n")
    r = check(repo, "migrations/V4__other.sql")
    assert codes(r) == [("ICE005", "V4__other.sql", 1)]
    assert "db.other` is not known here" in r.json()["findings"][0]["message"]


# ---------------------------------------------------------------------------- with a state


SETUP = """CREATE TABLE db.events (
  event_id bigint NOT NULL,
  account_id bigint NOT NULL,
  kind string,
  payload string,
  created_at timestamp
) USING iceberg
PARTITIONED BY (days(created_at));
INSERT INTO db.events VALUES (1, 10, 'signup', 'x', TIMESTAMP '2024-03-01 10:00:00');
"""


@pytest.mark.skipif(not SNAPSHOT.is_file(), reason=f"{SNAPSHOT} is not in this checkout")
def test_with_a_state_context_files_are_not_replayed(tmp_path: Path) -> None:
    # the snapshot was written by real Spark after SETUP: it still has `payload`
    write(tmp_path, "migrations/V1__create.sql", SETUP)
    write(tmp_path, "migrations/V2__drop.sql", "ALTER TABLE db.events DROP COLUMN payload;\n")
    write(tmp_path, "migrations/V3__readd.sql", READD)
    without = check(tmp_path, "migrations/V3__readd.sql", "--migrations", "migrations")
    assert codes(without) == [("ICE001", "V3__readd.sql", 1)]  # replayed V1, V2, V3
    state = f"db.events={SNAPSHOT}"
    with_state = check(tmp_path, "migrations/V3__readd.sql", "--migrations", "migrations", "--metadata", state)
    # only V3 replayed over the snapshot: `payload` still exists there (a CREATE replayed over it
    # would have failed; a DROP replayed over it would have made this an ICE001)
    assert codes(with_state) == [("ICE005", "V3__readd.sql", 1)]
    assert "already exists" in with_state.json()["findings"][0]["message"]
    write(tmp_path, "pyproject.toml", f'[tool.icelint]\nmigrations = "migrations"\nmetadata = {{ "db.events" = "{SNAPSHOT}" }}\n')
    assert codes(check(tmp_path, "migrations/V3__readd.sql")) == codes(with_state)  # the state from the config
    clean = check(tmp_path, "migrations/V3__readd.sql", "--metadata", state, cwd=tmp_path)
    assert clean.json()["summary"]["files"] == 1


# ---------------------------------------------------------------------------- --since on a real git repository


@pytest.fixture
def gitrepo(repo: Path) -> Path:
    """main: V1, V2 committed; branch `feature` off it."""
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "history")
    git(repo, "checkout", "-q", "-b", "feature")
    return repo


def test_since_reports_only_files_changed_on_the_branch(gitrepo: Path) -> None:
    write(gitrepo, "migrations/V3__readd.sql", READD)
    git(gitrepo, "add", ".")
    git(gitrepo, "commit", "-q", "-m", "V3")
    r = check(gitrepo, "--since", "main")
    assert codes(r) == [("ICE001", "V3__readd.sql", 1)]
    assert r.json()["summary"]["files"] == 1
    # from a sub-directory, with the folder named, and with the ref spelled as a commit
    sha = git(gitrepo, "rev-parse", "main").strip()
    assert codes(check(gitrepo, "--since", sha, "..", cwd=gitrepo / "migrations")) == [("ICE001", "V3__readd.sql", 1)]
    assert codes(check(gitrepo, "--since", "main", "migrations")) == codes(r)


def test_since_includes_work_tree_changes_and_untracked_files(gitrepo: Path) -> None:
    write(gitrepo, "migrations/V2__drop_payload.sql", "-- edited\n" + "ALTER TABLE db.events DROP COLUMN payload;\n")
    write(gitrepo, "migrations/V3__narrow.sql", NARROW)  # untracked
    write(gitrepo, "notes.txt", "not sql")
    r = check(gitrepo, "--since", "main")
    # V2 existed on main and was edited: an applied migration changed (ICE023, at the file's first line)
    assert codes(r) == [
        ("ICE023", "V2__drop_payload.sql", 1),
        ("ICE011", "V2__drop_payload.sql", 2),
        ("ICE002", "V3__narrow.sql", 1),
    ]


def test_since_diffs_against_the_merge_base(gitrepo: Path) -> None:
    write(gitrepo, "migrations/V3__readd.sql", READD)
    git(gitrepo, "add", ".")
    git(gitrepo, "commit", "-q", "-m", "V3 on the branch")
    git(gitrepo, "checkout", "-q", "main")
    write(gitrepo, "migrations/V2__drop_payload.sql", "-- main moved on\n" + "ALTER TABLE db.events DROP COLUMN payload;\n")
    write(gitrepo, "migrations/V5__main_only.sql", CLEAN)
    git(gitrepo, "add", ".")
    git(gitrepo, "commit", "-q", "-m", "main moves on")
    git(gitrepo, "checkout", "-q", "feature")
    # V2 differs between main and the branch, but the branch did not change it: not pending
    assert codes(check(gitrepo, "--since", "main")) == [("ICE001", "V3__readd.sql", 1)]


def test_since_with_nothing_changed(gitrepo: Path) -> None:
    r = icelint("check", "--since", "main", cwd=gitrepo)
    assert r.code == 0 and "Checked 0 files (and 2 as context), 0 statements" in r.out


def test_since_errors_are_one_line_exit_2(gitrepo: Path, tmp_path_factory) -> None:
    r = icelint("check", "--since", "origin/nope", cwd=gitrepo)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "unknown git revision 'origin/nope'" in r.err
    plain = tmp_path_factory.mktemp("nogit")
    write(plain, "a.sql", CLEAN)
    r = icelint("check", "--since", "main", "a.sql", cwd=plain)
    assert r.code == 2 and "not inside a git repository" in r.err


def test_since_with_a_state_replays_only_the_pending_files(gitrepo: Path) -> None:
    if not SNAPSHOT.is_file():
        pytest.skip(f"{SNAPSHOT} is not in this checkout")
    write(gitrepo, "migrations/V3__source.sql", "ALTER TABLE db.events ADD COLUMN source string AFTER kind;\n")
    r = check(gitrepo, "--since", "main", "--metadata", f"db.events={SNAPSHOT}")
    # against the snapshot (which has `kind`), V1's CREATE and V2's DROP are not replayed: the AFTER
    # is accepted (a new column's position is no reorder), no finding
    assert r.code == 0 and codes(r) == []
    # without it, the history has no `kind`: the AFTER fails
    assert [c[0] for c in codes(check(gitrepo, "--since", "main"))] == ["ICE005"]


def test_since_without_configuration_checks_every_changed_sql_file(tmp_path: Path) -> None:
    write(tmp_path, "db/V1__create.sql", "CREATE TABLE db.t (id bigint) USING iceberg;\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "one")
    write(tmp_path, "db/V10__b.sql", "ALTER TABLE db.other ADD COLUMN b int;\n")
    write(tmp_path, "db/V9__a.sql", "ALTER TABLE db.other ADD COLUMN a int;\n")
    r = check(tmp_path, "--since", "HEAD")
    # no migrations folder: no context (db.t's CREATE is not replayed); V9 before V10
    assert codes(r) == [("ICE005", "V9__a.sql", 1)]
    assert r.json()["summary"]["files"] == 2
    assert [f["path"] for f in r.json()["findings"]] == ["db/V9__a.sql"]
