"""The checker of `--provider cpu --check`: `check.c`, built with the system's C compiler on
first use and kept in the disk cache's folder (next to the cpu provider's machine code).

`checker()` gives the loaded library (None, with `unavailable()` saying why, where it cannot be
built): the functions an instrumented kernel calls (`__gpuir_check_slow`, off the inline path
of `__gpuir_check_access`, and `__gpuir_check_barrier`) and its state `gpuir_check_fast` are
made known to LLVM, and the provider calls `alloc` / `free` (the live allocations) and
`begin` / `end` (a launch) through ctypes.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).with_name("check.c")
SYMBOLS = (
    "__gpuir_check_slow",
    "__gpuir_check_barrier",
    "__gpuir_check_slot",
    "__gpuir_check_heap_alloc",
    "__gpuir_check_heap_free",
)


@dataclass
class Checker:
    library: ctypes.CDLL

    def alloc(self, address: int, nbytes: int) -> None:
        if self.library.gpuir_check_alloc(ctypes.c_uint64(address), ctypes.c_uint64(nbytes)):
            raise MemoryError("cpu --check: no memory for the allocation table")

    def free(self, address: int) -> None:
        self.library.gpuir_check_free(ctypes.c_uint64(address))

    def begin(self, n_items: int, abort: int) -> None:
        """A launch of `n_items` items per group; `abort(group, -1)` ends it at a suspect
        access (a jump back out of the kernel)."""
        if self.library.gpuir_check_begin(ctypes.c_int64(n_items), ctypes.c_void_p(abort)):
            raise MemoryError("cpu --check: no memory for the work-items' epochs")

    def shared(self, address: int, nbytes: int) -> None:
        """The launch's shared memory: each group's is new."""
        self.library.gpuir_check_shared(ctypes.c_uint64(address), ctypes.c_uint64(nbytes))

    def undo(self) -> None:
        """Put back what the launch's writes changed."""
        if self.library.gpuir_check_undo() != 0:
            raise MemoryError("cpu --check: no memory for the undo log of the launch")

    def end(self) -> bool:
        """Whether the launch had a suspect access."""
        return bool(self.library.gpuir_check_end())


_why: list[str] = []


def unavailable() -> str:
    return _why[0] if _why else ""


@cache
def checker() -> Checker | None:
    """The checker, built and loaded once per process; None when it cannot be."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        _why.append("cpu --check needs a C compiler (cc or gcc, or $CC) to build its checker")
        return None
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source + compiler.encode()).hexdigest()[:16]
    target = None
    for folder in (_folder(), Path(tempfile.mkdtemp(prefix="gpuir-check-"))):
        try:
            target = _built(compiler, folder / f"cpu-check-{digest}.so")
            break
        except OSError:  # a folder that cannot be written: the next one
            continue
    if target is None:
        return None
    try:
        library = ctypes.CDLL(str(target))
    except OSError as e:
        _why.append(f"cpu --check cannot load its checker ({target}): {e}")
        return None
    library.gpuir_check_end.restype = ctypes.c_int64
    library.gpuir_check_undo.restype = ctypes.c_int64
    from llvmlite import binding

    for name in SYMBOLS:
        binding.add_symbol(name, ctypes.cast(getattr(library, name), ctypes.c_void_p).value)
    fast = ctypes.c_uint64.in_dll(library, "gpuir_check_fast")
    binding.add_symbol("gpuir_check_fast", ctypes.addressof(fast))
    _shadow_the_arena(library)
    return Checker(library)


def _shadow_the_arena(library: ctypes.CDLL) -> None:
    """Give the checker the device arena's range: its words' owners become one array (address
    space only: a page of it is written at the first checked access there), which the inline
    fast path of checked kernels reads (`check_accesses.FAST_PATH`). Without an
    arena, or where the system refuses the array's address space, every access takes the
    checker's own path (the same checks, slower)."""
    from gpuir.runtime.cpu import arena

    found = arena.arena()
    if found is not None:
        library.gpuir_check_arena(ctypes.c_uint64(found.base), ctypes.c_uint64(found.size))


def _built(compiler: str, target: Path) -> Path | None:
    """`target`, the checker built by `compiler` (None, with the reason kept, when it cannot
    be); an `OSError` when the folder cannot be written."""
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        built = Path(scratch) / "cpu-check.so"
        command = [compiler, "-O3", "-shared", "-fPIC", "-o", str(built), str(SOURCE)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as e:
            _why.append(f"cpu --check cannot run the C compiler {compiler}: {e.strerror}")
            return None
        if done.returncode != 0:
            _why.append(f"cpu --check: {compiler} could not build its checker: {done.stderr}")
            return None
        os.replace(built, target)  # whole or absent: another process may build it too
    return target


def _folder() -> Path:
    """The disk cache's folder (`disk_cache`), or a temporary one where caching is off."""
    from gpuir.runtime import disk_cache

    if not disk_cache.enabled():
        return Path(tempfile.gettempdir()) / f"gpuir-{os.getuid()}"
    return disk_cache.cache_dir()
