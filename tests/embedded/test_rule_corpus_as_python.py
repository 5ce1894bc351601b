"""The rule corpus as Python: every case of fixtures/rules/ rewritten as `spark.sql(...)` calls gives
the same verdicts (rule, severity, message) at the mapped positions as the `.sql` case.

Each `.sql` file of a case becomes a `.py` file of the same name: its statements (with the comments
around them, suppressions included) go, one call each, into string literals of a style:

- `plain`: `spark.sql("...")` at module level, line breaks as `\\n` escapes;
- `triple`: `spark.sql(\"\"\"...\"\"\")` inside a function;
- `fstring`: `self.spark.sql(f\"\"\"{pad}...\"\"\")` inside a class method, braces doubled; `pad`
  is given as an empty `--var`, so each statement starts with a placeholder;
- `concat`: one literal per line, joined by implicit concatenation and `+`, `session.sql(...)`
  inside a function;
- `mixed`: the styles above, one after the other, call by call.

The generator knows where each character of the SQL lands in the Python file, so each finding of
the `.sql` case has an expected place in the `.py` file; the messages are compared with their
cited places (`V1__a.sql:3`) mapped the same way.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from icelint.engine.pipeline import parse_sources
from icelint.values.source import LineIndex, SourceFile
from tests.rules.test_rule_cases import CASES, Case, lint_case

STYLES = ("plain", "triple", "fstring", "concat", "mixed")
PAD = "pad"  # the f-string variant's placeholder, given the empty value


def chunks(text: str) -> list[tuple[int, int]]:
    """The file cut after the line where each statement ends (comments stay with their statement)."""
    parsed = parse_sources([SourceFile("x.sql", text)], trees=False)
    stmts = parsed.files[0].statements
    cuts = []
    for i, st in enumerate(stmts):
        nl = text.find("\n", st.span.end)
        cut = len(text) if nl < 0 else nl + 1
        if i + 1 < len(stmts) and stmts[i + 1].span.start < cut:
            continue
        cuts.append(cut)
    if not cuts or cuts[-1] != len(text):
        if cuts and not text[cuts[-1] :].strip():
            cuts[-1] = len(text)
        else:
            cuts.append(len(text))
    out, start = [], 0
    for c in cuts:
        if c > start:
            out.append((start, c))
        start = c
    return out


def _escape(text: str, triple: bool, fstring: bool) -> tuple[str, list[int]]:
    """`text` written inside a double-quoted literal; the offset in the result of each character."""
    out, where = [], []
    for c in text:
        where.append(sum(len(p) for p in out))
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n" and not triple:
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif fstring and c in "{}":
            out.append(c + c)
        else:
            out.append(c)
    return "".join(out), where


class Writer:
    """A Python file being written, and the file offset of each SQL character placed in it."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.place: dict[int, int] = {}  # SQL offset → Python offset

    def put(self, s: str) -> None:
        self.parts.append(s)
        self.size += len(s)

    def literal(self, text: str, sql_start: int, prefix: str, quote: str, lead: str = "") -> None:
        escaped, where = _escape(text, len(quote) == 3, "f" in prefix)
        self.put(prefix + quote + lead)
        base = self.size
        for i, w in enumerate(where):
            self.place[sql_start + i] = base + w
        self.put(escaped + quote)


def to_python(text: str, style: str) -> tuple[str, dict[int, int]]:
    w = Writer()
    w.put("from pyspark.sql import SparkSession\n\nspark = SparkSession.builder.getOrCreate()\n\n\n")
    if style in ("triple", "concat"):
        w.put("def migrate(session):\n")
    elif style == "fstring":
        w.put("class Migration:\n    def run(self):\n")
    elif style == "mixed":
        w.put("class Migration:\n    def run(self, session):\n")
    indent = {"plain": "", "triple": "    ", "concat": "    ", "fstring": "        ", "mixed": "        "}[style]
    for k, (a, b) in enumerate(chunks(text)):
        kind = STYLES[k % 4] if style == "mixed" else style
        piece = text[a:b]
        if kind == "plain":
            w.put(f"{indent}spark.sql(")
            w.literal(piece, a, "", '"')
            w.put(")\n")
        elif kind == "triple":
            w.put(f"{indent}spark.sql(")
            w.literal(piece, a, "", '"""')
            w.put(")\n")
        elif kind == "fstring":
            w.put(f"{indent}self.spark.sql(")
            w.literal(piece, a, "f", '"""', lead="{" + PAD + "}")
            w.put(")\n")
        else:  # concat: a literal per line, `+` every other line
            w.put(f"{indent}session.sql(\n")
            lines = piece.splitlines(keepends=True)
            pos = a
            for i, line in enumerate(lines):
                w.put(indent + "    ")
                w.literal(line, pos, "", '"')
                pos += len(line)
                w.put(" +\n" if i % 2 == 0 and i + 1 < len(lines) else "\n")
            w.put(f"{indent})\n")
    if style in ("triple", "concat"):
        w.put("    pass\n")
    return "".join(w.parts), w.place


