"""Regenerate examples/snapshots/db.events.metadata.json by running examples/setup.sql in real Spark.

Usage: python scripts/generate_example_snapshot.py   (needs the [spark] extra and Java 17)
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.oracle.spark import metadata_path, reset_namespace, split_statements, start_session  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        spark = start_session(Path(tmp))
        reset_namespace(spark, "db")
        for _, stmt in split_statements((ROOT / "examples" / "setup.sql").read_text()):
            spark.sql(stmt)
        meta = json.loads(metadata_path(Path(tmp), "db.events").read_text())
        out = ROOT / "examples" / "snapshots" / "db.events.metadata.json"
        out.write_text(json.dumps(meta, indent=2) + "\n")
        spark.stop()
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
