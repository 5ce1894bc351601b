"""The run cache (icelint.run.cache) is off in the test suite, in-process and in subprocesses: tests that
change icelint's behaviour (monkeypatching) must not be served a cached report. The cache's own
tests (tests/equivalence/test_cache.py) turn it back on."""

import os

os.environ.setdefault("ICELINT_NO_CACHE", "1")
