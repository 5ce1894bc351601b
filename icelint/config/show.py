"""The effective configuration printed as a `[tool.icelint]` table (`icelint check --show-config`)."""

from __future__ import annotations

from typing import Any


def render_toml(d: dict[str, Any]) -> str:
    """The effective configuration as a `[tool.icelint]` table (deterministic)."""
    import json

    def val(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return json.dumps(v, ensure_ascii=False)

    head = [f"# effective icelint configuration (config file: {d['config-file'] or 'none'}; paths relative to the current directory)"]
    lines = ["[tool.icelint]"]
    tables: list[str] = []
    for k, v in d.items():
        if k == "config-file" or v is None or (isinstance(v, dict) and not v):
            continue
        if isinstance(v, dict):
            tables.append("")
            tables.append(f"[tool.icelint.{k}]")
            for kk, vv in v.items():
                tables.append(f"{val(kk)} = {val(vv)}")
        else:
            lines.append(f"{k} = {val(v)}")
    return "\n".join(head + lines + tables) + "\n"
