"""The Iceberg Spark runtimes the oracle can run: where each runtime jar comes from.

* ``1.10``: ``iceberg-spark-runtime-3.5_2.12-1.10.2.jar`` from the installed
  ``snowpark-connect-deps-iceberg`` (the ``spark`` extra pins 1.0.2, whose jar bundles Iceberg's
  relocated Jackson classes; 1.0.3's lacks them, and :mod:`tests.oracle.jackson` then builds them).
* ``1.9``: ``iceberg-spark-runtime-3.5_2.12-1.9.2.jar`` from ``snowpark-connect-deps-iceberg==1.0.1``,
  which cannot be installed next to the extra's release (same package). Its wheel is fetched on demand with
  ``pip download --no-deps`` into the oracle's cache folder and the jar is read out of the wheel
  (a zip). That jar bundles the relocated Jackson classes itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Runtime:
    name: str  # what `iceberg-version` says: "1.9", "1.10"
    iceberg: str  # the exact Iceberg release measured
    wheel: str  # the snowpark-connect-deps-iceberg release that ships its jar
    installed: bool  # True: the installed package's jar; False: fetched from the wheel on demand
    relocated_jackson: bool  # True: the jar lacks relocated Jackson (tests/oracle/jackson.py adds it)

    @property
    def jar_name(self) -> str:
        return f"iceberg-spark-runtime-3.5_2.12-{self.iceberg}.jar"

    @property
    def label(self) -> str:
        return f"Iceberg {self.iceberg}"


RUNTIMES: dict[str, Runtime] = {
    "1.10": Runtime("1.10", "1.10.2", "1.0.2", installed=True, relocated_jackson=False),
    "1.9": Runtime("1.9", "1.9.2", "1.0.1", installed=False, relocated_jackson=False),
}
DEFAULT = "1.10"
PACKAGE = "snowpark-connect-deps-iceberg"


def runtime(name: str) -> Runtime:
    try:
        return RUNTIMES[name]
    except KeyError:
        raise ValueError(f"unknown Iceberg runtime {name!r} (known: {', '.join(RUNTIMES)})") from None


def _cache_dir() -> Path:
    from .jackson import cache_dir

    return cache_dir()


def _installed_jar(rt: Runtime) -> Path:
    import snowpark_connect_deps_iceberg

    jar = Path(snowpark_connect_deps_iceberg.get_jars_dir()) / rt.jar_name
    if not jar.is_file():
        raise FileNotFoundError(f"{rt.jar_name} not found in {jar.parent}")
    return jar


def _fetched_jar(rt: Runtime) -> Path:
    """The jar out of the `snowpark-connect-deps-iceberg==<wheel>` wheel, fetched and cached once."""
    target = _cache_dir() / rt.jar_name
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    wheels = _cache_dir() / "wheels"
    pattern = f"snowpark_connect_deps_iceberg-{rt.wheel}-*.whl"
    found = sorted(wheels.glob(pattern))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "--quiet",
               f"{PACKAGE}=={rt.wheel}", "-d", str(wheels)]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        found = sorted(wheels.glob(pattern))
        if done.returncode != 0 or not found:
            last = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
            raise FileNotFoundError(f"cannot fetch {PACKAGE}=={rt.wheel} (for {rt.jar_name}): {last}")
    member = f"snowpark_connect_deps_iceberg/jars/{rt.jar_name}"
    with zipfile.ZipFile(found[-1]) as wheel:
        if member not in wheel.namelist():
            raise FileNotFoundError(f"{found[-1].name} has no {member}")
        fd, tmp = tempfile.mkstemp(prefix=".runtime-", suffix=".jar", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out, wheel.open(member) as src:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    found[-1].unlink(missing_ok=True)  # the jar is what is kept (the wheel holds three more)
    return target


def runtime_jar(name: str = DEFAULT) -> Path:
    """The Iceberg Spark runtime jar (Scala 2.12 build, matching pyspark 3.5) of runtime `name`."""
    rt = runtime(name)
    return _installed_jar(rt) if rt.installed else _fetched_jar(rt)


def session_jars(name: str = DEFAULT) -> list[Path]:
    """Every jar a session on runtime `name` needs in `spark.jars`."""
    from icelint.spark.runtime_jar import bundles_relocated_jackson

    jars = [runtime_jar(name)]
    if not bundles_relocated_jackson(jars[0]):  # 1.0.3's 1.10.2 jar lacks them; 1.0.2's and 1.0.1's bundle them
        from .jackson import relocated_jackson_jar

        jars.append(relocated_jackson_jar())
    return jars