def variant(case: Case, style: str, tmp: Path) -> tuple[Case, dict[str, tuple[str, LineIndex, LineIndex, dict]]]:
    """The case with its `.sql` files written as `.py` files in `tmp`; per old path: (new path, indexes, places)."""
    folder = tmp / case.path.name if case.path.is_dir() else tmp
    folder.mkdir(parents=True, exist_ok=True)
    new: dict[Path, Path] = {}
    maps = {}
    for f in case.files:
        text = f.read_text(encoding="utf-8")
        code, place = to_python(text, style)
        p = folder / (f.stem + ".py")
        p.write_text(code, encoding="utf-8")
        new[f] = p
        maps[f.name] = (p.name, LineIndex(str(f), text), LineIndex(str(p), code), place)
    base = {}
    for f, b in case.base.items():
        pb = folder / (b.stem + ".pybase")
        pb.write_text(to_python(b.read_text(encoding="utf-8"), style)[0], encoding="utf-8")
        base[new[f]] = pb
    vars_ = dict(case.vars)
    if style in ("fstring", "mixed"):
        vars_[PAD] = ""
    out = replace(
        case,
        path=folder if case.path.is_dir() else new[case.path],
        files=[new[f] for f in case.files],
        context=[new[f] for f in case.context],
        base=base,
        vars=vars_,
    )
    return out, maps


def _moved(maps, name: str, line: int, column: int) -> tuple[str, int, int]:
    new_name, sql_index, py_index, place = maps[name]
    offset = sql_index._starts[line - 1] + column - 1
    return (new_name, *py_index.position(place[offset]))


def _cited(maps, text: str | None) -> str | None:
    if text is None:
        return None

    def sub(m: re.Match) -> str:
        name = m.group(1)
        if name not in maps:
            return m.group(0)
        if m.group(2) is None:  # the file named, no place in it
            return maps[name][0]
        new_name, line, column = _moved(maps, name, int(m.group(2)), int(m.group(3) or 1))
        return f"{new_name}:{line}:{column}" if m.group(3) else f"{new_name}:{line}"

    text = re.sub(r"([\w-][\w.-]*\.sql)(?::(\d+)(?::(\d+))?)?", sub, _bare(text))
    return re.sub(r"(`V[\w.]*__[^`\s]*?)sql`", r"\1py`", text)  # a new name suggested for the file keeps its suffix


_DIRS = re.compile(r"(?:[A-Za-z]:)?(?:[/\\][\w.@+-]+)+[/\\](?=[\w.-]+\.(?:sql|py|base|pybase)\b)")


def _bare(text: str | None) -> str | None:
    """Files cited without their folders (the case's and its variant's are different temporary folders)."""
    return None if text is None else _DIRS.sub("", text)


def verdicts(findings) -> list[tuple]:
    return sorted((Path(f.path).name, f.line, f.column, f.rule, f.severity.value, _bare(f.message), _bare(f.help)) for f in findings)


def _params():
    for c in CASES:
        if c.path.suffix == ".py":  # already Python (ICE063's own cases)
            continue
        for style in STYLES:
            yield pytest.param(c, style, id=f"{c.id}-{style}")


