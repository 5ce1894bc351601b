"""The oracle's Iceberg runtimes: each jar is the release it is named for, and the relocated Jackson
classes are added only where the jar lacks them (the 1.9.2 jar bundles them, the 1.10.2 jar does not)."""

from __future__ import annotations

import zipfile

import pytest

from .runtimes import RUNTIMES, runtime, runtime_jar, session_jars
from .spark import spark_available

pytestmark = pytest.mark.spark

JACKSON = "org/apache/iceberg/shaded/com/fasterxml/jackson/core/JsonFactoryBuilder.class"


@pytest.mark.parametrize("name", list(RUNTIMES))
def test_runtime_jar_is_the_named_release(name: str) -> None:
    ok, reason = spark_available(name)
    if not ok:
        pytest.skip(reason)
    rt = runtime(name)
    jar = runtime_jar(name)
    assert jar.name == rt.jar_name
    with zipfile.ZipFile(jar) as z:
        props = dict(
            line.split("=", 1) for line in z.read("iceberg-build.properties").decode().splitlines() if "=" in line
        )
        assert props["git.build.version"] == rt.iceberg
        bundles_jackson = JACKSON in z.namelist()
    assert bundles_jackson is not rt.relocated_jackson  # the relocated jar is added exactly where it is missing
    assert len(session_jars(name)) == (2 if rt.relocated_jackson else 1)


def test_unknown_runtime_is_named() -> None:
    with pytest.raises(ValueError, match="unknown Iceberg runtime '1.8'"):
        runtime("1.8")
    assert spark_available("1.8")[0] is False
