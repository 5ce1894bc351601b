"""Every malformed metadata file and every CLI fault found by
fuzzing ends in exactly one line naming the file (and, for metadata, the JSON path) and exit 2.

Most cases call the CLI in-process (fast); the ones about processes (a FIFO that would block, a
full disk on stdout, forked workers, permissions) run `python -m icelint`.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from icelint.cli.main import main
from icelint.model.storage import fastload

BASE = {
    "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "/tmp/t",
    "last-sequence-number": 0, "last-updated-ms": 1, "last-column-id": 2, "current-schema-id": 1,
    "schemas": [
        {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": False, "type": "long"}]},
        {"type": "struct", "schema-id": 1, "fields": [
            {"id": 1, "name": "id", "required": False, "type": "long"},
            {"id": 2, "name": "data", "required": False, "type": "string"}]},
    ],
    "default-spec-id": 0,
    "partition-specs": [{"spec-id": 0, "fields": [{"name": "id_b", "transform": "bucket[4]", "source-id": 1, "field-id": 1000}]}],
    "last-partition-id": 1000, "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}],
    "properties": {}, "current-snapshot-id": -1, "refs": {}, "snapshots": [], "snapshot-log": [], "metadata-log": [],
}  # fmt: skip
# dropping and re-adding `data` makes the re-add rules (ICE001, and ICE015 on this table without snapshots) read every
# older schema version (decoded lazily)
SQL = "ALTER TABLE db.t DROP COLUMN data;\nALTER TABLE db.t ADD COLUMN data int;\n"


def cli(args: list[str], cwd: Path | None = None):
    r = CliRunner().invoke(main, [str(a) for a in args])
    return r.exit_code, r.stdout, r.stderr


def one_error(code: int, stderr: str, names: str) -> str:
    assert code == 2, (code, stderr)
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert names in lines[0] and "internal error" not in lines[0] and "Traceback" not in stderr, lines[0]
    return lines[0]


def lint(tmp_path: Path, meta, args=("check",), sql: str = SQL) -> tuple[int, str, str]:
    (tmp_path / "m.sql").write_text(sql)
    p = tmp_path / "db.t.metadata.json"
    p.write_bytes(meta if isinstance(meta, bytes) else json.dumps(meta).encode())
    return cli([*args, tmp_path / "m.sql", "--metadata", f"db.t={p}"])


def mutated(change) -> dict:
    m = copy.deepcopy(BASE)
    change(m)
    return m


def test_the_base_file_is_valid(tmp_path: Path) -> None:
    code, out, err = lint(tmp_path, BASE)
    assert code == 0 and "ICE015" in out and not err


CASES = {
    "schemas-not-objects": (lambda m: m.update({"schemas": [1]}), "schemas[0]: expected an object, found 1"),
    "refs-a-string": (lambda m: m.update({"refs": "main"}), 'refs: expected an object, found "main"'),
    "empty-partition-source-ids": (
        lambda m: m["partition-specs"][0]["fields"][0].pop("source-id") and m["partition-specs"][0]["fields"][0].update({"source-ids": []}),
        "partition-specs[0].fields[0].source-ids: expected at least one field id, found an empty list",
    ),
    "empty-sort-source-ids": (
        lambda m: m["sort-orders"].append({"order-id": 1, "fields": [
            {"transform": "identity", "source-ids": [], "direction": "asc", "null-order": "nulls-first"}]}),
        "sort-orders[1].fields[0].source-ids: expected at least one field id, found an empty list",
    ),
    "old-field-without-type": (lambda m: m["schemas"][0]["fields"][0].pop("type"), 'schemas[0].fields[0]: missing "type"'),
    "old-fields-true": (lambda m: m["schemas"][0].update({"fields": [True]}), "schemas[0].fields[0]: expected an object, found true"),
    "old-type-Struct": (
        lambda m: m["schemas"][0]["fields"][0].update({"type": {"type": "Struct", "fields": []}}),
        'schemas[0].fields[0].type.type: unknown nested type "Struct"',
    ),
    "old-id-x": (lambda m: m["schemas"][0]["fields"][0].update({"id": "x"}), 'schemas[0].fields[0].id: expected an integer, found "x"'),
    "old-name-5": (lambda m: m["schemas"][0]["fields"][0].update({"name": 5}), "schemas[0].fields[0].name: expected a string, found 5"),
    "current-name-5": (lambda m: m["schemas"][1]["fields"][1].update({"name": 5}), "schemas[1].fields[1].name: expected a string, found 5"),
    "property-not-a-string": (lambda m: m.update({"properties": {"a": {"b": 1}}}), "properties.a: expected a string, found an object"),
    # a field id used twice made `Schema.ancestors` loop for ever (found by `bench/fuzz.py`, 2026-11-24):
    # Iceberg's Schema refuses it ("Multiple entries with same key")
    "current-id-twice": (
        lambda m: m["schemas"][1]["fields"][1].update({"type": {"type": "struct", "fields": [
            {"id": 2, "name": "x", "required": False, "type": "double"}]}}),
        "schemas[1].fields[1].type.fields[0].id: field id 2 is used twice (also at schemas[1].fields[1].id)",
    ),
    "current-map-ids-twice": (
        lambda m: m["schemas"][1]["fields"][1].update({"type": {"type": "map", "key-id": 3, "key": "string", "value-id": 3,
                                                               "value-required": False, "value": "int"}}),
        "schemas[1].fields[1].type.value-id: field id 3 is used twice (also at schemas[1].fields[1].type.key-id)",
    ),
    "old-id-twice": (
        lambda m: m["schemas"][0]["fields"].append({"id": 1, "name": "other", "required": False, "type": "int"}),
        "schemas[0].fields[1].id: field id 1 is used twice (also at schemas[0].fields[0].id)",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_malformed_metadata_names_the_json_path(tmp_path: Path, case: str) -> None:
    change, expected = CASES[case]
    code, _, err = lint(tmp_path, mutated(change))
    line = one_error(code, err, "db.t.metadata.json: invalid Iceberg metadata: ")
    assert expected in line, line


@pytest.mark.parametrize("key", ['"current-schema-id": 1', '"schema-id": 0', '"source-id": 1', '"field-id": 1000', '"id": 2'])
@pytest.mark.parametrize("constant", ["Infinity", "-Infinity", "NaN"])
def test_nan_and_infinity_are_not_json(tmp_path: Path, key: str, constant: str) -> None:
    text = json.dumps(BASE)
    assert key in text
    code, _, err = lint(tmp_path, text.replace(key, key.split(":")[0] + ": " + constant, 1).encode())
    line = one_error(code, err, "db.t.metadata.json: not valid JSON")
    assert f"{constant} is not a JSON number" in line


def test_gzip_with_a_flipped_bit(tmp_path: Path) -> None:
    data = bytearray(gzip.compress(json.dumps(BASE).encode()))
    data[40] ^= 0x10
    code, _, err = lint(tmp_path, bytes(data))
    assert "corrupt gzip metadata file" in one_error(code, err, "db.t.metadata.json")


def _deep(kind: str, n: int) -> str:
    """The JSON text of a type `n` nested types deep around a string."""
    if kind == "struct":
        head = "".join('{"type": "struct", "fields": [{"id": %d, "name": "f%d", "required": false, "type": ' % (100 + i, i) for i in range(n))
        return head + '"string"' + "}]}" * n
    key = "element" if kind == "list" else "value"
    extra = '"key-id": 1%d, "key": "int", "value-id": %d, "value-required": false' if kind == "map" else '"element-id": %d, "element-required": false'
    head = "".join(('{"type": "%s", ' % kind) + (extra % ((i, 100000 + i) if kind == "map" else (100 + i))) + f', "{key}": ' for i in range(n))
    return head + '"string"' + "}" * n


def _with_deep_data(kind: str, n: int) -> bytes:
    text = json.dumps(BASE)
    old = '"name": "data", "required": false, "type": "string"'
    assert old in text
    return text.replace(old, '"name": "data", "required": false, "type": ' + _deep(kind, n)).encode()


@pytest.mark.parametrize("kind", ["struct", "list", "map"])
def test_what_check_accepts_schema_prints(tmp_path: Path, kind: str) -> None:
    data = _with_deep_data(kind, 99)  # the deepest icelint accepts: 99 nested types around a primitive
    code, out, err = lint(tmp_path, data)
    assert code == 0 and "ICE015" in out and not err
    code, out, err = lint(tmp_path, data, ("schema", "--format", "json"))
    assert code == 0 and not err
    assert json.loads(out)


@pytest.mark.parametrize(("kind", "n", "problem"), [
    ("struct", 100, "types nested deeper than 100 levels are not supported by icelint"),
    ("list", 980, "types nested deeper than 100 levels are not supported by icelint"),
    ("map", 400, "types nested deeper than 100 levels are not supported by icelint"),
    ("struct", 340, "nested more than 1000 levels deep"),
])  # fmt: skip
def test_deep_nesting_has_a_stated_limit(tmp_path: Path, kind: str, n: int, problem: str) -> None:
    for args in (("check",), ("schema", "--format", "json")):
        code, _, err = lint(tmp_path, _with_deep_data(kind, n), args)
        assert problem in one_error(code, err, "db.t.metadata.json")


@pytest.mark.parametrize(("kind", "n"), [("list", 990), ("struct", 330)])
def test_deep_older_schema_that_check_accepts_prints_and_snapshots(tmp_path: Path, monkeypatch, kind: str, n: int) -> None:
    """An older schema is decoded only when needed: JSON almost 1000 levels deep that check accepts
    must still print (`schema --format json`) and snapshot (`snapshot --check` compares it)."""
    text = json.dumps(BASE)
    old = '"schema-id": 0, "fields": [{"id": 1, "name": "id", "required": false, "type": "long"}]'
    assert old in text
    deep = '{"id": 7, "name": "deep", "required": false, "type": ' + _deep(kind, n) + "}"
    text = text.replace(old, old[:-1] + ", " + deep + "]")
    code, out, err = lint(tmp_path, text.encode())
    assert code == 0 and not err, err
    code, out, err = lint(tmp_path, text.encode(), ("schema", "--format", "json"))
    assert code == 0 and not err and out.count("element" if kind == "list" else "fields") >= n
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--check"]):
        code, out, err = cli(["snapshot", "db.t", "--metadata", "db.t=db.t.metadata.json", "--out", "snaps", *extra])
        assert code == 0 and not err, (out, err)


@pytest.mark.parametrize("stack", [0, 300])
def test_the_json_depth_limit_is_exact_whatever_the_stack(stack: int) -> None:
    from icelint.model.jsontext import loads
    from icelint.values.source import InputError

    def at_depth(n: int, f):
        return f() if n == 0 else at_depth(n - 1, f)

    assert at_depth(stack, lambda: loads("[" * 1000 + "]" * 1000, "x.json")) is not None
    with pytest.raises(InputError, match="x.json: not valid JSON: arrays and objects nested more than 1000 levels deep"):
        at_depth(stack, lambda: loads('{"a": "[[[", "b": ' + "[" * 1000 + "]" * 1000 + "}", "x.json"))


def test_a_thousand_nested_brackets(tmp_path: Path) -> None:
    text = json.dumps(BASE).replace('"properties": {}', '"properties": {"a": ' + "[" * 1000 + "]" * 1000 + "}")
    code, _, err = lint(tmp_path, text.encode())
    assert "nested more than 1000 levels deep" in one_error(code, err, "db.t.metadata.json")


@pytest.fixture
def always_fast(monkeypatch):
    monkeypatch.setattr(fastload, "THRESHOLD", 0)


@pytest.mark.parametrize(("mangle", "expected"), [
    (lambda t: t.replace('"name": "id", "required": false', '"name": "id",, "required": false', 1), "schemas[0]: not valid JSON"),
    (lambda t: t.replace('"schema-id": 0, "fields"', '"schema-id": 0, "identifier-field-ids": [null], "fields"'),
     "schemas[0].identifier-field-ids[0]: expected an integer, found null"),
    (lambda t: t.replace('"schema-id": 0, "fields": [{"id": 1, "name": "id", "required": false, "type": "long"}]',
                         '"schema-id": 0, "fields": [{"id": 1, "name": "id", "required": false}]'),
     'schemas[0].fields[0]: missing "type"'),
    (lambda t: t.replace('"schema-id": 0, "fields": [{"id": 1, "name": "id", "required": false, "type": "long"}]',
                         '"schema-id": 0, "fields": [{"id": 1, "name": "id", "required": false, "type": '
                         '{"type": "list", "element-id": 1, "element-required": false, "element": "int"}}]'),
     "schemas[0].fields[0].type.element-id: field id 1 is used twice (also at schemas[0].fields[0].id)"),
])  # fmt: skip
def test_fast_loader_older_schemas(tmp_path: Path, always_fast, mangle, expected: str) -> None:
    text = mangle(json.dumps(BASE))
    code, _, err = lint(tmp_path, text.encode())
    line = one_error(code, err, "db.t.metadata.json: invalid Iceberg metadata: ")
    assert expected in line, line


def test_parser_depth_limit_is_not_an_internal_error(tmp_path: Path) -> None:
    t = "int"
    for i in range(500):
        t = f"struct<f{i}: {t}>"
    (tmp_path / "deep.sql").write_text(f"CREATE TABLE db.t (id bigint, d {t}) USING iceberg;\n")
    code, out, err = cli(["check", tmp_path / "deep.sql"])
    assert code == 1 and not err
    assert "ICE006" in out and "types nested deeper than 100 levels are not supported by icelint" in out
    assert "internal parser error" not in out


def test_sql_at_the_depth_limit_checks_and_prints(tmp_path: Path) -> None:
    t = "int"
    for i in range(99):
        t = f"struct<f{i}: {t}>"
    (tmp_path / "deep.sql").write_text(f"CREATE TABLE db.t (id bigint, d {t}) USING iceberg;\n")
    assert cli(["check", tmp_path / "deep.sql"])[0] == 0
    code, out, err = cli(["schema", "--format", "json", tmp_path / "deep.sql"])
    assert code == 0 and not err and json.loads(out)


def test_nul_byte_in_an_identifier_is_a_parse_error(tmp_path: Path) -> None:
    (tmp_path / "nul.sql").write_bytes(b"CREATE TABLE db.t (id bigint) USING iceberg;\nALTER TABLE db.t ADD COLUMN a\x00b int;\n")
    code, out, _ = cli(["check", tmp_path / "nul.sql"])
    assert code == 1 and "nul.sql:2:29: ICE006" in out and "NUL byte" in out


# --------------------------------------------------------------------------- the CLI's own faults


def _folder(tmp_path: Path) -> Path:
    mig = tmp_path / "mig"
    mig.mkdir()
    (mig / "V1__a.sql").write_text("CREATE TABLE db.t (id bigint) USING iceberg;\n")
    return mig


@pytest.mark.parametrize("target", ["missing/report.txt", ".", "/dev/full", "x" * 300])
def test_output_file_that_cannot_be_written(tmp_path: Path, monkeypatch, target: str) -> None:
    mig = _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(["check", mig, "-o", target])
    assert "cannot write the report: " in one_error(code, err, f"{target}: ")


def run(args: list, cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_DEBUG", "GITHUB_ACTIONS")}
    return subprocess.run([sys.executable, "-m", "icelint", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          env=env | kw.pop("env", {}), timeout=60, **kw)


def test_stdout_on_a_full_disk(tmp_path: Path) -> None:
    mig = _folder(tmp_path)
    for command in (["check", mig], ["schema", mig]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sys.executable, "-m", "icelint", *map(str, command)], stdout=full, stderr=subprocess.PIPE,
                               text=True, timeout=60)
        assert "standard output: cannot write the report: No space left on device" in one_error(r.returncode, r.stderr, "")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_named_on_the_command_line_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f.sql")
    r = run(["check", "f.sql"], tmp_path)  # before the fix: blocked until the timeout
    assert one_error(r.returncode, r.stderr, "f.sql: not a regular file")
    mig = _folder(tmp_path)
    r = run(["check", mig, "--metadata", f"db.t={tmp_path / 'f.sql'}"], tmp_path)
    assert one_error(r.returncode, r.stderr, "f.sql: not a regular file")


def test_device_or_socket_named_on_the_command_line(tmp_path: Path) -> None:
    import socket

    code, _, err = cli(["check", os.devnull])
    one_error(code, err, f"{os.devnull}: not a regular file")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s.sql"))
        code, _, err = cli(["check", tmp_path / "s.sql"])
        one_error(code, err, "s.sql: not a regular file")
    finally:
        sock.close()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_in_a_folder_is_skipped_with_a_note_under_verbose(tmp_path: Path) -> None:
    mig = _folder(tmp_path)
    os.mkfifo(mig / "V2__pipe.sql")
    r = run(["check", mig], tmp_path)
    assert r.returncode == 0 and r.stderr == "" and "1 statement" in r.stdout, r.stderr
    r = run(["check", mig, "-v"], tmp_path)
    assert r.returncode == 0 and r.stderr.count("V2__pipe.sql: skipped (not a regular file)") == 1, r.stderr
    r = run(["schema", mig, "-v"], tmp_path)  # the same plan, the same notes
    assert r.returncode == 0 and r.stderr.count("V2__pipe.sql: skipped (not a regular file)") == 1, r.stderr


@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_broken_symbolic_links_in_a_folder_are_named(tmp_path: Path, kind: str) -> None:
    mig = _folder(tmp_path)
    link = mig / "V2__b.sql"
    link.symlink_to("nowhere.sql" if kind == "dangling" else "V2__b.sql")
    code, _, err = cli(["check", mig])
    line = one_error(code, err, "V2__b.sql: ")
    assert ("broken symbolic link" if kind == "dangling" else "symbolic link loop") in line


def test_unreadable_folder_is_permission_denied(tmp_path: Path) -> None:
    mig = _folder(tmp_path)
    locked = mig / "locked"
    locked.mkdir()
    (locked / "V2__x.sql").write_text("SELECT 1;\n")
    locked.chmod(0)
    try:
        prefix: list[str] = []
        if os.geteuid() == 0:  # root reads anything: drop the capabilities that let it
            if shutil.which("setpriv") is None:
                pytest.skip("running as root without setpriv: permissions cannot be enforced")
            caps = "-dac_override,-dac_read_search"
            prefix = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"]
            probe = subprocess.run([*prefix, "ls", str(locked)], capture_output=True)
            if probe.returncode == 0:
                pytest.skip("cannot drop root's file capabilities here (setpriv had no effect)")
        env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_DEBUG", "GITHUB_ACTIONS")}
        r = subprocess.run([*prefix, sys.executable, "-m", "icelint", "check", str(mig)], capture_output=True, text=True,
                           env=env, timeout=60)
        assert "permission denied" in one_error(r.returncode, r.stderr, str(locked))
    finally:
        locked.chmod(0o755)


def test_config_that_is_a_directory(tmp_path: Path) -> None:
    mig = _folder(tmp_path)
    code, _, err = cli(["check", mig, "--config", tmp_path])
    assert "is a directory" in one_error(code, err, str(tmp_path))


def test_broken_pyiceberg_yaml_names_file_line_and_column(tmp_path: Path) -> None:
    mig = _folder(tmp_path)
    (mig / "V2__b.sql").write_text("ALTER TABLE db.u ADD COLUMN x int;\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".pyiceberg.yaml").write_text('catalog:\n  default:\n    uri: "abc\n    type: [x\n')
    r = run(["check", mig, "--catalog", "default"], tmp_path, env={"HOME": str(home), "PYICEBERG_HOME": str(home)})
    # named relative to the working directory (tmp_path), as findings name files
    line = one_error(r.returncode, r.stderr, f"{Path('home', '.pyiceberg.yaml')}:5:1: invalid YAML: found unexpected end of stream")
    assert "line 3, column 10" in line


@pytest.mark.parametrize("uri", ["http://user:S3CRETPW@localhost:1/x.json", "db.u=http://user:S3CRETPW@localhost:1/x.json"])
def test_password_in_a_uri_is_masked(tmp_path: Path, uri: str) -> None:
    mig = _folder(tmp_path)
    (mig / "V2__b.sql").write_text("ALTER TABLE db.u ADD COLUMN x int;\n")
    code, _, err = cli(["check", mig, "--metadata", uri, "-v"])
    assert code == 2 and "S3CRETPW" not in err and "user:***@" in err, err


def test_lazily_found_error_in_a_forked_worker(tmp_path: Path) -> None:
    """Two tables, 400+ statements: the second table's replay runs in a forked worker."""
    bad = mutated(lambda m: m["schemas"][0]["fields"][0].pop("type"))
    (tmp_path / "db.t.metadata.json").write_text(json.dumps(BASE))
    (tmp_path / "db.u.metadata.json").write_text(json.dumps(bad))
    lines = []
    for i in range(220):
        lines += [f"ALTER TABLE db.t ADD COLUMN c{i} int;", f"ALTER TABLE db.u ADD COLUMN c{i} int;"]
    lines += ["ALTER TABLE db.u DROP COLUMN data;", "ALTER TABLE db.u ADD COLUMN data int;"]
    (tmp_path / "m.sql").write_text("\n".join(lines) + "\n")
    r = run(["check", "m.sql", "--metadata", "db.t=db.t.metadata.json", "--metadata", "db.u=db.u.metadata.json"], tmp_path,
            env={"ICELINT_JOBS": "2"})
    line = one_error(r.returncode, r.stderr, "db.u.metadata.json: invalid Iceberg metadata: ")
    assert 'schemas[0].fields[0]: missing "type"' in line


