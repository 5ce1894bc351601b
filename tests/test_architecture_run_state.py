"""No module-level mutable state for a run: what one check builds (look-ups over its outcomes, its
budget of suggestions, whether parallel processes are allowed, where notes go, whether its data
counts were all read) lives on an object of that run (`icelint.engine.context.RunContext`, the rule
context, the request, the report), passed down explicitly, never in a module.

Checked on the source (AST): a module-level name that a function of its module rebinds (`global`)
or mutates in place (item assignment or deletion, `.append`, `.update`, `.clear`, ...), and a module
attribute that another module sets (`parallel.enabled = True`), are run state. The few memo tables
of pure functions of import-time constants are listed below, each with why it is not run state."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "icelint"

MUTATORS = frozenset({
    "append", "appendleft", "extend", "insert", "clear", "update", "pop", "popitem", "setdefault", "add",
    "discard", "remove", "move_to_end", "sort", "reverse", "__setitem__", "__delitem__",
})

# (module, name): module-level tables filled as a run goes that are NOT state of a run. Each is a
# memo of a pure function of values fixed at import time (the same answer in every run, whatever
# the run did before), or an import-time mechanism; keep this list short and say why.
ALLOWED = {
    # TokenType → its name: a memo of `TokenType.name` (enum members are fixed at import time).
    ("icelint.replay.dml.fast", "_names"),
    # the modules whose code runs on first attribute access (lazy import of sqlglot's parts): an
    # import-time mechanism of the process, emptied once those modules have run.
    ("icelint.syntax.tokenizer", "_deferred"),
    # a glob pattern → its compiled regular expression: a pure function of the pattern text.
    ("icelint.config.model", "_GLOB_CACHE"),
    # an Iceberg primitive type (a frozen value) → its Spark SQL name: a pure function of the type.
    ("icelint.rules.kit.help", "_PRIMITIVE_SQL"),
    # a Python literal's kind (its quote, whether an f-string) → the regular expression of the
    # characters that end a plain run in it: a pure function of the two.
    ("icelint.embedded.literals", "_SPECIALS"),
}

# Run state that another change of the same restructuring moves out of these modules (the packing
# of finding texts, the shared line indexes of sources); drop these entries once it has landed.
HANDLED_ELSEWHERE = {
    ("icelint.values.findings", "_pack_from"),
    ("icelint.values.findings", "_zdicts"),
    ("icelint.values.source", "_shared"),
}


def _modules() -> dict[str, Path]:
    mods = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


def _mutable(value: ast.expr | None) -> bool:
    """A container or None: what a module-level name holds when a run is meant to fill or set it."""
    if value is None:
        return False
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Constant) and value.value is None:
        return True
    if isinstance(value, ast.Call):
        f = value.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter", "bytearray"}
    return False


def _module_names(tree: ast.Module) -> dict[str, bool]:
    """Module-level names → whether they hold a mutable container (or None)."""
    out: dict[str, bool] = {}
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.Try)):  # `if TYPE_CHECKING:`, `try: ... except ImportError:`
            todo += node.body + node.orelse + [s for h in getattr(node, "handlers", ()) for s in h.body]
            continue
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        else:
            continue
        for t in targets:
            if isinstance(t, ast.Name):
                out[t.id] = out.get(t.id, False) or _mutable(value)
    return out


def _bound_locally(fn: ast.AST) -> set[str]:
    """Names a function binds itself (its parameters and assignments, not `global`s)."""
    out: set[str] = set()
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = fn.args
        out.update(x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
                                   *([a.kwarg] if a.kwarg else [])])
    declared: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    return out - declared


def _target_name(node: ast.expr) -> str | None:
    """`name` of `name[...]` (any depth of subscripts)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def run_state(mod: str, source: str, mods: dict[str, Path]) -> set[tuple[str, str, str]]:
    """(module, name, how) for every module-level name of `source` that its functions rebind or
    mutate, and every attribute of another icelint module that `source` sets."""
    tree = ast.parse(source)
    names = _module_names(tree)
    found: set[tuple[str, str, str]] = set()
    imported: dict[str, str] = {}  # local name → the icelint module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("icelint"):
            for a in node.names:
                if f"{node.module}.{a.name}" in mods:
                    imported[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in mods and a.asname:
                    imported[a.asname] = a.name
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for fn in functions:
        local = _bound_locally(fn)
        body = fn.body if isinstance(fn.body, list) else [fn.body]
        for node in (n for stmt in body for n in ast.walk(stmt)):
            if isinstance(node, ast.Global):
                found.update((mod, n, "rebound through `global`") for n in node.names)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Subscript):
                        n = _target_name(t)
                        if n in names and n not in local:
                            found.add((mod, n, "item set or deleted in a function"))
                    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in imported:
                        found.add((imported[t.value.id], t.attr, f"set by {mod}"))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                n = _target_name(node.func.value)
                if n in names and names[n] and n not in local:
                    found.add((mod, n, f"`.{node.func.attr}` in a function"))
    return found


def all_run_state() -> set[tuple[str, str, str]]:
    mods = _modules()
    out: set[tuple[str, str, str]] = set()
    for mod, path in mods.items():
        out |= run_state(mod, path.read_text(encoding="utf-8"), mods)
    return out


def test_the_finder_finds_run_state() -> None:
    mods = {"icelint.run.parallel": Path("x"), "icelint.m": Path("y")}
    source = '''
from icelint.run import parallel
_cache: list = [None, None]
_seen = {}
_budget = [0]
note = None
LIMIT = 3
def index(result):
    if _cache[0] is not result:
        _cache[:] = [result, 1]
    _seen.setdefault(result, 0)
def new_run():
    _budget[0] = 0
def entry():
    global note
    note = print
    parallel.enabled = True
def fine(x):
    _local = {}
    _local["a"] = 1
    out = []
    out.append(LIMIT)
    return out
'''
    assert {(m, n) for m, n, _ in run_state("icelint.m", source, mods)} == {
        ("icelint.m", "_cache"), ("icelint.m", "_seen"), ("icelint.m", "_budget"), ("icelint.m", "note"),
        ("icelint.run.parallel", "enabled"),
    }


def test_no_module_level_run_state() -> None:
    found = sorted(f"{m}.{n}: {how}" for m, n, how in all_run_state() if (m, n) not in ALLOWED | HANDLED_ELSEWHERE)
    assert found == []


def test_rules_keep_no_cache_in_the_rule_context_dict() -> None:
    """What a family of rules shares per statement goes through `RuleContext.shared` / `.memo`, what a
    rule builds per run on `ctx.run`: nothing is slipped into a rule context's instance dict."""
    hits = [f"{p.relative_to(ROOT)}:{i}" for folder in ("rules", "engine") for p in (PACKAGE / folder).rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "ctx.__dict__" in line]
    assert hits == []


def test_the_allowed_memo_tables_still_exist() -> None:
    """An entry of ALLOWED that no longer matches anything is removed, not left to excuse a new table."""
    seen = {(m, n) for m, n, _ in all_run_state()}
    assert sorted(ALLOWED - seen) == []
