"""`convert-printf-to-llvm`: host `printf` to calls of the runtime's print functions.

`printf.print_format "x = {}, y = {}\\n", %x, %y` prints each piece in order: the literal text
with `gpuirPrintString(text, length)` (a constant string of its UTF-8 bytes), an integer
(any width up to 64, `index`; signed, `i1` as 0/1) with `gpuirPrintInt`, a float (`f16`, `f32`,
`f64`, widened exactly to `f64`) with `gpuirPrintFloat(value, bits)`, which prints the shortest
decimal that reads back to the same value of its type: what the host executor prints, byte for
byte (`gpuir.runtime.scalars.format_value`). `printf.print_int` is one `gpuirPrintInt`.

The format string is Python's (`{}` and `{N}` fields, `{{` and `}}` for braces), as the
interpreter reads it; a field with a conversion or a format spec, or a value of another type
(an integer wider than 64 bits), is an error at the op. A float whose `gpu.printf_specs` entry
is a C conversion (`f`, `e`, `g`: what the upstream importer writes for `printF32`) is
`gpuirPrintFloatSpec(value, conversion)`, C's printf of the value widened to `f64`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm, printf
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ModuleOp,
    f64,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from gpuir.dialects.gpu import PRINTF_SPECS_ATTR
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.host.gpu_host_to_llvm import call_runtime, declare_string
from gpuir.lowering.llvm.conversion import (
    constant,
    host_module,
    lowering_host,
    pieces,
    ptr_type,
    to_llvm,
)
from gpuir.passes.locations import rewrite_once


class Strings:
    """One constant global per distinct text of a module."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names: dict[str, str] = {}

    def address(self, b: PatternRewriter, text: str) -> tuple[SSAValue, int]:
        name = self.names.get(text)
        if name is None:
            name = f"__gpuir_str_{len(self.names)}"
            self.names[text] = name
            declare_string(self.module, name, text)
        return b.insert(llvm.AddressOfOp(name, ptr_type(0))).result, len(text.encode())


def print_value(b: PatternRewriter, op: Operation, value: SSAValue, spec: str = "") -> None:
    type_ = value.type
    lowered = to_llvm(b, value, op)
    if isinstance(type_, IndexType):
        call_runtime(b, op, "gpuirPrintInt", [lowered])
    elif isinstance(type_, IntegerType) and type_.width.data <= 64:
        if type_.width.data < 64:
            extend = llvm.ZExtOp if type_.width.data == 1 else llvm.SExtOp
            lowered = b.insert(extend(lowered, i64)).results[0]
        call_runtime(b, op, "gpuirPrintInt", [lowered])
    elif isinstance(type_, Float16Type | Float32Type | Float64Type):
        bits = {Float16Type: 16, Float32Type: 32, Float64Type: 64}[type(type_)]
        if bits < 64:
            lowered = b.insert(llvm.FPExtOp(lowered, f64)).results[0]
        if spec:  # C's conversion of the value widened to a double, as C's printf has it
            call_runtime(b, op, "gpuirPrintFloatSpec", [lowered, constant(b, ord(spec), i32)])
            return
        call_runtime(b, op, "gpuirPrintFloat", [lowered, constant(b, bits, i32)])
    else:
        raise OpError(op, f"'{op.name}' cannot print a value of type {type_} in compiled code")


@dataclass
class PrintFormatLowering(RewritePattern):
    strings: Strings

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: printf.PrintFormatOp, rewriter: PatternRewriter):
        for piece in pieces(op):
            if isinstance(piece, str):
                address, length = self.strings.address(rewriter, piece)
                call_runtime(
                    rewriter, op, "gpuirPrintString", [address, constant(rewriter, length)]
                )
            else:
                print_value(rewriter, op, op.format_vals[piece], specs(op, piece))
        rewriter.erase(op)


def specs(op: printf.PrintFormatOp, index: int) -> str:
    """The C conversion of value `index` of `op` (`gpu.printf_specs`), or `""`."""
    found = op.attributes.get(PRINTF_SPECS_ATTR)
    if not isinstance(found, ArrayAttr) or index >= len(found.data):
        return ""
    return found.data[index].data  # type: ignore[attr-defined]


class PrintIntLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: printf.PrintIntOp, rewriter: PatternRewriter):
        print_value(rewriter, op, op.operands[0])
        rewriter.erase(op)


@dataclass(frozen=True)
class ConvertPrintfToLlvmPass(ModulePass):
    """Host `printf` ops to the runtime's print calls (module docstring)."""

    name = "convert-printf-to-llvm"

    lowered = Statistic("num-printf-lowered", "Number of printf ops made runtime print calls")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with lowering_host(host_module(op, self.name)) as module:
            patterns = [PrintFormatLowering(Strings(module)), PrintIntLowering()]
            rewrite_once(module, patterns, self.lowered)
            for left in module.walk():
                if left.name.startswith("printf."):
                    raise OpError(left, f"'{left.name}' cannot be compiled for the host")
