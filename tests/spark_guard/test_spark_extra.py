"""The `spark` extra gives a session of one's own that runs Iceberg DDL: the SparkSession setup of
docs/spark-guard.md, run as written (in a fresh Python process: one SparkContext per process) with
only what the extra installs, no jar the tests build. Then the guard in that session."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from icelint.values.source import InputError
from icelint.spark.runtime_jar import (
    JACKSON_CLASS,
    PINNED,
    bundles_relocated_jackson,
    iceberg_jar,
)
from tests.oracle.spark import REQUIRE_SPARK, required, spark_available

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "spark-guard.md"


def setup_block() -> str:
    """The python block after the `session-setup` marker of docs/spark-guard.md."""
    text = DOC.read_text()
    m = re.search(r"<!-- session-setup[^\n]*-->\s*```python\n(.*?)```", text, re.DOTALL)
    assert m, "docs/spark-guard.md has no session-setup block"
    return m.group(1)


def test_the_extra_pins_the_release_setup_checks_for():
    pyproject = (ROOT / "pyproject.toml").read_text()
    extra = re.search(r"^spark = \[(.*)\]$", pyproject, re.MULTILINE)
    assert extra and f'"{PINNED}"' in extra.group(1)


def _jar(path: Path, with_jackson: bool) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("org/apache/iceberg/Schema.class", b"\xca\xfe\xba\xbe")
        if with_jackson:
            z.writestr(JACKSON_CLASS, b"\xca\xfe\xba\xbe")
    return path


def test_iceberg_jar_refuses_a_runtime_without_relocated_jackson(tmp_path, monkeypatch):
    import types

    deps = types.ModuleType("snowpark_connect_deps_iceberg")
    deps.__version__ = "1.0.3"
    deps.get_jars_dir = lambda: tmp_path  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snowpark_connect_deps_iceberg", deps)
    jar = _jar(tmp_path / "iceberg-spark-runtime-3.5_2.12-1.10.2.jar", with_jackson=False)
    assert not bundles_relocated_jackson(jar)
    with pytest.raises(InputError, match=r"1\.0\.3 ships this jar without Iceberg's relocated Jackson.*==1\.0\.2"):
        iceberg_jar("2.12")
    _jar(jar, with_jackson=True)
    assert iceberg_jar("2.12") == str(jar)
    with pytest.raises(InputError, match="does not ship Iceberg 1.10.2"):
        iceberg_jar("2.13")


JOB = """
import json
import icelint
spark.sparkContext.setLogLevel("ERROR")
spark.sql("CREATE NAMESPACE IF NOT EXISTS db")
spark.sql("CREATE TABLE db.events (id bigint, payload string) USING iceberg")
spark.sql("INSERT INTO db.events VALUES (1, 'a'), (2, 'b')")
spark.sql("ALTER TABLE db.events ADD COLUMN country string")
try:
    icelint.spark.guard(spark).check(
        "ALTER TABLE db.events DROP COLUMN payload;\\nALTER TABLE db.events ADD COLUMN payload binary;")
    stopped = None
except icelint.MigrationError as e:
    stopped = [f.rule for f in e.blocking]
    report = str(e)
rows = [list(r) for r in spark.sql("SELECT * FROM db.events ORDER BY id").collect()]
ids = [(f.name, f.id) for f in icelint.spark.table_state(spark, "db.events").schema.fields]
print("RESULT " + json.dumps({"rows": rows, "ids": ids, "stopped": stopped, "jars": spark.conf.get("spark.jars")}))
print(report)
spark.stop()
"""


@pytest.mark.spark
def test_a_users_own_session_runs_iceberg_ddl_with_the_installed_extra(tmp_path):
    ok, reason = spark_available()
    if not ok:
        if required():
            pytest.fail(f"{REQUIRE_SPARK}=1 but Spark is unavailable: {reason}", pytrace=False)
        pytest.skip(f"Spark unavailable: {reason}")
    installed = importlib.metadata.version("snowpark-connect-deps-iceberg")
    if installed != PINNED.split("==")[1]:
        message = f"snowpark-connect-deps-iceberg {installed} is installed; the spark extra pins {PINNED} (pip install -e '.[spark]')"
        if required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    code = setup_block()
    assert '"/data/warehouse"' in code
    code = code.replace('"/data/warehouse"', repr(str(tmp_path / "warehouse"))) + textwrap.dedent(JOB)
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=900,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])})
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    got = json.loads(line[len("RESULT "):])
    assert got["rows"] == [[1, "a", None], [2, "b", None]]
    assert got["ids"] == [["id", 1], ["payload", 2], ["country", 3]]
    assert got["stopped"] == ["ICE001"]
    assert got["jars"] == iceberg_jar() and "jackson" not in got["jars"]  # the extra's jar alone