@pytest.mark.parametrize(("case", "style"), list(_params()))
def test_python_variant_gives_the_same_verdicts(case: Case, style: str, tmp_path: Path) -> None:
    expected_raw = lint_case(case)
    py_case, maps = variant(case, style, tmp_path)
    expected = []
    for f in expected_raw:
        name = Path(f.path).name
        if name in maps and not (f.line == 1 and f.column == 1 and f.rule in ("ICE022", "ICE023", "ICE024")):
            new_name, line, column = _moved(maps, name, f.line, f.column)
        else:  # the plan's file-level findings point at the file
            new_name, line, column = maps[name][0] if name in maps else name, f.line, f.column
        expected.append(replace(f, path=new_name, line=line, column=column, message=_cited(maps, f.message),
                                help=_cited(maps, f.help)))  # fmt: skip
    got, want = verdicts(lint_case(py_case)), verdicts(expected)
    assert got == want, "\n".join([f"- {w}" for w in want if w not in got] + [f"+ {g}" for g in got if g not in want])


def test_the_variants_cover_every_case() -> None:
    """Every `.sql` case of the corpus is rewritten (not a hand-picked few), and the styles differ."""
    sql_cases = [c for c in CASES if c.path.suffix != ".py"]
    assert len(list(_params())) == len(sql_cases) * len(STYLES) > 900
    text = "CREATE TABLE db.t (a int);\n-- x {y}\nALTER TABLE db.t ADD COLUMN \"b\\c\" int;\n"
    codes = {style: to_python(text, style)[0] for style in STYLES}
    assert len(set(codes.values())) == len(STYLES)
    assert 'f"""{pad}' in codes["fstring"] and "{{y}}" in codes["fstring"] and '" +\n' in codes["concat"]


def _fixed(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: e["start"], reverse=True):
        text = text[: e["start"]] + e["content"] + text[e["end"] :]
    return text


@pytest.mark.parametrize(("case", "style"), [p for p in _params() if p.values[1] in ("triple", "mixed")])
def test_python_fixes_make_the_same_sql_as_the_sql_fixes(case: Case, style: str, tmp_path: Path) -> None:
    """A fix applied to the `.py` file (where it stays applicable) changes its SQL exactly as the `.sql`
    case's fix changes the `.sql` file; a fix that cannot be an edit of one literal is display-only."""
    from icelint import embedded
    from icelint.values.fix import Applicability

    if case.vars or case.base:
        pytest.skip("placeholders substituted: no fix is offered for the .sql file either")
    sql_fixes = {}
    for f in lint_case(case):
        if f.fix is not None and f.fix.applicability is not Applicability.DISPLAY_ONLY:
            sql_fixes[(Path(f.path).name, f.line, f.column, f.rule)] = f.fix
    if not sql_fixes:
        return
    py_case, maps = variant(case, style, tmp_path)
    by_new = {v[0]: k for k, v in maps.items()}
    applied = 0
    for f in lint_case(py_case):
        if f.fix is None:
            continue
        old_name = by_new[Path(f.path).name]
        new_name, sql_index, py_index, place = maps[old_name]
        key = next((k for k in sql_fixes if k[0] == old_name and k[3] == f.rule and _moved(maps, old_name, k[1], k[2])[1:] == (f.line, f.column)), None)
        assert key is not None, f"a fix in the .py file that the .sql file does not have: {f.rule} {f.line}:{f.column}"
        if f.fix.applicability is Applicability.DISPLAY_ONLY:
            continue
        sql_fix = sql_fixes[key]
        assert f.fix.applicability is sql_fix.applicability
        py_text = py_index.text
        new_py = _fixed(py_text, [{"start": e.start, "end": e.end, "content": e.content} for e in f.fix.edits])
        # the .sql fix, made an edit of the SQL extracted from the .py file
        extracted, m = embedded.extract(new_name, py_text)
        back = {o: i for i, o in enumerate(m.ex.src_of) if m.ex.lit_of[i] >= 0}
        edits = []
        for e in sql_fix.edits:
            a = back[place[e.start]] if e.end > e.start else back[place[e.start]] if e.start in place else back[place[e.start - 1]] + 1
            b = back[place[e.end - 1]] + 1 if e.end > e.start else a
            edits.append({"start": a, "end": b, "content": e.content})
        assert embedded.extract(new_name, new_py)[0] == _fixed(extracted, edits)
        applied += 1
    if style == "triple":
        assert applied or all(f.edits[0].content.strip() == "" or any(c in e.content for e in f.edits for c in '"\\') for f in sql_fixes.values()), \
            "no fix of a triple-quoted literal stayed applicable"  # fmt: skip
