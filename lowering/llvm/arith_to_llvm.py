"""`convert-arith-to-llvm`: `arith` ops of device code to the llvm dialect (`index` is `i64`, or
`i32` in a module with `gpu.index_bitwidth = 32`: `gpuir.lowering.llvm.conversion`).

Binary ops, comparisons, `select`, constants and casts map one to one (keeping `nsw`/`nuw` and
fast-math flags); `index_cast` is a `sext`/`trunc` (or nothing) between the index type and
`iN`; an `index` constant must fit the index type (as a signed or an unsigned number);
`fptosi`, `fptoui`, `uitofp` are gpuir's llvm extension ops (`gpuir.lowering.llvm.llvm_ext`);
`max*`/`min*` are calls of LLVM's `smax`/`umax`/`maximum`/`maxnum`/… intrinsics; `ceildivsi`,
`ceildivui` and `floordivsi` expand into plain integer arithmetic, as MLIR's `arith-expand`
does. Vector operands and the `*_extended` ops are not lowered (the final legality check of
`device-to-llvm` names them).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.conversion import (
    DeviceModulePass,
    all_to_llvm,
    constant,
    from_llvm,
    index_type,
    llvm_type,
)
from gpuir.lowering.llvm.llvm_ext import FPToSIOp, FPToUIOp, UIToFPOp
from gpuir.passes.locations import rewrite_once

INT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}
WITH_OVERFLOW_FLAGS = (llvm.AddOp, llvm.SubOp, llvm.MulOp, llvm.ShlOp)

FLOAT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
}

MIN_MAX: dict[type[Operation], str] = {
    arith.MaxSIOp: "llvm.smax",
    arith.MaxUIOp: "llvm.umax",
    arith.MinSIOp: "llvm.smin",
    arith.MinUIOp: "llvm.umin",
    arith.MaximumfOp: "llvm.maximum",
    arith.MinimumfOp: "llvm.minimum",
    arith.MaxnumfOp: "llvm.maxnum",
    arith.MinnumfOp: "llvm.minnum",
}

CASTS: dict[type[Operation], type[Operation]] = {
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.ExtFOp: llvm.FPExtOp,
    arith.TruncFOp: llvm.FPTruncOp,
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: UIToFPOp,
    arith.FPToSIOp: FPToSIOp,
    arith.FPToUIOp: FPToUIOp,
    arith.BitcastOp: llvm.BitcastOp,
}


def type_suffix(t: Attribute) -> str:
    """The suffix that overloaded LLVM intrinsics take for `t`: `i32`, `f32`, …"""
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    return {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64"}[str(t)]


def overflow_flags(op: Operation) -> int:
    flags = getattr(op, "overflow_flags", None)
    if flags is None:
        return 0
    names = {str(flag) for flag in flags.data}
    return (1 if "nsw" in names else 0) | (2 if "nuw" in names else 0)


def fastmath(op: Operation) -> llvm.FastMathAttr:
    flags = getattr(op, "fastmath", None)
    return llvm.FastMathAttr(flags.data if flags is not None else None)


def lowered_type(op: Operation, t: Attribute) -> Attribute:
    converted = llvm_type(t, index_type(op))
    if converted is None:
        raise OpError(op, f"'{op.name}' on {t} is not lowered (only scalars are)")
    return converted


def emit_binary(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    lhs, rhs = all_to_llvm(rewriter, op.operands, op)
    if type(op) in INT_BINARY:
        kind = INT_BINARY[type(op)]
        if kind in WITH_OVERFLOW_FLAGS:
            new = kind(lhs, rhs, overflow=IntegerAttr(overflow_flags(op), 32))
        else:
            new = kind(lhs, rhs)
    else:
        new = FLOAT_BINARY[type(op)](lhs, rhs, fastmath(op))
    return list(rewriter.insert(new).results)


def emit_min_max(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    lhs, rhs = all_to_llvm(rewriter, op.operands, op)
    name = f"{MIN_MAX[type(op)]}.{type_suffix(lhs.type)}"
    return list(rewriter.insert(llvm.CallIntrinsicOp(name, [lhs, rhs], [lhs.type])).results)


def emit_cast(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    (arg,) = all_to_llvm(rewriter, op.operands, op)
    target = lowered_type(op, op.results[0].type)
    if isinstance(op, arith.IndexCastOp):
        return [index_cast(rewriter, arg, target)]
    return list(rewriter.insert(CASTS[type(op)](arg, target)).results)


def index_cast(rewriter: PatternRewriter, arg: SSAValue, target: Attribute) -> SSAValue:
    """`arith.index_cast` between the index type and `iN`: sign-extend or truncate."""
    assert isinstance(arg.type, IntegerType) and isinstance(target, IntegerType)
    width, target_width = arg.type.width.data, target.width.data
    if width == target_width:
        return arg
    if width > target_width:
        return rewriter.insert(llvm.TruncOp(arg, target)).results[0]
    return rewriter.insert(llvm.SExtOp(arg, target)).results[0]


def emit_constant(op: arith.ConstantOp, rewriter: PatternRewriter) -> list[SSAValue]:
    value = op.value
    target = lowered_type(op, op.result.type)
    if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
        assert isinstance(target, IntegerType)
        value = IntegerAttr(index_constant(op, value.value.data, target), target)
    if not isinstance(value, IntegerAttr | FloatAttr):
        raise OpError(op, f"'{op.name}' of {value} is not lowered (only scalars are)")
    return [rewriter.insert(llvm.ConstantOp(value, target)).result]


def index_constant(op: Operation, value: int, index: IntegerType) -> int:
    """`value` as a signed `index` constant of `index`'s width; one that does not fit (as a
    signed or an unsigned number) is an error at `op`."""
    width = index.width.data
    if not -(2 ** (width - 1)) <= value < 2**width:
        raise OpError(
            op,
            f"'{op.name}': the index constant {value} does not fit in {width} bits "
            f"(index-bitwidth={width})",
        )
    return value - 2**width if value >= 2 ** (width - 1) else value


def emit_cmpi(op: arith.CmpiOp, rewriter: PatternRewriter) -> list[SSAValue]:
    lhs, rhs = all_to_llvm(rewriter, op.operands, op)
    predicate = IntegerAttr(op.predicate.value.data, i64)
    return [rewriter.insert(llvm.ICmpOp(lhs, rhs, predicate)).res]


def emit_cmpf(op: arith.CmpfOp, rewriter: PatternRewriter) -> list[SSAValue]:
    lhs, rhs = all_to_llvm(rewriter, op.operands, op)
    compare = llvm.FCmpOp(lhs, rhs, IntegerAttr(op.predicate.value.data, i64))
    compare.properties["fastmathFlags"] = fastmath(op)
    return [rewriter.insert(compare).res]


def emit_select(op: arith.SelectOp, rewriter: PatternRewriter) -> list[SSAValue]:
    cond, lhs, rhs = all_to_llvm(rewriter, op.operands, op)
    return [rewriter.insert(llvm.SelectOp(cond, lhs, rhs)).res]


def emit_negf(op: arith.NegfOp, rewriter: PatternRewriter) -> list[SSAValue]:
    (arg,) = all_to_llvm(rewriter, op.operands, op)
    return [rewriter.insert(llvm.FNegOp(arg, fastmath(op))).res]


def emit_div_expansion(op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
    """`ceildivui`, `ceildivsi`, `floordivsi` in terms of `udiv`/`sdiv` (MLIR's `arith-expand`)."""
    a, b = all_to_llvm(rewriter, op.operands, op)
    t = a.type

    def c(v: int) -> SSAValue:
        return constant(rewriter, v, t)

    def ins(new: Operation) -> SSAValue:
        return rewriter.insert(new).results[0]

    def cmp(pred: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return ins(llvm.ICmpOp(x, y, IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), i64)))

    if isinstance(op, arith.CeilDivUIOp):  # a == 0 ? 0 : (a - 1) / b + 1
        quotient = ins(llvm.UDivOp(ins(llvm.SubOp(a, c(1))), b))
        return [ins(llvm.SelectOp(cmp("eq", a, c(0)), c(0), ins(llvm.AddOp(quotient, c(1)))))]
    quotient = ins(llvm.SDivOp(a, b))
    remainder = ins(llvm.SubOp(a, ins(llvm.MulOp(quotient, b))))
    inexact = cmp("ne", remainder, c(0))
    signs_differ = cmp("slt", ins(llvm.XOrOp(a, b)), c(0))
    if isinstance(op, arith.CeilDivSIOp):  # round up where the exact quotient is positive
        adjust = ins(llvm.AndOp(inexact, ins(llvm.XOrOp(signs_differ, constant(rewriter, 1, i1)))))
        return [ins(llvm.SelectOp(adjust, ins(llvm.AddOp(quotient, c(1))), quotient))]
    adjust = ins(llvm.AndOp(inexact, signs_differ))  # floor: round down where it is negative
    return [ins(llvm.SelectOp(adjust, ins(llvm.SubOp(quotient, c(1))), quotient))]


