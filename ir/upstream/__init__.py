"""Upstream MLIR GPU programs in gpuir's dialects: `import_upstream(module)` turns a module read
with `upstream_context()` into a gpuir program that every provider runs (`is_upstream(text)`
says whether a text is one; `read_upstream` and `read_upstream_program` read and import a text).

The package: `gpu_ops` and `memref_ops` declare the upstream ops it reads, with their custom
syntax; the importer is `common` (what host code and kernels share), `kernel` (kernels and
their ops), `host` (@main, its memory and its launches) and `Importer` here (the program's
top level: its gpu.modules, host functions and memref.globals).

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
  source's memory through the view's offsets and strides (`View`), within the function.
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
- `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy` (host to device and back) run as blocking ops, so
  `async` tokens and `gpu.wait` order nothing more; `printMemrefF32`, `I32`, `I64` and `F64`
  are `mem.print_memref`; `printNewline`, `printComma`, `printI64` print what mlir-runner's do.
- `cf` blocks of a kernel or of `@main` take the memory tokens after their arguments, and every
  branch passes them; `scf.for` and `scf.if` carry them as iteration values and results.

Anything else is an error at the op that says it is not supported (yet).
"""

from __future__ import annotations

import re
import warnings

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, math, scf
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span

from gpuir.ir.diagnostics import OpError
from gpuir.ir.source import ParsedChunk, SourceError, format_diagnostic, format_parse_error
from gpuir.ir.upstream import gpu_ops, memref_ops
from gpuir.ir.upstream.common import unsupported
from gpuir.ir.upstream.host import HostImporter

__all__ = [
    "UpstreamImportError",
    "import_upstream",
    "is_upstream",
    "read_upstream",
    "read_upstream_program",
    "upstream_context",
]

UPSTREAM_MARKERS = re.compile(
    r"\bgpu\.(module|launch_func|func|host_register|launch\s+(async|blocks))\b|\bmemref\.\w+"
)
GPUIR_MARKERS = re.compile(r"!mem\.|\bgpu\.(init|launch\s+@|sync_work_items)\b")


COMMENT = re.compile(r"//[^\n]*")


def is_upstream(text: str) -> bool:
    """Whether `text` is written in upstream MLIR's GPU dialects rather than gpuir's: it uses
    `gpu.module`, `gpu.func`, `gpu.launch_func`, an upstream `gpu.launch` or `memref`, and none
    of gpuir's types or `gpu` ops (comments aside)."""
    code = COMMENT.sub("", text)
    return bool(UPSTREAM_MARKERS.search(code)) and not GPUIR_MARKERS.search(code)


class Importer(HostImporter):
    """The importer: a program's gpu.modules (their kernels), its host functions and @main."""

    def run(self) -> builtin.ModuleOp:
        main: func.FuncOp | None = None
        for op in self.source.body.block.ops:
            if isinstance(op, gpu_ops.ModuleOp):
                if len(op.body.blocks) != 1:
                    raise unsupported(op, "with several blocks")
                self.device_functions = {}
                for inner in op.body.block.ops:
                    if not (isinstance(inner, gpu_ops.FuncOp) and inner.kernel is not None):
                        if isinstance(inner, gpu_ops.FuncOp | func.FuncOp):
                            self.device_functions[inner.sym_name.data] = inner
                for inner in op.body.block.ops:
                    if isinstance(inner, gpu_ops.FuncOp) and inner.kernel is not None:
                        name = self.fresh(inner.sym_name.data)
                        self.kernel_names[(op.sym_name.data, inner.sym_name.data)] = name
                        self.kernel(inner.body, list(inner.body.blocks[0].args), name, inner)
            elif isinstance(op, func.FuncOp):
                if op.is_declaration:
                    continue
                if op.sym_name.data != "main":
                    self.host_functions[op.sym_name.data] = op  # inlined where it is called
                    continue
                main = op
            elif isinstance(op, memref_ops.GlobalOp):
                self.globals[op.sym_name.data] = op
            else:
                raise unsupported(op, "at the top level is not supported")
        if main is None:
            raise OpError(self.source, "importing upstream MLIR: the program has no @main")
        self.main(main)
        return self.out


def import_upstream(module: builtin.ModuleOp) -> builtin.ModuleOp:
    """A gpuir program from an upstream MLIR GPU program (module docstring); an `OpError` at
    the first op it cannot import."""
    return Importer(module).run()


def upstream_context() -> Context:
    """A context that reads upstream MLIR GPU programs (`gpu_ops`' docstring)."""
    ctx = Context()
    for dialect in (
        builtin.Builtin,
        func.Func,
        arith.Arith,
        math.Math,
        scf.Scf,
        cf.Cf,
        memref_ops.UpstreamMemref,
        gpu_ops.UpstreamGpu,
        memref_ops.UpstreamVector,
    ):
        ctx.load_dialect(dialect)
    return ctx


class UpstreamImportError(SourceError):
    """An upstream program that cannot be imported: the diagnostic, at its op, as text."""


def read_upstream(text: str, name: str, line_offset: int = 0) -> ParsedChunk:
    """An upstream program's text, read and imported, as a parsed chunk whose ops have the
    locations of the upstream ops they come from. A `ParseError` as the parser raises it; an
    `UpstreamImportError` where an op cannot be imported."""
    from gpuir.ir.locating_parser import LocatingParser

    parser = LocatingParser(upstream_context(), text, name)
    with warnings.catch_warnings():  # xDSL's: an operand parsed before its type is known
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            source = parser.parse_module()
        except VerifyException as e:  # an op's format checked a type as it read it
            raise ParseError(Span(parser.pos, parser.pos, parser.lexer.input), str(e)) from e
    parsed = ParsedChunk(source, name, text, line_offset, parser.op_starts)
    parsed.set_locations()
    try:
        module = import_upstream(source)
    except OpError as e:
        raise UpstreamImportError(format_diagnostic(e, parsed)) from e
    return ParsedChunk(module, name, text, line_offset, {})


def read_upstream_program(text: str, name: str) -> ParsedChunk:
    """`read_upstream`, with a parse error too as an `UpstreamImportError` (its diagnostic as
    text): what gpu-run and the API read a whole upstream program with."""
    try:
        return read_upstream(text, name)
    except ParseError as e:
        raise UpstreamImportError(format_parse_error(e, 0)) from e
