"""Findings kept compressed while `icelint check` lints a long run in one process.

A finding is a plain value (`values.findings.Finding`); this is where a long run keeps its list of
them small. Its findings are read only once the whole replay is over; until then they sat beside
the replay's states and steps (~850 bytes a finding, more for the findings that list a whole column
order: 12 MB for the 14,000 findings of the 40,000-statement benchmark, at the run's peak).
`checker.lint_replay(packed=PackedFindings())` hands its list to a `PackedFindings` every `BATCH`
findings (`spill`: pickled and compressed together, 50-100 bytes a finding, as the findings of one
batch repeat their rule's sentences) and `icelint.engine.check` reads them back (`read`) after it
let go of the states and the steps, so that the two never coexist; what it reads back are the
findings themselves, which go on to the reporters. Up to `MAX_PACKED` findings are packed; the
rest stay as they are. Pickling keeps everything a finding holds (workers send findings to the
parent the same way).

`icelint check` packs only in runs of `PACK_FROM` statements and more.
"""

from __future__ import annotations

import pickle
import zlib
from typing import TYPE_CHECKING, Iterator

from icelint.values.findings import in_report_order

if TYPE_CHECKING:
    from icelint.values.findings import Finding

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
    """A list of findings kept as compressed blobs of about `BATCH`, and the last ones as they are.

    Filled by `spill` (or `add` and `keep_loose`); iterate it to read the findings in the order they
    were given (a blob at a time), `read()` for all of them, deduplicated and in report order, once."""

    __slots__ = ("_blobs", "_loose", "count")

    def __init__(self) -> None:
        self._blobs: list[bytes] = []
        self._loose: list[Finding] = []
        self.count = 0  # findings in the blobs

    def spill(self, findings: list[Finding]) -> list[Finding]:
        """Take `findings` (a linter's list so far) into a blob if there are `BATCH` of them and fewer
        than `MAX_PACKED` are packed: the list to go on filling (a new one, or `findings` itself)."""
        if len(findings) < BATCH or self.count >= MAX_PACKED:
            return findings
        self.add(findings)
        return []

    def add(self, batch: list[Finding]) -> None:
        """Pack `batch` as one blob, after the blobs already packed."""
        self._blobs.append(zlib.compress(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL), 1))
        self.count += len(batch)

    def keep_loose(self, findings: list[Finding]) -> None:
        """The last findings, kept as they are after the blobs."""
        self._loose = findings

    def __len__(self) -> int:
        return self.count + len(self._loose)

    def __iter__(self) -> Iterator[Finding]:
        for blob in self._blobs:
            yield from pickle.loads(zlib.decompress(blob))
        yield from self._loose

    def read(self) -> list[Finding]:
        """Every finding, deduplicated and sorted (as `checker` returns them); the blobs are let go."""
        out: list[Finding] = []
        blobs, self._blobs = self._blobs, []
        while blobs:
            out += pickle.loads(zlib.decompress(blobs.pop(0)))
        out += self._loose
        self._loose = []
        self.count = 0
        return in_report_order(out)
