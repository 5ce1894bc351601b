"""Build the relocated Jackson jar that the Iceberg Spark runtime jar expects.

The ``iceberg-spark-runtime-3.5_2.12-1.10.2.jar`` shipped by the
``snowpark-connect-deps-iceberg`` wheel lacks Iceberg's relocated Jackson classes
(``org.apache.iceberg.shaded.com.fasterxml.jackson.*``).  We rebuild them in pure
Python from the Jackson jars pyspark itself ships: merge jackson-core,
jackson-databind and jackson-annotations (without ``META-INF/``), move every entry
under ``com/fasterxml/jackson/`` to ``org/apache/iceberg/shaded/com/fasterxml/jackson/``
and rewrite the Utf8 entries of each class file's constant pool accordingly.
"""

from __future__ import annotations

import os
import re
import struct
import tempfile
import zipfile
from pathlib import Path

OLD_SLASH = b"com/fasterxml/jackson"
NEW_SLASH = b"org/apache/iceberg/shaded/com/fasterxml/jackson"
OLD_DOT = b"com.fasterxml.jackson"
NEW_DOT = b"org.apache.iceberg.shaded.com.fasterxml.jackson"

# Names already under the shaded prefix must not be relocated a second time.
_SLASH_RE = re.compile(rb"(?<!org/apache/iceberg/shaded/)" + re.escape(OLD_SLASH))
_DOT_RE = re.compile(rb"(?<!org\.apache\.iceberg\.shaded\.)" + re.escape(OLD_DOT))

_MODULES = ("jackson-core", "jackson-databind", "jackson-annotations")
_FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # deterministic zip entries

_CLASS_MAGIC = b"\xca\xfe\xba\xbe"
# Constant pool tag -> payload size in bytes (tag 1, Utf8, is variable-length).
_FIXED_SIZES = {
    3: 4, 4: 4,  # Integer, Float
    5: 8, 6: 8,  # Long, Double (take two slots)
    7: 2, 8: 2, 16: 2, 19: 2, 20: 2,  # Class, String, MethodType, Module, Package
    9: 4, 10: 4, 11: 4, 12: 4, 17: 4, 18: 4,  # refs, NameAndType, (Invoke)Dynamic
    15: 3,  # MethodHandle
}


def cache_dir() -> Path:
    """Directory holding the built jar (env ``ICELINT_ORACLE_CACHE`` overrides)."""
    env = os.environ.get("ICELINT_ORACLE_CACHE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "icelint" / "spark-oracle"


def relocate_bytes(data: bytes) -> bytes:
    """Relocate Jackson package names inside one byte string (a Utf8 constant)."""
    if OLD_SLASH not in data and OLD_DOT not in data:
        return data
    data = _SLASH_RE.sub(NEW_SLASH, data)
    return _DOT_RE.sub(NEW_DOT, data)


def relocate_class(data: bytes) -> bytes:
    """Return ``data`` (a .class file) with every Utf8 constant relocated.

    Only the constant pool is parsed; the rest of the class file refers to it by
    index and is copied unchanged.
    """
    if data[:4] != _CLASS_MAGIC:
        raise ValueError("not a class file")
    (count,) = struct.unpack_from(">H", data, 8)
    out = bytearray(data[:10])
    pos = 10
    index = 1
    while index < count:
        tag = data[pos]
        if tag == 1:
            (length,) = struct.unpack_from(">H", data, pos + 1)
            text = relocate_bytes(data[pos + 3 : pos + 3 + length])
            if len(text) > 0xFFFF:
                raise ValueError("relocated constant longer than 65535 bytes")
            out += b"\x01" + struct.pack(">H", len(text)) + text
            pos += 3 + length
            index += 1
            continue
        size = _FIXED_SIZES.get(tag)
        if size is None:
            raise ValueError(f"unknown constant pool tag {tag} at offset {pos}")
        out += data[pos : pos + 1 + size]
        pos += 1 + size
        index += 2 if tag in (5, 6) else 1
    out += data[pos:]
    return bytes(out)


def relocate_name(name: str) -> str:
    """Relocate a jar entry name."""
    return relocate_bytes(name.encode("utf-8")).decode("utf-8")


def source_jars() -> list[Path]:
    """pyspark's own jackson-core / -databind / -annotations jars."""
    import pyspark  # imported lazily: the oracle is optional

    jars_dir = Path(pyspark.__file__).resolve().parent / "jars"
    found: list[Path] = []
    for module in _MODULES:
        # jackson-core-2.15.2.jar, but not jackson-core-asl-1.9.13.jar
        pattern = re.compile(re.escape(module) + r"-(\d+(?:\.\d+)*)\.jar")
        matches = sorted(p for p in jars_dir.glob(module + "-*.jar") if pattern.fullmatch(p.name))
        if not matches:
            raise FileNotFoundError(f"no {module}-<version>.jar in {jars_dir}")
        found.append(matches[-1])
    return found


def build_relocated_jar(target: Path, sources: list[Path] | None = None) -> Path:
    """Write the merged, relocated jar to ``target`` (atomically)."""
    sources = source_jars() if sources is None else sources
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".jackson-", suffix=".jar", dir=target.parent)
    os.close(fd)
    seen: set[str] = set()
    try:
        with zipfile.ZipFile(tmp_name, "w", zipfile.ZIP_DEFLATED) as out:
            manifest = zipfile.ZipInfo("META-INF/MANIFEST.MF", _FIXED_DATE)
            out.writestr(manifest, "Manifest-Version: 1.0\r\nCreated-By: icelint tests/oracle/jackson.py\r\n\r\n")
            for src in sources:
                with zipfile.ZipFile(src) as jar:
                    for info in jar.infolist():
                        name = info.filename
                        if name.startswith("META-INF/") or info.is_dir():
                            continue
                        new_name = relocate_name(name)
                        if new_name in seen:
                            continue
                        seen.add(new_name)
                        data = jar.read(info)
                        if name.endswith(".class"):
                            data = relocate_class(data)
                        entry = zipfile.ZipInfo(new_name, _FIXED_DATE)
                        entry.compress_type = zipfile.ZIP_DEFLATED
                        out.writestr(entry, data)
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return target


def relocated_jackson_jar() -> Path:
    """Path of the relocated Jackson jar, built into the cache dir when missing."""
    sources = source_jars()
    version = sources[0].stem.rsplit("-", 1)[-1]  # jackson-core's version
    target = cache_dir() / f"iceberg-relocated-jackson-{version}.jar"
    if not target.is_file():
        build_relocated_jar(target, sources)
    return target
