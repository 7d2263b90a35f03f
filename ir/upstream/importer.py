"""The importer of upstream MLIR GPU programs (the package's docstring says what it makes):
`Importer` (a program's top level), `import_upstream`, `upstream_context`, and the readers
`read_upstream` and `read_upstream_program`."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, math, ub
from xdsl.ir import Dialect
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span

from gpuir.dialects.gpu import KERNEL_ATTR
from gpuir.ir.diagnostics import OpError
from gpuir.ir.source import (
    ParsedChunk,
    SourceError,
    format_diagnostic,
    format_parse_error,
    parse_module,
)
from gpuir.ir.upstream import (
    amdgpu_ops,
    async_ops,
    gpu_ops,
    memref_ops,
    parallel,
    upstream_pass,
    vector_ops,
)
from gpuir.ir.upstream.common import unsupported
from gpuir.ir.upstream.device_llvm import llvm_device_module
from gpuir.ir.upstream.host import HostImporter, captured_values
from gpuir.ir.upstream.strided import LaunchMade, made_at_launch

AFFINE_NOTE = (
    "the import reads no affine ops or maps: lower them first (mlir-opt --lower-affine, "
    "as MLIR's gpu-lower-to-nvvm-pipeline does)"
)


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
                        if made_at_launch(inner):
                            path = (op.sym_name.data, inner.sym_name.data)
                            self.by_launch[path] = LaunchMade(inner, self.device_functions)
                            continue
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
            self.launched_kernels()
            return self.out
        self.main(main)
        return self.out

    def launched_kernels(self) -> None:
        """A program without @main is a library of kernels (what gpu-opt compiles; gpu-run
        wants @main): its gpu.modules' kernels, and each gpu.launch of its host functions
        outlined as one, each marked `gpu.kernel` (no launch names it); an error where it has
        neither."""
        for made in self.by_launch.values():
            raise unsupported(
                made.kernel,
                "is made at each of its launches (for the layout of the memory each gives it), "
                "and a program without @main has none",
            )
        names = set(self.kernel_names.values())
        for function in self.host_functions.values():
            for op in function.walk():
                if isinstance(op, gpu_ops.LaunchOp):
                    self.single_clusters(op, op.rest[6 + op.smem.data :])
                    name = self.fresh("launch_kernel")
                    self.kernel(op.body, captured_values(op), name, op, region_ids=True)
                    names.add(name)
        if not names:
            raise OpError(self.source, "importing upstream MLIR: the program has no @main")
        for op in self.out.body.block.ops:
            if isinstance(op, func.FuncOp) and op.sym_name.data in names:
                op.attributes[KERNEL_ATTR] = builtin.UnitAttr()


def import_upstream(module: builtin.ModuleOp) -> builtin.ModuleOp:
    """A gpuir program from an upstream MLIR GPU program (module docstring); an `OpError` at
    the first op it cannot import. A program of gpu.modules of llvm ops alone is device code
    already: its device module (`device_llvm`)."""
    device = llvm_device_module(module)
    if device is not None:
        return device
    return Importer(module).run()


def upstream_context() -> Context:
    """A context that reads upstream MLIR GPU programs (`gpu_ops`' docstring)."""
    ctx = Context()
    for dialect in (
        builtin.Builtin,
        func.Func,
        arith.Arith,
        math.Math,
        parallel.UpstreamScf,
        cf.Cf,
        memref_ops.UpstreamMemref,
        gpu_ops.UpstreamGpu,
        vector_ops.UpstreamVector,
        ub.UB,
        async_ops.UpstreamAsync,
        amdgpu_ops.UpstreamAmdgpu,
    ):
        ctx.load_dialect(dialect)
    ctx.register_dialect("llvm", llvm_dialect)  # imported when an op names it (device_llvm)
    ctx.register_dialect("nvvm", nvvm_dialect)
    return ctx


def llvm_dialect() -> Dialect:
    from xdsl.dialects.llvm import LLVM

    return LLVM


def nvvm_dialect() -> Dialect:
    from gpuir.dialects.nvvm import Nvvm

    return Nvvm


class UpstreamImportError(SourceError):
    """An upstream program that cannot be imported: the diagnostic, at its op, as text."""


def read_upstream(
    text: str, name: str, line_offset: int = 0, passes: Sequence[str] = (), imported: bool = True
) -> ParsedChunk:
    """An upstream program's text, read, rewritten by the upstream `passes` (`PASSES`) and
    imported (`imported`: else the upstream program), as a parsed chunk whose ops have the
    locations of the upstream ops they come from. A `ParseError` as the parser raises it; an
    `UpstreamImportError` where a pass refuses an op or an op cannot be imported."""
    from gpuir.ir.locating_parser import LocatingParser

    parser = LocatingParser(upstream_context(), text, name)
    with warnings.catch_warnings():  # xDSL's: an operand parsed before its type is known
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            source = parse_module(parser)  # an op's format checks a type as it reads it
        except NotImplementedError as e:  # xDSL's affine maps: no semi-affine expressions
            at = Span(parser.pos, parser.pos, parser.lexer.input)
            raise ParseError(at, f"{e}; {AFFINE_NOTE}") from e
        except ParseError as e:
            if e.msg.startswith("Operation affine.") and "not registered" in e.msg:
                raise ParseError(e.span, f"{e.msg}: {AFFINE_NOTE}") from e
            raise
    parsed = ParsedChunk(source, name, text, line_offset, parser.op_starts)
    parsed.set_locations()
    try:
        for pass_name in passes:
            upstream_pass(pass_name)(source)
        if not imported:
            return parsed
        module = import_upstream(source)
    except OpError as e:
        raise UpstreamImportError(format_diagnostic(e, parsed)) from e
    return ParsedChunk(module, name, text, line_offset, {})


def read_upstream_program(text: str, name: str, passes: Sequence[str] = ()) -> ParsedChunk:
    """`read_upstream`, with a parse error too as an `UpstreamImportError` (its diagnostic as
    text): what gpu-run and the API read a whole upstream program with."""
    try:
        return read_upstream(text, name, 0, passes)
    except ParseError as e:
        raise UpstreamImportError(format_parse_error(e, 0)) from e
