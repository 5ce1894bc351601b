"""`icelint check` with a metadata file (or a table directory) never imports pyiceberg."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import FIX, ROOT


def _imported(args: list[str], cwd) -> set[str]:
    """Top-level modules imported by a whole `python -X importtime -m icelint ARGS` process."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "icelint", *args], capture_output=True, text=True, cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(cwd), **_pyiceberg_env(cwd)},
    )  # fmt: skip
    assert out.returncode in (0, 1), out.stderr[-2000:]
    names = set()
    for line in out.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    assert "icelint" in names
    return names


def _pyiceberg_env(cwd) -> dict[str, str]:
    return {"PYICEBERG_HOME": str(cwd)}


@pytest.fixture
def migration(tmp_path):
    (tmp_path / "m.sql").write_text("ALTER TABLE db.events ADD COLUMN c int;\n")
    return tmp_path


def test_metadata_file_does_not_import_pyiceberg(migration):
    names = _imported(["check", "m.sql", "--metadata", f"db.events={FIX / 'warehouse/db/events/metadata/v3.metadata.json'}"], migration)
    assert "pyiceberg" not in names
    assert "pyarrow" not in names


def test_table_dir_and_warehouse_do_not_import_pyiceberg(migration):
    names = _imported(["check", "m.sql", "--table-dir", f"db.events={FIX / 'nohint/db/events'}"], migration)
    assert "pyiceberg" not in names
    names = _imported(["check", "m.sql", "--warehouse", str(FIX / "warehouse")], migration)
    assert "pyiceberg" not in names


def test_the_catalog_path_does_import_it(migration, sql_catalog):
    """Control: the measurement sees pyiceberg when it is used."""
    (migration / ".pyiceberg.yaml").write_text(f"catalog:\n  test:\n    uri: {sql_catalog['props']['uri']}\n")
    names = _imported(["check", "m.sql", "--catalog", "test"], migration)
    assert "pyiceberg" in names
