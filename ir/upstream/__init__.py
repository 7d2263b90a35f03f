"""Upstream MLIR GPU programs in gpuir's dialects: `import_upstream(module)` turns a module read
with `upstream_context()` into a gpuir program that every provider runs (`is_upstream(text)`
says whether a text is one; `read_upstream` and `read_upstream_program` read and import a text).

The package: `gpu_ops` and `memref_ops` declare the upstream ops it reads, with their custom syntax
(`amdgpu_ops` the one `amdgpu` op it reads, `sched_barrier`, and its import); the importer is
`common` (what host code and kernels share), `kernel` (kernels and their ops), `host` (@main, its
memory and its launches), `strided` (strided metadata and reinterpret_casts), `parallel`
(`scf.parallel`, with its syntax), `device_llvm` (a program of gpu.modules of llvm ops alone: a
device module) and `importer` (the program's top level: its gpu.modules, host functions and
memref.globals; the readers). This file holds only `is_upstream`, so that a tool asks
it without importing the importer (nor numpy); the importer's names are imported from here when
first asked for.

What it makes:
- **Host functions** other than `@main` are inlined where they are called (one block each, no
  recursion).
- **`@main`** (upstream: `func.func @main()`, no arguments or results) becomes
  `@main(%m: !mem.M<0>) -> !mem.M<0>`: it opens the device (`gpu.init`) first and closes it
  (`gpu.deinit`) last, and threads the memory tokens through every op, `scf` region included.
- **memrefs** become pointers to nested arrays whose outer extent is `?` (`memref<4x8xf32>`:
  `!mem.ptr<!mem.array<? x !mem.array<8 x f32>>, a>`), so that a cast between static and
  dynamic shapes is the same pointer; the importer keeps each memref's extents for
  `memref.dim`. Host memrefs are in space 0, `gpu.alloc`'s in space 1. Only the outermost
  dimension may be dynamic. A `memref.subview` makes no op: its loads and stores index the
  source's memory through the view's offsets and strides (`View`), within the function; a
  `memref.reinterpret_cast` (of an `extract_strided_metadata`'s base buffer: the whole memory)
  reads it at row-major positions (`Linear`).
- **Kernels**: each `gpu.func … kernel` of a `gpu.module`, and each `gpu.launch` body (outlined;
  the values it uses from outside become its arguments), becomes a kernel
  `(M1, M3, M4, M5, group, item, gx, gy, gz, bx, by, bz, args…)`, a memref argument as its
  pointer and its outer extent. A launch of `gx·gy·gz` blocks of `bx·by·bz` threads is a
  gpuir launch of that many work-groups and work-items; the 3-D ids come from the 1-D ones
  (`thread_id x = item mod bx`, `y = item / bx mod by`, `z = item / (bx·by)`, and so for
  blocks), `block_dim` and `grid_dim` from the arguments. `gpu.barrier` is
  `gpu.sync_work_items`.
- **Host memory a kernel uses** (`gpu.host_register`): a device copy, made at the register;
  every launch copies the host memory there before it runs, and back after it.
- `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy` (host to device and back) run as blocking ops; an
  async token is a stream: `gpu.wait async` makes one, an async launch runs on its first
  dependency's, `gpu.wait` ends them (docs/ir-extensions.md); `printMemrefF32`, `I32`, `I64` and `F64`
  are `mem.print_memref`; `printNewline`, `printComma`, `printI64` print what mlir-runner's do.
- `cf` blocks of a kernel or of `@main` take the memory tokens after their arguments, and every
  branch passes them; `scf.for` and `scf.if` carry them as iteration values and results.
- `scf.parallel` (a loop MLIR did not map to the GPU, on the host or in a kernel) is a nest of
  `scf.for` that carries its reductions' accumulators.

Anything else is an error at the op that says it is not supported (yet).
"""

from __future__ import annotations

import importlib
import re
from typing import Any

__all__ = [
    "UpstreamImportError",
    "import_upstream",
    "is_upstream",
    "read_upstream",
    "read_upstream_program",
    "upstream_context",
]

UPSTREAM_MARKERS = re.compile(
    r"\bgpu\.(module|launch_func|func|host_register|launch\s+(async|blocks|clusters))\b|\bmemref\.\w+"
)
GPUIR_MARKERS = re.compile(r"!mem\.|\bgpu\.(init|launch\s+@|sync_work_items)\b")


COMMENT = re.compile(r"//[^\n]*")


def is_upstream(text: str) -> bool:
    """Whether `text` is written in upstream MLIR's GPU dialects rather than gpuir's: it uses
    `gpu.module`, `gpu.func`, `gpu.launch_func`, an upstream `gpu.launch` or `memref`, and none
    of gpuir's types or `gpu` ops (comments aside)."""
    code = COMMENT.sub("", text)
    return bool(UPSTREAM_MARKERS.search(code)) and not GPUIR_MARKERS.search(code)


PASSES = {
    "convert-vector-to-gpu": "gpuir.ir.upstream.vector_to_gpu:convert_vector_to_gpu",
    "rocdl-attach-target": "gpuir.ir.upstream.amdgpu_ops:rocdl_attach_target",
}
"""The upstream MLIR passes gpuir runs on an upstream program itself, before importing it (the
`--upstream-pass` of gpu-run and gpu-opt; an MLIR RUN line's `mlir-opt -convert-vector-to-gpu`):
name → `module:function`, a function that rewrites the upstream module in place."""


def upstream_pass(name: str) -> Any:
    """The function of the upstream pass `name` (`PASSES`), imported."""
    module, function = PASSES[name].split(":")
    return getattr(importlib.import_module(module), function)


def __getattr__(name: str) -> Any:
    """The importer's names (`__all__`), imported when first asked for."""
    if name in __all__:
        from gpuir.ir.upstream import importer

        return getattr(importer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
