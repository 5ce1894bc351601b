"""Findings: what the rules report, in the form every reporter renders."""

from __future__ import annotations

import sys
import zlib
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from icelint.values.fix import Fix
    from icelint.model.stats import Impact


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANKS[self._value_]  # asked once per finding by the exit code: no dict built per call


_RANKS = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True)
class Finding:
    """One problem found: the rule, where (1-based line and column, end exclusive), the message, the help and the fix.

    A finding whose message and help reach `PACK_MIN` characters keeps the two compressed in its
    instance dict (`_pack`) and reads them out when asked (`_Text`): a long run's findings naming
    whole column orders held 15 MB of text, ~3 MB so kept. `icelint check` turns this
    off for runs too short for it to matter (`packing_texts`)."""

    rule: str  # ICE001
    name: str  # drop-then-add
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    end_column: int  # of the last character (inclusive, like Span); the JSON and SARIF outputs are exclusive
    message: str
    help: str | None = None
    table: str | None = None
    column_path: str | None = None
    field_id: int | None = None
    statement_index: int = 0
    suppressed_reason: str | None = field(default=None, compare=False)
    fix: Fix | None = field(default=None, compare=False)  # the safe alternative as edits (icelint/values/fix.py)
    impact: Impact | None = field(default=None, compare=False)  # the data at stake (model/stats.py)

    @property
    def sort_key(self) -> tuple:
        """Files in migration order (`V2__` before `V10__`), then line, column, rule.

        Computed once per finding (kept in the instance's dict, outside the compared fields): a run
        sorts its findings several times (checker, suppressions, placeholders, the CLI)."""
        d = self.__dict__
        key = d.get("_sort_key")
        if key is None:
            message = d["message"]
            if message.__class__ is _Packed:
                message = _MessageKey(message)  # unpacked only on a tie
            key = d["_sort_key"] = (*_path_key(self.path), self.line, self.column, self.rule, message)
        return key

    def __hash__(self) -> int:
        # Equal findings have equal positions, rules and fields: hashing those few (not the message and
        # help texts of every finding, as the generated hash would) keeps `set(findings)` cheap; the
        # field, because one statement may report thousands of fields at one place (a struct's fields):
        # equal hashes there made `set` compare, and unpack, every pair of texts
        return hash((self.rule, self.path, self.line, self.column, self.end_line, self.end_column, self.statement_index,
                     self.field_id, self.column_path))  # fmt: skip

    def to_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column + 1,  # exclusive, as in SARIF (JSON contract version 2)
            "table": self.table,
            "column_path": self.column_path,
            "field_id": self.field_id,
            "message": self.message,
            "help": self.help,
            "fix": self.fix.to_json() if self.fix is not None else None,
            "impact": self.impact.to_json() if self.impact is not None else None,
        }


PACK_MIN = 256  # characters of message and help from which a finding keeps them compressed
_pack_from = [PACK_MIN]  # what `Finding.__init__` compares with: PACK_MIN, or never (`packing_texts`)
_WBITS, _ZDICT = -12, 2048  # raw deflate, a 4 KB window: the dictionary's last 2 KB and a text of ~2 KB
_zdicts: dict[str, bytes] = {}  # rule → the texts of its first packed finding: the others' preset dictionary


def in_report_order(findings: Iterable[Finding]) -> list[Finding]:
    """`findings` without duplicates, in the order every report lists them (`Finding.sort_key`)."""
    return sorted(set(findings), key=_SORT_KEY)


_SORT_KEY = attrgetter("sort_key")


class _Packed(tuple):
    """A finding's message and help, compressed: (the two UTF-8 encoded and compressed with the
    rule's preset dictionary, the dictionary, the message's length in characters or its complement
    when there is no help)."""

    __slots__ = ()

    def texts(self) -> tuple[str, str | None]:
        z, zdict, n = self
        text = zlib.decompressobj(_WBITS, zdict=zdict).decompress(z).decode("utf-8", "surrogatepass")
        return (text[:n], text[n:]) if n >= 0 else (text, None)

    def __reduce__(self):
        return (_Packed, (tuple(self),))


