"""The persistent cache of machine code: compiled host and device modules on disk, so that a
program that ran once starts without LLVM's optimizer and code generator.

An entry is one file, `<kind>-<key>.bin`: a JSON header (what the loader needs besides the code:
kernel names, entry symbols, parameter types as text; the code's SHA-256) and the object code that LLVM emitted
for the module, which MCJIT loads as it is (`ExecutionEngine.add_object_file`). The key is a
SHA-256 of the kind, the module's text with its ops' locations (`module_text`: the code carries
them as a DWARF line table, `gpuir.lowering.llvm.line_info`) and options, and the versions that
decide the code:
gpuir's own source (every `.py` and `.h` file of the package), llvmlite's and LLVM's versions,
the target triple and the CPU's name and features. A change to any of them is a new key; old
entries are never read again (delete the folder to reclaim the space).

Where: `$GPUIR_CACHE_DIR` if set, else `$XDG_CACHE_HOME/gpuir`, else `~/.cache/gpuir`.
`GPUIR_CACHE=0` (or `off`, `no`, `false`) turns the cache off: nothing is read or written.

Concurrent runs are safe: an entry is written to a temporary file in the same folder and
renamed into place (`os.replace`, atomic on POSIX), so a reader sees a whole entry or none, and
two writers of one key write the same bytes. An entry that cannot be read or loaded (cut short,
another format) is a miss, and is overwritten; a folder that cannot be written leaves the run
uncached, silently.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import struct
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Operation

CACHE_DIR_ENV = "GPUIR_CACHE_DIR"
CACHE_ENV = "GPUIR_CACHE"
OFF = ("0", "off", "no", "false")
MAGIC = b"GPUIRC01"
"""The entry format's first bytes; a new format gets a new magic (and old entries miss)."""
HEADER = struct.Struct("<8sQ")  # magic, length of the JSON header
DIGEST = "sha256"
"""The header's field with the digest of the object code, checked before the code is loaded."""
SOURCE_LAYERS = ("dialects", "passes", "lowering", "runtime")
"""The folders of the package whose source is part of every key (with its top-level files)."""


def enabled() -> bool:
    return os.environ.get(CACHE_ENV, "1").strip().lower() not in OFF


def cache_dir() -> Path:
    """The cache's folder (module docstring); it may not exist yet."""
    found = os.environ.get(CACHE_DIR_ENV)
    if found:
        return Path(found)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gpuir"


@cache
def versions() -> str:
    """What, besides a module's text, decides its machine code: gpuir's source, llvmlite,
    LLVM, the target and the CPU."""
    from llvmlite import __version__ as llvmlite_version
    from llvmlite import binding

    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    sources = [*package.glob("*.py")]
    for layer in SOURCE_LAYERS:
        sources += [p for p in (package / layer).rglob("*") if p.suffix in (".py", ".h", ".c")]
    for path in sorted(sources):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    parts = [
        digest.hexdigest(),
        llvmlite_version,
        ".".join(map(str, binding.llvm_version_info)),
        binding.get_process_triple(),
        binding.get_host_cpu_name(),
        binding.get_host_cpu_features().flatten(),
    ]
    return "\n".join(parts)


def module_text(module: Operation) -> str:
    """The module's text with each op's location (`loc("prog.mlir":3:5)`): two modules that
    differ only there have different line tables, so different entries."""
    from xdsl.printer import Printer

    stream = io.StringIO()
    Printer(stream=stream, print_debuginfo=True).print_op(module)
    return stream.getvalue()


def key(kind: str, *parts: str) -> str:
    """The key of a module of `kind` (`"host"`, `"cpu"`) from its text and options."""
    digest = hashlib.sha256()
    for part in (kind, versions(), *parts):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part.encode())
    return digest.hexdigest()


def entry_path(kind: str, key_: str) -> Path:
    return cache_dir() / f"{kind}-{key_}.bin"


def load(kind: str, key_: str) -> tuple[dict[str, object], bytes] | None:
    """The header and object code stored under `key_`, or None (a miss, or the cache is off)."""
    if not enabled():
        return None
    try:
        data = entry_path(kind, key_).read_bytes()
        magic, length = HEADER.unpack_from(data)
        if magic != MAGIC or HEADER.size + length > len(data):
            return None
        header = json.loads(data[HEADER.size : HEADER.size + length])
    except (OSError, ValueError, struct.error):
        return None
    code = data[HEADER.size + length :]
    if not isinstance(header, dict) or header.get(DIGEST) != hashlib.sha256(code).hexdigest():
        return None  # cut short or not ours: never handed to the loader
    return header, code


def store(kind: str, key_: str, header: dict[str, object], code: bytes) -> None:
    """Keep `header` and `code` under `key_` (atomically); a cache that cannot be written is
    left alone."""
    if not enabled():
        return
    header = {**header, DIGEST: hashlib.sha256(code).hexdigest()}
    text = json.dumps(header, sort_keys=True).encode()
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, scratch = tempfile.mkstemp(dir=folder, prefix=f".{kind}-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(HEADER.pack(MAGIC, len(text)))
                out.write(text)
                out.write(code)
            os.replace(scratch, entry_path(kind, key_))
        except BaseException:
            os.unlink(scratch)
            raise
    except OSError:
        return


class ObjectCapture:
    """The object code MCJIT makes for a module: `engine.set_object_cache(capture.notify)`
    before `finalize_object()`, then `capture.code`."""

    def __init__(self) -> None:
        self.code: bytes | None = None

    def notify(self, module: object, buffer: bytes) -> None:
        self.code = bytes(buffer)


def engine_from_object(code: bytes) -> object:
    """An MCJIT engine with the object code `code` loaded and finalized."""
    from llvmlite import binding

    from gpuir.lowering.llvm.native import new_host_machine

    engine = binding.create_mcjit_compiler(binding.parse_assembly(""), new_host_machine())
    engine.add_object_file(binding.ObjectFileRef.from_data(code))
    engine.finalize_object()
    return engine