def test_fast_loader_on_a_real_four_megabyte_file(tmp_path: Path) -> None:
    m = copy.deepcopy(BASE)
    padding = [{"id": 10 + i, "name": f"padding_column_{i}", "required": False, "type": "string"} for i in range(70_000)]
    m["schemas"].insert(0, {"type": "struct", "schema-id": 2, "fields": padding})
    m["last-column-id"] = 70_010
    text = json.dumps(m).replace('"name": "id", "required": false', '"name": "id",, "required": false', 1)
    assert len(text) >= fastload.THRESHOLD
    (tmp_path / "db.t.metadata.json").write_text(text)
    (tmp_path / "m.sql").write_text(SQL)
    r = run(["check", "m.sql", "--metadata", "db.t=db.t.metadata.json"], tmp_path)
    assert "schemas[1]: not valid JSON" in one_error(r.returncode, r.stderr, "db.t.metadata.json: invalid Iceberg metadata: ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_named_like_a_metadata_file_in_a_table_dir(tmp_path: Path) -> None:
    meta = tmp_path / "db" / "t" / "metadata"
    meta.mkdir(parents=True)
    (meta / "v1.metadata.json").write_text(json.dumps(BASE))
    os.mkfifo(meta / "v2.metadata.json")
    (tmp_path / "m.sql").write_text("ALTER TABLE db.t ADD COLUMN x int;\n")
    r = run(["check", "m.sql", "--table-dir", "db.t=db/t", "-v"], tmp_path)  # before the fix: blocked
    assert r.returncode == 0 and "using v1.metadata.json" in r.stderr, r.stderr
