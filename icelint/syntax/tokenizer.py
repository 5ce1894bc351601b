"""sqlglot's Spark tokenizer, loaded without the rest of sqlglot.

Importing any sqlglot module runs the package's `__init__` first, which imports its expressions,
parser, generator, optimizer helpers and dialect machinery (with `importlib.metadata`): ~0.17 s,
most of a one-file `icelint check`. icelint needs only the tokenizer (`sqlglot.tokenizer_core`,
compiled by sqlglotc) and the Spark dialect's settings for it (its constructor arguments). So:

* the settings are a snapshot, `_spark_tokenizer.py`, generated from `sqlglot.dialects.spark` by
  `python scripts/gen_spark_tokenizer.py --write` for the sqlglot version it names
  (`tests/equivalence/test_tokenizer.py` fails when it is stale, and compares tokens with Spark's tokenizer);
* `sqlglot` and `sqlglot.expressions` are put in `sys.modules` as module objects whose code has
  not run yet (the compiled `sqlglot.helper`, which the tokenizer imports, loads a library that
  lives in the `sqlglot.expressions` package), and `sqlglot.tokenizer_core` is imported under them.
  The first attribute looked up on either of them that is not there yet (`sqlglot.parse_one`,
  `from sqlglot import exp`, `from sqlglot.expressions import Column`, or any sqlglot module doing
  so, e.g. `import sqlglot.dialects.spark`) runs their real code in those same module objects:
  whoever uses sqlglot later in the process (the DML and CTAS replay, a library caller) gets the
  whole package, only its import happens then.

When sqlglot is already imported, or its installed version is not the snapshot's, the tokenizer
is sqlglot's own Spark tokenizer, as before: the same tokens, only a slower start.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

__all__ = ["TokenType", "new_tokenizer", "SINGLE_TOKENS", "KEYWORDS", "COMMANDS", "COMMAND_PREFIX_TOKENS", "FAST"]

# `TokenizerCore`'s constructor arguments (sqlglot.tokens.Tokenizer._init_core), in its order.
CORE_ARGS = (
    "single_tokens", "keywords", "quotes", "format_strings", "identifiers", "comments",
    "string_escapes", "byte_string_escapes", "identifier_escapes", "commands",
    "command_prefix_tokens", "nested_comments", "dash_comment_requires_boundary",
    "comments_terminate_at_newline_only", "hint_start", "tokens_preceding_hint", "has_bit_strings",
    "has_hex_strings", "numeric_literals", "var_single_tokens",
    "string_escapes_allowed_in_raw_strings", "heredoc_tag_is_identifier",
    "heredoc_string_alternative", "keyword_trie", "numbers_can_be_underscore_separated",
    "numbers_can_have_decimals", "identifiers_can_start_with_digit", "unescaped_sequences",
    "numeric_escapes", "drop_unknown_escapes", "numeric_escapes_are_bytes", "byte_strings_are_bytes",
    "lone_surrogate_replacement",
)  # fmt: skip

_DEFERRED = ("sqlglot", "sqlglot.expressions")  # package code deferred until first use
_deferred: list[tuple[Any, Any]] = []  # (module, spec), while their code has not run
_lock = threading.RLock()


def spark_settings_from_sqlglot() -> dict[str, Any]:
    """The Spark dialect's tokenizer settings, from sqlglot itself (imports all of sqlglot)."""
    from sqlglot.dialects.spark import Spark

    dialect = Spark()
    core = dialect.tokenizer_class(dialect=dialect)._core
    return {name: getattr(core, name) for name in CORE_ARGS}


def _run_deferred() -> None:
    """Run the deferred package code (once): `sqlglot.expressions` first, as `sqlglot`'s first line
    imports it."""
    with _lock:  # another thread waits until the code has run; this thread, re-entering, does not
        todo = list(_deferred)
        _deferred.clear()
        for mod, _ in todo:
            mod.__dict__.pop("__getattr__", None)
        for mod, spec in reversed(todo):
            spec.loader.exec_module(mod)


def _hook(name: str):
    def __getattr__(attr: str) -> Any:
        _run_deferred()
        try:
            return sys.modules[name].__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    return __getattr__


def _defer_packages() -> None:
    import importlib.util

    for name in _DEFERRED:  # in order: finding a subpackage imports its parent
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            raise ImportError(name)
        mod = importlib.util.module_from_spec(spec)
        mod.__getattr__ = _hook(name)  # type: ignore[method-assign]
        sys.modules[name] = mod
        _deferred.append((mod, spec))


def _undo_defer(before: set[str]) -> None:
    """After a failed attempt: forget the deferred modules and the sqlglot modules imported under them."""
    _deferred.clear()
    for name in [n for n in sys.modules if (n == "sqlglot" or n.startswith("sqlglot.")) and n not in before]:
        del sys.modules[name]


def _from_snapshot() -> tuple[Any, Any, dict[str, Any]] | None:
    from sqlglot._version import __version__ as version
    from sqlglot.tokenizer_core import TokenizerCore, TokenType

    from icelint.syntax import _spark_tokenizer as snap

    if version != snap.SQLGLOT_VERSION:
        return None
    settings = snap.settings(TokenType)
    return TokenType, lambda: TokenizerCore(**settings), settings


def _load() -> tuple[Any, Any, dict[str, Any] | None]:
    """(TokenType, a tokenizer factory, the settings); settings None on the slow path."""
    got = None
    if "sqlglot" not in sys.modules:
        before = set(sys.modules)
        try:
            _defer_packages()
            got = _from_snapshot()
        except Exception:  # noqa: BLE001 - an unexpected sqlglot layout: import it plainly below
            _undo_defer(before)
    else:
        try:
            got = _from_snapshot()
        except ImportError:
            pass
    if got is not None:
        return got
    from sqlglot.dialects.spark import Spark  # runs deferred package code, if any
    from sqlglot.tokens import TokenType

    dialect = Spark()
    cls = dialect.tokenizer_class
    return TokenType, lambda: cls(dialect=dialect), None


def _spark_class_settings() -> dict[str, Any]:
    from sqlglot.dialects.spark import Spark

    cls = Spark.tokenizer_class
    return {
        "single_tokens": cls.SINGLE_TOKENS,
        "keywords": cls.KEYWORDS,
        "commands": cls.COMMANDS,
        "command_prefix_tokens": cls.COMMAND_PREFIX_TOKENS,
    }


TokenType, new_tokenizer, _settings = _load()
FAST = _settings is not None  # the snapshot is used (whether sqlglot's package code ran or not)
if _settings is None:
    _settings = _spark_class_settings()
SINGLE_TOKENS: dict = _settings["single_tokens"]
KEYWORDS: dict = _settings["keywords"]
COMMANDS: set = _settings["commands"]
COMMAND_PREFIX_TOKENS: set = _settings["command_prefix_tokens"]
