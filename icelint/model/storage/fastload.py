"""Reading very large metadata.json files without decoding every schema version.

A table with 500 schema versions of 5,000 columns carries 1.2 million field objects in its
`schemas` array; decoding them all costs seconds, while the replay needs the current schema only.
`split` cuts the array out of the text (verifying every cut, and giving up rather than guessing),
decodes the rest and the current schema, and leaves older versions as `TextSchema`s, decoded on
first use. Any surprise returns None and the caller decodes the whole file as usual.
"""

from __future__ import annotations

from typing import Any, Callable

from icelint.model.jsontext import DECODER, decode, json_problem
from icelint.model.validate import FAULTS, CheckedLazySchema, MetadataError, explain_schema

THRESHOLD = 4 * 1024 * 1024  # bytes: below this, plain json.loads is fast enough
_FOLLOWERS = ('"default-spec-id"', '"current-schema-id"', '"partition-specs"', '"last-partition-id"')
# In a schema object the keys ending in `id` are `id`, `element-id`, `key-id`, `value-id` and
# `schema-id`: counting `id" :` (Jackson's spacing) or `id":` (compact) counts every field id, plus one.
_ID_KEY = {True: 'id" :', False: 'id":'}
_decoder = DECODER  # NaN and Infinity refused, as Iceberg's reader does


def _array_end(text: str, start: int) -> int | None:
    """Index just after the `]` closing the array that starts at `start` (the `[`), or None.

    The array is followed by `], "<top-level key>"`; the nearest such place is its end (a later one
    would be the end of another array, such as `partition-specs`).
    """
    best: int | None = None
    for key in _FOLLOWERS:
        pos = text.find(key, start)
        tries = 0
        while pos != -1 and tries < 64 and (best is None or pos < best):
            i = pos - 1
            while i > start and text[i] in " \t\r\n":
                i -= 1
            if text[i] == ",":
                i -= 1
                while i > start and text[i] in " \t\r\n":
                    i -= 1
                if text[i] == "]":
                    best = i + 1
                    break
            pos = text.find(key, pos + 1)
            tries += 1
    return best


def _int_after(text: str, pos: int) -> int | None:
    """The integer after `"key"` at pos (`"schema-id" : 12`), or None."""
    i = text.find(":", pos)
    if i == -1 or text[pos:i].strip('"schema-id').strip():
        return None
    j = i + 1
    n = len(text)
    while j < n and text[j] in " \t\r\n":
        j += 1
    k = j
    while k < n and text[k].isdigit():
        k += 1
    return int(text[j:k]) if k > j else None


def split(text: str, parse_field: Callable[[Any], Any], origin: str = "<metadata>") -> tuple[dict[str, Any], list] | None:
    """(top-level object with the current schema only, [schemas]) or None to decode in full."""
    key = text.find('"schemas"')
    if key == -1:
        return None
    start = text.find("[", key)
    if start == -1 or text[key + len('"schemas"') : start].strip() != ":":
        return None
    end = _array_end(text, start)
    if end is None:
        return None
    try:
        head = decode(text[:start] + "[]" + text[end:])
    except (ValueError, RecursionError):
        return None
    required = ("current-schema-id", "last-column-id", "format-version")
    if not isinstance(head, dict) or head.get("schemas") != [] or any(k not in head for k in required):
        return None
    if "partition-specs" not in head and "partition-spec" not in head:
        return None  # a cut in the wrong place swallows the keys between two arrays
    current_id = head["current-schema-id"]
    array = text[start:end]
    starts: list[tuple[int, int]] = []  # (object start, schema id)
    pos = array.find('"schema-id"')
    while pos != -1:
        sid = _int_after(array, pos)
        obj = array.rfind("{", 0, pos)
        if sid is not None and obj != -1 and array[obj + 1 : pos].replace('"type"', "").replace('"struct"', "").strip(" \t\r\n:,") == "":
            starts.append((obj, sid))
        pos = array.find('"schema-id"', pos + 1)
    spaced = array.find('" : ', 0, 4096) != -1
    schemas: list = []
    current = None
    for i, (obj, sid) in enumerate(starts):
        stop = starts[i + 1][0] if i + 1 < len(starts) else len(array)
        if sid == current_id:
            try:
                current = decode(array, obj)
            except (ValueError, RecursionError):
                return None
            if not isinstance(current, dict) or current.get("schema-id") != current_id:
                return None
            schemas.append(current)
        else:
            schemas.append(TextSchema(array, obj, stop, sid, parse_field, _ID_KEY[spaced], origin, f"schemas[{i}]"))
    if current is None:
        return None
    return head, schemas


class TextSchema(CheckedLazySchema):
    """An older schema version kept as its JSON text: decoded on first use."""

    def __init__(self, text: str, start: int, stop: int, schema_id: int, parse, id_key: str,  # noqa: D107
                 origin: str = "<metadata>", where: str = "schemas") -> None:
        object.__setattr__(self, "_where", (origin, where))
        object.__setattr__(self, "schema_id", schema_id)
        object.__setattr__(self, "_id_key", id_key)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_span", (start, stop))
        object.__setattr__(self, "_parse", parse)

    @property
    def _raw(self) -> dict[str, Any]:  # type: ignore[override]
        raw = self.__dict__.get("_raw_obj")
        if raw is None:
            try:
                raw = decode(self._text, self._span[0])
            except (ValueError, RecursionError) as e:
                raise MetadataError(*self._where, f"not valid JSON: {json_problem(e)}") from None
            if not isinstance(raw, dict) or not isinstance(raw.get("fields"), list):
                raise explain_schema(*self._where, raw, TypeError("not a schema"))
            object.__setattr__(self, "_raw_obj", raw)
        return raw

    @property  # type: ignore[override]
    def identifier_field_ids(self) -> tuple[int, ...]:
        raw = self._raw
        try:
            return tuple(int(i) for i in raw.get("identifier-field-ids") or ())
        except FAULTS as e:
            raise explain_schema(*self._where, raw, e) from None

    @property
    def field_count(self) -> int:  # type: ignore[override]
        """Every field id in the schema (element/key/value included), counted in the text."""
        text, (a, b) = self._text, self._span
        return text.count(self._id_key, a, b) - 1  # less the schema's own `schema-id`

    @property
    def _identity(self) -> tuple:  # type: ignore[override]
        cached = self.__dict__.get("_ident")
        if cached is None:
            text, (a, b) = self._text, self._span
            idents: frozenset[int] = frozenset()
            # written before the fields (Java) or after them (pyiceberg): look at both ends only
            at = text.find('"identifier-field-ids"', a, min(b, a + 512))
            if at == -1:
                at = text.find('"identifier-field-ids"', max(a, b - 4096), b)
            if at != -1:  # decode just that list, not the schema
                bracket = text.find("[", at, b)
                try:
                    ids, _ = _decoder.raw_decode(text, bracket)
                    idents = frozenset(int(i) for i in ids)
                except FAULTS:
                    idents = frozenset(self.identifier_field_ids)
            cached = (self.field_count, idents)
            object.__setattr__(self, "_ident", cached)
        return cached
