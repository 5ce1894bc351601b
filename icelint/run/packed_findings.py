"""Findings kept compressed while `icelint check` lints a long run in one process.

A long run's findings are read only once the whole replay is over; until then they sat beside the
replay's states and steps (~850 bytes a finding: 12 MB for the 14,000 findings of the 40,000-statement
benchmark, at the run's peak). `checker.lint_replay(pack_findings=True)` hands every `BATCH`
findings to a `PackedFindings` (pickled, compressed: ~60 bytes a finding) and `icelint.engine.check` reads them
back after it let go of the states and the steps, so that they never coexist (up to
`MAX_PACKED` findings; the rest stay as they are). Pickling keeps
everything a finding holds (workers send findings to the parent the same way).
"""

from __future__ import annotations

import pickle
import zlib
from typing import Any, Iterator

from icelint.values.findings import in_report_order

BATCH = 512  # findings a blob
# Packing costs ~30 us a finding (pickle and zlib, and back) and saves what the findings hold at the
# run's peak: all of it for the migration x20's 14,000 findings (7 MB of its 2 KB a statement), but
# on a 5 MB slice of the 50 MB file, whose 50,000 findings weigh little beside its states, 3 s of
# CPU for nothing. So only the first `MAX_PACKED` findings are packed.
MAX_PACKED = 20_000
# A run of fewer statements keeps its findings as they are: its whole memory is small (12,500 DROP/ADD
# pairs with a finding each: ~60 MB in all), and packing them was ~10 % of its CPU.
PACK_FROM = 20_000


class PackedFindings:
    """Findings in compressed blobs of `BATCH`, and the last few as they are; iterate to read them
    (a blob at a time), `read()` for all of them, deduplicated and in report order."""

    __slots__ = ("_blobs", "_loose", "count")

    def __init__(self) -> None:
        self._blobs: list[bytes] = []
        self._loose: list[Any] = []
        self.count = 0  # findings in the blobs

    def add(self, batch: list[Any]) -> None:
        self._blobs.append(zlib.compress(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL), 1))
        self.count += len(batch)

    def keep_loose(self, findings: list[Any]) -> None:
        self._loose = findings

    def __iter__(self) -> Iterator[Any]:
        for blob in self._blobs:
            yield from pickle.loads(zlib.decompress(blob))
        yield from self._loose

    def read(self) -> list[Any]:
        """Every finding, deduplicated and sorted (as `checker` returns them); the blobs are let go."""
        out: list[Any] = []
        blobs, self._blobs = self._blobs, []
        while blobs:
            out += pickle.loads(zlib.decompress(blobs.pop(0)))
        out += self._loose
        self._loose = []
        return in_report_order(out)
