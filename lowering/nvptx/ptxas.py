"""The compiler step after PTX: NVIDIA's `ptxas` assembles PTX into a cubin (tinygrad's
`compiler_cuda.py` split: text in, bytes out, an error that carries the tool's log).

- `find_ptxas()`: `ptxas` on `PATH`, else the one in the `nvidia-cuda-nvcc` wheel
  (`site-packages/nvidia/cu13/bin`); None when neither exists (no GPU is needed, only the tool).
- `assemble(ptx, sm)`: the cubin bytes; a failure raises `PtxasError` with ptxas's log and a
  command that repeats the failing run on a kept copy of the PTX.
- `resource_usage(ptx, sm)`: what `ptxas -v` reports per kernel (registers, spills, stack,
  shared memory, barriers), as `{kernel: {"registers": 10, "spill_stores": 0, …}}`.
- `disassemble(cubin)`: the cubin's SASS, its kernels' machine code, as NVIDIA's `nvdisasm -c`
  prints it (from PATH, else the `nvidia-cuda-nvdisasm` wheel); `NvdisasmNotFound` without it.

`run_ptxas` and `disassemble` take `echo`, a function that is given each command line before it
runs (gpu-opt's `-t sass{print-commands=true}` prints them).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable

from xdsl.utils.exceptions import DiagnosticException

WHEEL_DIRS = ("cu13", "cuda_nvcc", "cu12")
"""Where the pip CUDA wheels put their tools, under `site-packages/nvidia/<dir>/bin`."""


class PtxasError(DiagnosticException):
    """ptxas rejected the PTX: `log` is what it said, `command` repeats the run."""

    def __init__(self, log: str, command: str, returncode: int):
        super().__init__(
            f"ptxas failed (exit status {returncode}):\n{log.rstrip()}\nrepro: {command}"
        )
        self.log = log
        self.command = command
        self.returncode = returncode


class PtxasNotFound(DiagnosticException):
    pass


def wheel_bin_dirs() -> list[str]:
    """The `bin` folders of the installed nvidia CUDA wheels."""
    try:
        import nvidia  # the pip CUDA wheels' namespace package
    except ImportError:
        return []
    return [os.path.join(root, name, "bin") for root in nvidia.__path__ for name in WHEEL_DIRS]


def find_tool(name: str) -> str | None:
    """A CUDA tool (`ptxas`, `nvcc`, …): on `PATH`, else in the nvidia wheel."""
    found = shutil.which(name)
    if found is not None:
        return found
    for folder in wheel_bin_dirs():
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def find_ptxas() -> str | None:
    return find_tool("ptxas")


def arch(sm: int | str) -> str:
    """`sm_80` from 80 or "80" or "sm_80"."""
    text = str(sm)
    return text if text.startswith("sm_") else f"sm_{text}"


def run_ptxas(
    ptx: str, sm: int | str, extra: tuple[str, ...], echo: Callable[[str], None] | None = None
) -> tuple[bytes, str]:
    """Run ptxas on `ptx`; the cubin and the log. A failure keeps the PTX for the repro."""
    ptxas = find_ptxas()
    if ptxas is None:
        raise PtxasNotFound("ptxas not found: install nvidia-cuda-nvcc or put ptxas on PATH")
    folder = tempfile.mkdtemp(prefix="gpuir-ptxas-")
    source = os.path.join(folder, "kernel.ptx")
    target = os.path.join(folder, "kernel.cubin")
    with open(source, "w", encoding="utf-8") as f:
        f.write(ptx)
    command = [ptxas, "-arch", arch(sm), *extra, "-o", target, source]
    if echo is not None:
        echo(shlex.join(command))
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    log = done.stdout + done.stderr
    if done.returncode != 0:
        raise PtxasError(log, shlex.join(command), done.returncode)
    with open(target, "rb") as f:
        cubin = f.read()
    shutil.rmtree(folder, ignore_errors=True)
    return cubin, log


def assemble(ptx: str, sm: int | str = 80, options: tuple[str, ...] = ()) -> bytes:
    """The cubin of `ptx` for `sm`; `options` go to ptxas (e.g. `("-O3",)`)."""
    return run_ptxas(ptx, sm, options)[0]


ENTRY = re.compile(r"Compiling entry function '([^']+)'")
PROPERTIES = re.compile(r"Function properties for (\S+)")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")
BARRIERS = re.compile(r"used (\d+) barriers")
SHARED = re.compile(r"(\d+) bytes smem")


def parse_resource_usage(log: str) -> dict[str, dict[str, int]]:
    """The per-kernel figures of a `ptxas -v` log."""
    kernels: dict[str, dict[str, int]] = {}
    entry = properties = None
    for line in log.splitlines():
        if m := ENTRY.search(line):
            entry = m.group(1)
            kernels[entry] = {
                "registers": 0,
                "spill_stores": 0,
                "spill_loads": 0,
                "stack": 0,
                "shared": 0,
                "barriers": 0,
            }
        if m := PROPERTIES.search(line):
            properties = m.group(1)
        if (m := FRAME.search(line)) and properties in kernels:
            figures = kernels[properties]
            figures["stack"], figures["spill_stores"], figures["spill_loads"] = (
                int(g) for g in m.groups()
            )
        if (m := USED.search(line)) and entry is not None:
            kernels[entry]["registers"] = int(m.group(1))
            if b := BARRIERS.search(line):
                kernels[entry]["barriers"] = int(b.group(1))
            if s := SHARED.search(line):
                kernels[entry]["shared"] = int(s.group(1))
    return kernels


def resource_usage(ptx: str, sm: int | str = 80) -> dict[str, dict[str, int]]:
    """`ptxas -v`'s figures per kernel: registers, spill_stores, spill_loads (bytes), stack
    (bytes), shared (static shared memory, bytes), barriers."""
    return parse_resource_usage(run_ptxas(ptx, sm, ("-v",))[1])


class NvdisasmNotFound(DiagnosticException):
    pass


class NvdisasmError(DiagnosticException):
    """nvdisasm rejected the cubin: what it said."""


def disassemble(cubin: bytes, echo: Callable[[str], None] | None = None) -> str:
    """The SASS of `cubin`: its code sections as `nvdisasm -c` prints them."""
    nvdisasm = find_tool("nvdisasm")
    if nvdisasm is None:
        raise NvdisasmNotFound(
            "nvdisasm not found: install nvidia-cuda-nvdisasm or put nvdisasm on PATH"
        )
    with tempfile.TemporaryDirectory(prefix="gpuir-nvdisasm-") as folder:
        path = os.path.join(folder, "kernel.cubin")
        with open(path, "wb") as f:
            f.write(cubin)
        command = [nvdisasm, "-c", path]
        if echo is not None:
            echo(shlex.join(command))
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NvdisasmError(
            f"nvdisasm failed (exit status {done.returncode}):\n{done.stderr.rstrip()}"
        )
    return done.stdout
