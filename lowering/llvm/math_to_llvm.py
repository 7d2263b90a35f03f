"""`convert-math-to-llvm`: `math` ops of device code to LLVM intrinsics and libdevice calls.

Ops that NVPTX implements exactly become LLVM intrinsics (`llvm.call_intrinsic`): `absf`,
`absi`, `ceil`, `floor`, `trunc`, `round`, `roundeven`, `sqrt`, `fma`, `copysign`, `ctlz`,
`cttz`, `ctpop`. The transcendental ones (`exp`, `log`, `sin`, `tanh`, `powf`, `rsqrt`, …)
become calls of CUDA's libdevice (`@__nv_expf` for `f32`, `@__nv_exp` for `f64`), as in MLIR's
`convert-gpu-to-nvvm` and MimIR's backend; an `f16`/`bf16` operand is computed in `f32`. The
translation to LLVM IR links libdevice when the module calls it. `math.ipowi` is not lowered.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float64Type, ModuleOp, f32, i1
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.lowering.llvm.arith_to_llvm import type_suffix
from gpuir.lowering.llvm.conversion import (
    DeviceModulePass,
    all_to_llvm,
    constant,
    declare_function,
    from_llvm,
    parent_module,
)
from gpuir.passes.locations import rewrite_once

INTRINSICS: dict[type[Operation], str] = {
    math.AbsFOp: "llvm.fabs",
    math.CeilOp: "llvm.ceil",
    math.FloorOp: "llvm.floor",
    math.TruncOp: "llvm.trunc",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.SqrtOp: "llvm.sqrt",
    math.FmaOp: "llvm.fma",
    math.CopySignOp: "llvm.copysign",
    math.CtPopOp: "llvm.ctpop",
}
INTRINSICS_WITH_FLAG: dict[type[Operation], str] = {
    math.AbsIOp: "llvm.abs",  # flag: INT_MIN is poison
    math.CountLeadingZerosOp: "llvm.ctlz",  # flag: zero is poison
    math.CountTrailingZerosOp: "llvm.cttz",
}
LIBDEVICE: dict[type[Operation], str] = {
    math.AcosOp: "acos",
    math.AcoshOp: "acosh",
    math.AsinOp: "asin",
    math.AsinhOp: "asinh",
    math.AtanOp: "atan",
    math.Atan2Op: "atan2",
    math.AtanhOp: "atanh",
    math.CbrtOp: "cbrt",
    math.CosOp: "cos",
    math.CoshOp: "cosh",
    math.ErfOp: "erf",
    math.ExpOp: "exp",
    math.Exp2Op: "exp2",
    math.ExpM1Op: "expm1",
    math.LogOp: "log",
    math.Log10Op: "log10",
    math.Log1pOp: "log1p",
    math.Log2Op: "log2",
    math.PowFOp: "pow",
    math.RsqrtOp: "rsqrt",
    math.SinOp: "sin",
    math.SinhOp: "sinh",
    math.TanOp: "tan",
    math.TanhOp: "tanh",
    math.FPowIOp: "powi",
}


def emit_intrinsic(op: Operation, rewriter: PatternRewriter) -> SSAValue:
    args = all_to_llvm(rewriter, op.operands, op)
    result_type = args[0].type
    if type(op) in INTRINSICS_WITH_FLAG:
        name = INTRINSICS_WITH_FLAG[type(op)]
        args.append(constant(rewriter, 0, i1))
    else:
        name = INTRINSICS[type(op)]
    call = llvm.CallIntrinsicOp(f"{name}.{type_suffix(result_type)}", args, [result_type])
    return rewriter.insert(call).results[0]


def emit_libdevice(op: Operation, rewriter: PatternRewriter) -> SSAValue:
    """A call of `@__nv_<name>f` (f32) or `@__nv_<name>` (f64); f16/bf16 go through f32."""
    args = all_to_llvm(rewriter, op.operands, op)
    result_type = args[0].type
    narrow = isinstance(result_type, Float16Type | BFloat16Type)
    if narrow:
        args = [
            rewriter.insert(llvm.FPExtOp(a, f32)).result if a.type == result_type else a
            for a in args
        ]
    compute_type = args[0].type
    suffix = "" if isinstance(compute_type, Float64Type) else "f"
    name = f"__nv_{LIBDEVICE[type(op)]}{suffix}"
    declare_function(parent_module(op), name, [a.type for a in args], compute_type, op)
    call = rewriter.insert(llvm.CallOp(name, *args, return_type=compute_type))
    assert call.returned is not None
    if narrow:
        return rewriter.insert(llvm.FPTruncOp(call.returned, result_type)).result
    return call.returned


@dataclass(frozen=True)
class MathLowering(RewritePattern):
    intrinsics: Counter
    libdevice: Counter
    OP_TYPES = (*INTRINSICS, *INTRINSICS_WITH_FLAG, *LIBDEVICE)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        kind = type(op)
        if kind in INTRINSICS or kind in INTRINSICS_WITH_FLAG:
            result = emit_intrinsic(op, rewriter)
            self.intrinsics.add()
        elif kind in LIBDEVICE:
            result = emit_libdevice(op, rewriter)
            self.libdevice.add()
        else:
            return
        rewriter.replace(op, [], [from_llvm(rewriter, result, op.results[0].type)])


@dataclass(frozen=True)
class ConvertMathToLlvmPass(DeviceModulePass):
    """`math` ops to LLVM intrinsics and libdevice calls."""

    name = "convert-math-to-llvm"

    intrinsics = Statistic("num-intrinsic-calls", "Number of math ops lowered to LLVM intrinsics")
    libdevice = Statistic("num-libdevice-calls", "Number of math ops lowered to libdevice calls")

    def lower_module(self, module: ModuleOp) -> None:
        rewrite_once(module, [MathLowering(self.intrinsics, self.libdevice)])
