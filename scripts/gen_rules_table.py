"""The README's rules table, generated from the registry.

    python scripts/gen_rules_table.py            # print the Markdown table
    python scripts/gen_rules_table.py --write    # rewrite the block in README.md
    python scripts/gen_rules_table.py --check    # exit 1 when README.md's block is stale

The block sits between `<!-- rules-table:start -->` and `<!-- rules-table:end -->`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"
README = ROOT / "README.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").strip()


def table() -> str:
    from icelint.rules import ALL_RULES

    rows = ["| Code | Name | Severity | Summary |", "| --- | --- | --- | --- |"]
    for r in ALL_RULES:
        rows.append(f"| {r.code} | `{r.name}` | {r.severity.value} | {_cell(r.summary)} |")
    return "\n".join(rows) + "\n"


def render(readme: str) -> str:
    """README text with the block between the markers replaced by the current table."""
    if START not in readme or END not in readme:
        raise ValueError(f"README.md has no {START} ... {END} block")
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{table()}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite the block in README.md")
    group.add_argument("--check", action="store_true", help="exit 1 when README.md's block is stale")
    ap.add_argument("--readme", type=Path, default=README, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not (args.write or args.check):
        sys.stdout.write(table())
        return 0
    try:
        old = args.readme.read_text(encoding="utf-8")
        new = render(old)
    except (OSError, ValueError) as e:
        print(f"gen_rules_table: {args.readme}: {e}", file=sys.stderr)
        return 2
    if args.check:
        if new != old:
            print(f"{args.readme}: the rules table is stale; run python scripts/gen_rules_table.py --write", file=sys.stderr)
            return 1
        return 0
    if new != old:
        args.readme.write_text(new, encoding="utf-8")
        print(f"updated the rules table in {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