def _pack(d: dict) -> None:
    """Keep `message` and `help` in a finding's instance dict as one `_Packed` (under both keys: the
    dict keeps the keys every finding has, so it still shares them with the others'). A rule's
    findings repeat its sentences: the first one's texts make the others a few hundred bytes; the
    dictionary is shared (one copy per pickled list of findings, as workers send them)."""
    message, help = d["message"], d["help"]
    data = (message if help is None else message + help).encode("utf-8", "surrogatepass")
    zdict = _zdicts.get(d["rule"])
    if zdict is None:
        zdict = _zdicts[d["rule"]] = data[-_ZDICT:]
    c = zlib.compressobj(1, zlib.DEFLATED, _WBITS, 2, zdict=zdict)  # a small window and state: ~4x quicker to set up
    n = len(message) if help is not None else ~len(message)
    d["message"] = d["help"] = _Packed((c.compress(data) + c.flush(), zdict, n))


class _Text:
    """`Finding.message` / `Finding.help`: the instance dict's value, read out of a `_Packed`."""

    def __init__(self, name: str, part: int) -> None:
        self.name, self.part = name, part

    def __get__(self, obj, cls=None):
        if obj is None:
            return None if self.part else self  # the class's `help` default, as the dataclass set it
        v = obj.__dict__[self.name]
        return v.texts()[self.part] if v.__class__ is _Packed else v

    def __set__(self, obj, value) -> None:  # the dataclass's own `__init__` (frozen: `object.__setattr__`)
        obj.__dict__[self.name] = value


class _MessageKey:
    """A packed finding's message in its sort key: unpacked only when the rest of the key ties, and
    then once (many findings at one place, as a struct's fields can give, are compared many times)."""

    __slots__ = ("packed", "text")

    def __init__(self, packed: _Packed) -> None:
        self.packed = packed
        self.text: str | None = None

    def __reduce__(self):
        return (_MessageKey, (self.packed,))

    def __hash__(self) -> int:
        return hash(_text(self))

    def __eq__(self, other: object) -> bool:
        return _text(self) == _text(other)

    def __ne__(self, other: object) -> bool:
        return _text(self) != _text(other)

    def __lt__(self, other: object) -> bool:
        return _text(self) < _text(other)

    def __le__(self, other: object) -> bool:
        return _text(self) <= _text(other)

    def __gt__(self, other: object) -> bool:
        return _text(self) > _text(other)

    def __ge__(self, other: object) -> bool:
        return _text(self) >= _text(other)


def _text(x):
    if x.__class__ is not _MessageKey:
        return x
    text = x.text
    if text is None:
        text = x.text = x.packed.texts()[0]
    return text


def _direct_init(cls, then: str = ""):
    """Give the frozen dataclass `cls` an `__init__` that fills the instance dict directly.

    The generated `__init__` of a frozen dataclass sets each field through `object.__setattr__`
    (~4 us for a finding's 16 fields); a run can make tens of thousands of findings (one per unused
    suppression, per re-added column). This one takes the same parameters, in the same order with
    the same defaults, and stores the same values (`tests/equivalence/test_findings.py` compares the
    two). Only for dataclasses whose fields all have plain defaults and no `__post_init__`."""
    plain = cls.__init__
    params, store, defaults = [], [], {}
    for f in fields(cls):
        assert f.init and f.default_factory is MISSING and not hasattr(cls, "__post_init__")
        if f.default is MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        store.append(f"    d[{f.name!r}] = {f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n    d = self.__dict__\n" + "\n".join(store) + "\n" + then
    namespace: dict = {}
    exec(source, {**defaults, **globals()}, namespace)  # noqa: S102 - as dataclasses itself makes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    cls._plain_init = plain  # the dataclass's own, for the equivalence test
    return cls


_direct_init(Finding, "    if len(message) + (len(help) if help else 0) >= _pack_from[0]:\n        _pack(d)\n")
Finding.message, Finding.help = _Text("message", 0), _Text("help", 1)  # set once the dataclass is made: its defaults stay


@contextmanager
def packing_texts(on: bool):
    """Within: findings pack their texts (`_pack`) only when `on` (the default outside). `icelint check`
    turns it off for a run of fewer than `packed_findings.PACK_FROM` statements: its findings weigh
    little (12,500 re-adds: ~15 MB), and packing and reading them back was ~6 % of its CPU."""
    previous = _pack_from[0]
    _pack_from[0] = PACK_MIN if on else sys.maxsize
    try:
        yield
    finally:
        _pack_from[0] = previous


@lru_cache(maxsize=None)
def _path_key(path: str) -> tuple:
    """A file's place in the sort: its folder, then migration order (a run has few paths, many findings)."""
    from icelint.plan.discovery import sort_key as file_key

    parent, _, name = path.replace("\\", "/").rpartition("/")
    name, _, cell = name.partition(":cell ")  # a notebook's cell (icelint.embedded): in the notebook's place
    return (parent, file_key(name), int(cell) if cell.isdigit() else 0, path)
