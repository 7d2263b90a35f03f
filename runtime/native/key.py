"""Where a program's native executable is kept, and under which key; light on purpose (the
standard library only), because gpu-run's warm path reads it before it imports anything else.

The key is a SHA-256 of: the program's bytes; the options that decide its code (the provider,
the index bitwidth); gpuir's source, as the size and modification time of each of its files
(a stat per file, not a read: an edit changes the key); the folders of `sys.path` (installing or
removing a plugin changes them) and the Python that runs gpu-run (its real path: a venv's
`python` and `python3` are one); and this CPU's model and
features (`/proc/cpuinfo`). The entry is `native-<key>` (the executable) and
`native-<key>.json` (its SHA-256, checked before each run) in the compile cache's folder
(`gpuir.runtime.disk_cache`, whose `$GPUIR_CACHE_DIR` and `$GPUIR_CACHE` it follows).
"""

from __future__ import annotations

import hashlib
import os
import sys

FORMAT = "gpuir-native-1"
"""Part of every key: a new layout of the entry, or of the runtime's ABI, gets a new one."""
PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE_SUFFIXES = (".py", ".c", ".h")
SOURCE_FOLDERS = ("dialects", "ir", "passes", "lowering", "runtime", "tools")
OFF = ("0", "off", "no", "false")


def enabled() -> bool:
    """Native executables follow the compile cache: `GPUIR_CACHE=0` turns both off, and so does
    `GPUIR_NATIVE=0` alone."""
    for name in ("GPUIR_CACHE", "GPUIR_NATIVE"):
        if os.environ.get(name, "1").strip().lower() in OFF:
            return False
    return True


def cache_dir() -> str:
    found = os.environ.get("GPUIR_CACHE_DIR")
    if found:
        return found
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gpuir")


def _source_stamp(digest: hashlib._Hash) -> None:  # type: ignore[name-defined]
    folders = [PACKAGE] + [os.path.join(PACKAGE, f) for f in SOURCE_FOLDERS]
    for folder in folders:
        recursive = folder != PACKAGE
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and recursive)
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    path = os.path.join(root, name)
                    stat = os.stat(path)
                    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
            if not recursive:
                break


def _cpu() -> bytes:
    try:
        with open("/proc/cpuinfo", "rb") as f:
            text = f.read(65536)
    except OSError:
        return b""
    lines = [line for line in text.split(b"\n") if line.startswith((b"model name", b"flags"))]
    return b"\n".join(lines[:2])


def key(program: bytes, options: dict[str, str]) -> str:
    """The key of `program` (its bytes) compiled and run with `options`."""
    digest = hashlib.sha256(FORMAT.encode())
    digest.update(len(program).to_bytes(8, "little"))
    digest.update(program)
    for name in sorted(options):
        digest.update(f"{name}={options[name]}\n".encode())
    digest.update(f"{os.path.realpath(sys.executable)}\n{sys.version}\n".encode())
    # Not sys.path[0], the folder of the script that started this Python: the console script's
    # (`.venv/bin`) in a plain call, the working folder of a tool server's start in a served
    # one, which must find the same executables.
    for folder in sys.path[1:]:
        try:
            digest.update(f"{folder}\0{os.stat(folder).st_mtime_ns}\n".encode())
        except OSError:
            continue
    _source_stamp(digest)
    digest.update(_cpu())
    return digest.hexdigest()


def paths(key_: str) -> tuple[str, str]:
    """The executable and its record."""
    base = os.path.join(cache_dir(), f"native-{key_}")
    return base, base + ".json"