class ArithLowering(RewritePattern):
    """Every supported `arith` op; the others are left for the legality check."""

    OP_TYPES = (
        *INT_BINARY,
        *FLOAT_BINARY,
        *MIN_MAX,
        *CASTS,
        arith.IndexCastOp,
        arith.ConstantOp,
        arith.CmpiOp,
        arith.CmpfOp,
        arith.SelectOp,
        arith.NegfOp,
        arith.CeilDivUIOp,
        arith.CeilDivSIOp,
        arith.FloorDivSIOp,
    )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        kind = type(op)
        if kind in INT_BINARY or kind in FLOAT_BINARY:
            results = emit_binary(op, rewriter)
        elif kind in MIN_MAX:
            results = emit_min_max(op, rewriter)
        elif kind in CASTS or kind is arith.IndexCastOp:
            results = emit_cast(op, rewriter)
        elif isinstance(op, arith.ConstantOp):
            results = emit_constant(op, rewriter)
        elif isinstance(op, arith.CmpiOp):
            results = emit_cmpi(op, rewriter)
        elif isinstance(op, arith.CmpfOp):
            results = emit_cmpf(op, rewriter)
        elif isinstance(op, arith.SelectOp):
            results = emit_select(op, rewriter)
        elif isinstance(op, arith.NegfOp):
            results = emit_negf(op, rewriter)
        elif isinstance(op, arith.CeilDivUIOp | arith.CeilDivSIOp | arith.FloorDivSIOp):
            results = emit_div_expansion(op, rewriter)
        else:
            return
        old_types = [r.type for r in op.results]
        rewriter.replace(
            op, [], [from_llvm(rewriter, v, t) for v, t in zip(results, old_types, strict=True)]
        )


@dataclass(frozen=True)
class ConvertArithToLlvmPass(DeviceModulePass):
    """`arith` ops to their llvm dialect equivalents."""

    name = "convert-arith-to-llvm"

    lowered = Statistic("num-ops-lowered", "Number of arith ops lowered to the llvm dialect")

    def lower_module(self, module: ModuleOp) -> None:
        rewrite_once(module, [ArithLowering()], self.lowered)
