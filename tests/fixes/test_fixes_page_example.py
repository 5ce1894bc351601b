"""The example of docs/fixes.md is what the tool prints: its Before SQL, checked and then fixed,
gives the report and the After SQL the page shows."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.test_commands import run

ROOT = Path(__file__).resolve().parents[2]
V1 = "CREATE TABLE db.logs (id bigint, level string, logged_at timestamp) USING iceberg PARTITIONED BY (days(logged_at), bucket(16, id));\n"


def _section() -> str:
    return (ROOT / "docs" / "fixes.md").read_text(encoding="utf-8")


def test_the_fixes_page_example_is_what_icelint_prints(tmp_path: Path) -> None:
    section = _section()
    before, after = re.findall(r"```sql\n(.*?)```", section, re.S)[:2]
    console = re.search(r"```console\n(.*?)```", section, re.S)[1]
    check_cmd = "$ icelint check V1__create.sql V3__repartition.sql\n"
    fix_cmd = "$ icelint check V1__create.sql V3__repartition.sql --fix --unsafe-fixes\n"
    shown_report = console[len(check_cmd) : console.index(fix_cmd)]
    shown_fixed = console[console.index(fix_cmd) + len(fix_cmd) :]
    (tmp_path / "V1__create.sql").write_text(V1)
    (tmp_path / "V3__repartition.sql").write_text(before)
    r = run("check", "V1__create.sql", "V3__repartition.sql", cwd=tmp_path)
    assert r.stdout == shown_report
    r = run("check", "V1__create.sql", "V3__repartition.sql", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert r.stdout == shown_fixed
    assert (tmp_path / "V3__repartition.sql").read_text() == after
