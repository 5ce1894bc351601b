"""The replay's error messages stay short whatever the table: a struct is shown by its first fields.
"""

from __future__ import annotations


def test_a_struct_in_a_message_lists_its_first_fields() -> None:
    from icelint.engine.pipeline import replay_text
    from icelint.replay.common import SHOWN_FIELDS

    for n in (3, SHOWN_FIELDS, SHOWN_FIELDS + 1, 400):
        cols = ", ".join(f"c{i} int" for i in range(n))
        run = replay_text(f"CREATE TABLE db.t ({cols}) USING iceberg;\nALTER TABLE db.t ALTER COLUMN nope COMMENT 'x';\n")
        message = run.result.outcomes[1].error.message
        listed = ", ".join(f"c{i}: int" for i in range(min(n, SHOWN_FIELDS)))
        if n <= SHOWN_FIELDS:
            assert message.endswith(f"with schema: struct<{listed}>")
        else:
            assert message.endswith(f"with schema: struct<{listed}, ... {n - SHOWN_FIELDS} more fields>")
