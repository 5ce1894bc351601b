"""Property-based fuzzing, bounded to about a minute in the default test run.

Generated Spark/Iceberg DDL (with text mutations) and mutated metadata.json files (deleted keys,
wrong types, extreme numbers, deep nesting, truncation, NaN/Infinity, compression garbage), both
loaders: icelint gives a result or the documented input error (exit 2, one line naming the file),
never an internal error or a traceback, and the same output twice. The examples are derandomized,
so a failure here reproduces; `python bench/fuzz.py --minutes 30` explores at random for longer.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.faults.fuzz_inputs import check_metadata_file, check_sql_file, metadata_files, sql_files

# ICELINT_FUZZ_EXAMPLES scales every budget (e.g. 0.2 for a quick run, 5 for a longer one)
SCALE = float(os.environ.get("ICELINT_FUZZ_EXAMPLES", "1"))
BOUNDED = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=max(1, int(350 * SCALE)), **BOUNDED)
@given(text=sql_files(), with_state=st.booleans())
# found by `bench/fuzz.py` (2026-11-24): an IF NOT EXISTS that names a column twice, of a table that exists
# (ICE061's help crashed; Spark rejects the statement in its analyzer, before it looks for the table)
@example(text="CREATE TABLE db.t (id int, id int) USING iceberg;\nCREATE TABLE db.t (id bigint) USING iceberg;\n"
         "CREATE TABLE IF NOT EXISTS db.t (id int, id int) USING iceberg PARTITIONED BY (id, bucket(4, id)) "
         "TBLPROPERTIES ('format-version'='1');\n", with_state=False)
@example(text="CREATE TABLE db.t (id bigint) USING iceberg;\nSET spark.sql.caseSensitive=true;\n"
         "CREATE TABLE IF NOT EXISTS db.t (id bigint, ID string) USING iceberg;\n", with_state=False)
def test_fuzz_sql(text: str, with_state: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        check_sql_file(Path(tmp), text, with_state)


@settings(max_examples=max(1, int(550 * SCALE)), **BOUNDED)
@given(file=metadata_files(), fast=st.booleans())
def test_fuzz_metadata(file: tuple[str, bytes], fast: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        check_metadata_file(Path(tmp), file[1], fast)


@settings(max_examples=max(1, int(4 * SCALE)), **BOUNDED)
@given(file=metadata_files())
def test_fuzz_metadata_as_a_process(file: tuple[str, bytes]) -> None:
    """A few through `python -m icelint`: the same outcome as in-process, with the real entry point."""
    with tempfile.TemporaryDirectory() as tmp:
        inproc = check_metadata_file(Path(tmp), file[1], fast=False)
        env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_DEBUG", "GITHUB_ACTIONS")}
        r = subprocess.run([sys.executable, "-m", "icelint", "check", str(Path(tmp) / "m.sql"), "--metadata",
                            f"db.t={Path(tmp) / 'db.t.metadata.json'}"], capture_output=True, text=True, env=env, timeout=120)
        assert (r.returncode, r.stdout, r.stderr) == (inproc.code, inproc.stdout, inproc.stderr)
