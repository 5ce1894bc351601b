"""Speed around the engine, never inside it: the run cache, parallel replay of independent tables, and
compressed findings and texts for very long runs. Each shortcut gives the engine's own result; its
equivalence test is in `tests/equivalence/`.
"""
