"""`convert-vector-to-llvm`: `vector` ops to LLVM's vector instructions and intrinsics.

A `vector<d0 x … x T>` is one LLVM vector of `d0 · …` elements, row-major (`llvm_type`), so
`shape_cast` is no instruction and `extract` / `insert` of a row are element moves:

| vector | llvm |
| --- | --- |
| `from_elements` | a vector constant (of constants), else `insertelement`s into `poison` |
| `extract` (a scalar; static or dynamic position) | `extractelement` |
| `extract` (a sub-vector, static position) | `shufflevector` of its range |
| `insert` | `insertelement`s (a sub-vector's elements `extractelement`ed first) |
| `broadcast` | `insertelement` + `shufflevector` (a scalar), `shufflevector` (a vector) |
| `shuffle` | `shufflevector` (each mask entry a row of the operands) |
| `fma` | `llvm.fma.v*` |
| `reduction` | `llvm.vector.reduce.*`; float `add` / `mul` ordered (as interp), from the accumulator or `+0.0` / `1.0` |
| `bitcast` | `bitcast` |
| `shape_cast` | nothing |
| `contract` | per reduction point (or, when there are fewer accumulator lanes, per lane): `shufflevector`s of the lhs's and the rhs's lanes, `fpext` / `sext`, `fmul` / `mul`, the kind's combine (or `llvm.vector.reduce.*`) |

`arith` and `math` on vectors are an error here (`ScalarArithmetic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import llvm, vector
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.math import Math
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from gpuir.dialects.vector_ext import (
    ContractionOp,
    FromElementsOp,
    ShapeCastOp,
    contraction_lanes,
)
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.llvm.arith_to_llvm import type_suffix
from gpuir.lowering.llvm.conversion import (
    DeviceModulePass,
    constant,
    from_llvm,
    require_llvm_type,
    to_llvm,
)
from gpuir.lowering.llvm.llvm_ext import ExtractElementOp, PoisonOp
from gpuir.lowering.llvm.rules import broadcast_sources
from gpuir.passes.locations import rewrite_once


def flat_type(type_: Attribute, op: Operation) -> VectorType:
    converted = require_llvm_type(type_, op)
    assert isinstance(converted, VectorType)
    return converted


def suffix(type_: VectorType) -> str:
    """An overloaded intrinsic's suffix for an LLVM vector: `v4f32`."""
    return f"v{type_.get_shape()[0]}{type_suffix(type_.element_type)}"


def shuffle(r: PatternRewriter, v1: SSAValue, v2: SSAValue, mask: list[int]) -> SSAValue:
    """`shufflevector` of two lowered (1-d) vectors."""
    assert isinstance(v1.type, VectorType)
    element = v1.type.element_type
    made = llvm.ShuffleVectorOp(
        v1, v2, DenseArrayBase.from_list(i32, mask), VectorType(element, [len(mask)])
    )
    return r.insert(made).res


def extract_at(r: PatternRewriter, v: SSAValue, k: SSAValue | int) -> SSAValue:
    """`extractelement` of a lowered (1-d) vector."""
    assert isinstance(v.type, VectorType)
    element = v.type.element_type
    at = constant(r, k) if isinstance(k, int) else k
    return r.insert(ExtractElementOp(v, at, element)).res


def insert_at(r: PatternRewriter, v: SSAValue, x: SSAValue, k: SSAValue | int) -> SSAValue:
    at = constant(r, k) if isinstance(k, int) else k
    return r.insert(llvm.InsertElementOp(v, x, at)).res


def flat_position(
    r: PatternRewriter, op: vector.ExtractOp | vector.InsertOp, whole: Attribute, part: Attribute
) -> tuple[int, SSAValue | int]:
    """An `extract`'s or `insert`'s position in the vector of type `whole` as (the size of the
    block `part`, its first element's offset: an `int`, or an `i64` value when a position is
    dynamic, which only a scalar `part` may be at)."""
    assert isinstance(whole, VectorType)
    shape = tuple(whole.get_shape())
    static = op.static_position.get_values()
    count = static.count(DYNAMIC_INDEX)
    if count and isinstance(part, VectorType):
        raise OpError(op, f"'{op.name}' of a vector at a dynamic position is not lowered")
    dynamic = iter(op.operands[len(op.operands) - count :])
    strides = [prod(shape[k + 1 :]) for k in range(len(static))]
    offset: SSAValue | int = sum(
        p * stride for p, stride in zip(static, strides, strict=True) if p != DYNAMIC_INDEX
    )
    for p, stride in zip(static, strides, strict=True):
        if p != DYNAMIC_INDEX:
            continue
        term = as_i64(r, next(dynamic), op)
        if stride != 1:
            term = r.insert(llvm.MulOp(term, constant(r, stride))).res
        if offset != 0:
            term = r.insert(llvm.AddOp(as_i64(r, offset, op), term)).res
        offset = term
    return prod(shape[len(static) :]), offset


def as_i64(r: PatternRewriter, value: SSAValue | int, op: Operation) -> SSAValue:
    if isinstance(value, int):
        return constant(r, value)
    lowered = to_llvm(r, value, op)
    if lowered.type != i64:
        return r.insert(llvm.SExtOp(lowered, i64)).res
    return lowered


@dataclass(frozen=True)
class FromElementsLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FromElementsOp, r: PatternRewriter):
        type_ = flat_type(op.result.type, op)
        values = constant_elements(op.elements, type_)
        if values is not None:  # one vector constant, not an insertelement per lane
            made = r.insert(
                llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(type_, values), type_)
            )
            r.replace(op, [], [from_llvm(r, made.result, op.result.type)])
            return
        made = r.insert(PoisonOp.create(result_types=[type_])).res
        for k, element in enumerate(op.elements):
            made = insert_at(r, made, to_llvm(r, element, op), k)
        r.replace(op, [], [from_llvm(r, made, op.result.type)])


def constant_elements(
    elements: Sequence[SSAValue], type_: VectorType
) -> list[int] | list[float] | None:
    """The values of `elements` where each is an `llvm.mlir.constant` of the vector's element
    type; None where one is not."""
    element = type_.element_type
    values = []
    for value in elements:
        owner = value.owner
        if not isinstance(owner, llvm.ConstantOp) or value.type != element:
            return None
        attribute = owner.value
        if not isinstance(attribute, IntegerAttr | FloatAttr):
            return None
        values.append(attribute.value.data)
    return values


@dataclass(frozen=True)
class ExtractLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, r: PatternRewriter):
        size, start = flat_position(r, op, op.vector.type, op.result.type)
        source = to_llvm(r, op.vector, op)
        if isinstance(start, int) and isinstance(op.result.type, VectorType):
            made = shuffle(r, source, source, list(range(start, start + size)))
        else:
            made = extract_at(r, source, start)
        r.replace(op, [], [from_llvm(r, made, op.result.type)])


@dataclass(frozen=True)
class InsertLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, r: PatternRewriter):
        size, start = flat_position(r, op, op.dest.type, op.source.type)
        made = to_llvm(r, op.dest, op)
        value = to_llvm(r, op.source, op)
        if isinstance(start, int) and isinstance(op.source.type, VectorType):
            for k in range(size):
                made = insert_at(r, made, extract_at(r, value, k), start + k)
        else:
            made = insert_at(r, made, value, start)
        r.replace(op, [], [from_llvm(r, made, op.result.type)])


@dataclass(frozen=True)
class BroadcastLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, r: PatternRewriter):
        result = op.vector.type
        shape = tuple(result.get_shape())
        if not isinstance(op.source.type, VectorType):
            poison = r.insert(PoisonOp.create(result_types=[flat_type(result, op)])).res
            one = insert_at(r, poison, to_llvm(r, op.source, op), 0)
            made = shuffle(r, one, one, [0] * prod(shape))
        else:
            mask = broadcast_sources(shape, tuple(op.source.type.get_shape()))
            value = to_llvm(r, op.source, op)
            made = shuffle(r, value, value, mask)
        r.replace(op, [], [from_llvm(r, made, result)])


@dataclass(frozen=True)
class ShuffleLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShuffleOp, r: PatternRewriter):
        if op.v1.type != op.v2.type:
            raise OpError(op, f"'{op.name}' of {op.v1.type} and {op.v2.type} is not lowered")
        assert isinstance(op.v1.type, VectorType)
        row = prod(op.v1.type.get_shape()[1:])
        mask = [k * row + e if k >= 0 else -1 for k in op.mask.get_values() for e in range(row)]
        v1, v2 = to_llvm(r, op.v1, op), to_llvm(r, op.v2, op)
        r.replace(op, [], [from_llvm(r, shuffle(r, v1, v2, mask), op.result.type)])


@dataclass(frozen=True)
class FmaLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FMAOp, r: PatternRewriter):
        args = [to_llvm(r, v, op) for v in op.operands]
        type_ = flat_type(op.res.type, op)
        call = llvm.CallIntrinsicOp(f"llvm.fma.{suffix(type_)}", args, [type_])
        r.replace(op, [], [from_llvm(r, r.insert(call).results[0], op.res.type)])


FLOAT_REDUCE = {
    "add": "fadd",
    "mul": "fmul",
    "maxnumf": "fmax",
    "minnumf": "fmin",
    "maximumf": "fmaximum",
    "minimumf": "fminimum",
}
FLOAT_COMBINE = {
    "maxnumf": "llvm.maxnum",
    "minnumf": "llvm.minnum",
    "maximumf": "llvm.maximum",
    "minimumf": "llvm.minimum",
}
INT_REDUCE = {
    "add": "add",
    "mul": "mul",
    "and": "and",
    "or": "or",
    "xor": "xor",
    "maxsi": "smax",
    "minsi": "smin",
    "maxui": "umax",
    "minui": "umin",
}
INT_COMBINE: dict[str, type[Operation] | str] = {
    "add": llvm.AddOp,
    "mul": llvm.MulOp,
    "and": llvm.AndOp,
    "or": llvm.OrOp,
    "xor": llvm.XOrOp,
    "maxsi": "llvm.smax",
    "minsi": "llvm.smin",
    "maxui": "llvm.umax",
    "minui": "llvm.umin",
}


def overload(type_: Attribute) -> str:
    """An overloaded intrinsic's suffix for a lowered scalar or vector: `f32`, `v4f32`."""
    return suffix(type_) if isinstance(type_, VectorType) else type_suffix(type_)


def combine(r: PatternRewriter, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
    """`x ⊕ y` of a reduction kind, on two lowered scalars or vectors of one type."""
    type_ = x.type
    element = type_.element_type if isinstance(type_, VectorType) else type_
    if isinstance(element, IntegerType):
        how = INT_COMBINE[kind]
    else:
        how = {"add": llvm.FAddOp, "mul": llvm.FMulOp}.get(kind) or FLOAT_COMBINE[kind]
    if isinstance(how, str):
        call = llvm.CallIntrinsicOp(f"{how}.{overload(type_)}", [x, y], [type_])
        return r.insert(call).results[0]
    return r.insert(how(x, y)).results[0]  # type: ignore[call-arg]


def reduce(
    r: PatternRewriter, op: Operation, kind: str, source: SSAValue, acc: SSAValue | None
) -> SSAValue:
    """`llvm.vector.reduce.*` of a lowered vector, combined with `acc`; float `add` / `mul`
    ordered, from `acc` or `+0.0` / `1.0`."""
    type_ = source.type
    assert isinstance(type_, VectorType)
    element = type_.element_type
    is_int = isinstance(element, IntegerType)
    if kind not in (INT_REDUCE if is_int else FLOAT_REDUCE):
        raise OpError(op, f"'{op.name}' <{kind}> on {type_} is not lowered")
    name = f"llvm.vector.reduce.{(INT_REDUCE if is_int else FLOAT_REDUCE)[kind]}.{suffix(type_)}"
    if not is_int and kind in ("add", "mul"):  # ordered, from the accumulator
        if acc is None:
            start = FloatAttr(0.0 if kind == "add" else 1.0, element)  # type: ignore[arg-type]
            acc = r.insert(llvm.ConstantOp(start, element)).result
        return r.insert(llvm.CallIntrinsicOp(name, [acc, source], [element])).results[0]
    made = r.insert(llvm.CallIntrinsicOp(name, [source], [element])).results[0]
    return made if acc is None else combine(r, kind, acc, made)


@dataclass(frozen=True)
class ReductionLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ReductionOp, r: PatternRewriter):
        source = to_llvm(r, op.vector, op)
        acc = to_llvm(r, op.acc, op) if op.acc is not None else None
        made = reduce(r, op, op.kind.data.value, source, acc)
        r.replace(op, [], [from_llvm(r, made, op.dest.type)])


@dataclass(frozen=True)
class ContractionLowering(RewritePattern):
    """`vector.contract` as whole-vector steps (`contraction_lanes` gives each product's
    lanes): with no more reduction points than accumulator lanes, one step per point (the
    lhs's and the rhs's lanes of that point shuffled into the accumulator's shape, multiplied,
    combined with it: `C += A[:, k] · B[k, :]` of a matmul); else one step per accumulator
    lane (its products shuffled into one vector and reduced from it, as `reduction`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ContractionOp, r: PatternRewriter):
        kind = op.kind.data.value
        lhs, rhs, acc = (to_llvm(r, v, op) for v in op.operands)
        lhs_lanes, rhs_lanes = contraction_lanes(op)
        count, points = len(lhs_lanes), len(lhs_lanes[0])
        if isinstance(acc.type, VectorType) and points <= count:
            made = acc
            for q in range(points):
                lhs_q, rhs_q = [row[q] for row in lhs_lanes], [row[q] for row in rhs_lanes]
                made = combine(r, kind, made, self.products(r, op, lhs, lhs_q, rhs, rhs_q))
        elif isinstance(acc.type, VectorType):
            made = acc
            for k in range(count):
                products = self.products(r, op, lhs, lhs_lanes[k], rhs, rhs_lanes[k])
                lane = reduce(r, op, kind, products, extract_at(r, acc, k))
                made = insert_at(r, made, lane, k)
        else:
            products = self.products(r, op, lhs, lhs_lanes[0], rhs, rhs_lanes[0])
            made = reduce(r, op, kind, products, acc)
        r.replace(op, [], [from_llvm(r, made, op.result.type)])

    def products(
        self,
        r: PatternRewriter,
        op: ContractionOp,
        lhs: SSAValue,
        lhs_lanes: list[int],
        rhs: SSAValue,
        rhs_lanes: list[int],
    ) -> SSAValue:
        """The vector of `lhs[lhs_lanes[i]] · rhs[rhs_lanes[i]]`, in the accumulator's element
        type."""
        acc = op.acc.type
        element = require_llvm_type(acc.element_type if isinstance(acc, VectorType) else acc, op)
        type_ = VectorType(element, [len(lhs_lanes)])
        factors = []
        for value, lanes in ((lhs, lhs_lanes), (rhs, rhs_lanes)):
            assert isinstance(value.type, VectorType)
            if lanes != list(range(value.type.get_shape()[0])):
                value = shuffle(r, value, value, lanes)
            if value.type.element_type != element:
                extend = llvm.SExtOp if isinstance(element, IntegerType) else llvm.FPExtOp
                value = r.insert(extend(value, type_)).results[0]  # type: ignore[arg-type]
            factors.append(value)
        times = llvm.MulOp if isinstance(element, IntegerType) else llvm.FMulOp
        return r.insert(times(factors[0], factors[1])).results[0]  # type: ignore[call-arg]


@dataclass(frozen=True)
class CastLowering(RewritePattern):
    """`vector.bitcast` as `llvm.bitcast`; `vector.shape_cast` as nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp | ShapeCastOp, r: PatternRewriter):
        source = to_llvm(r, op.source, op)
        target = flat_type(op.result.type, op)
        made = source if source.type == target else r.insert(llvm.BitcastOp(source, target)).result
        r.replace(op, [], [from_llvm(r, made, op.result.type)])


@dataclass(frozen=True)
class ScalarArithmetic(RewritePattern):
    """`arith` and `math` on vectors are an error: gpuir runs them on scalars (interp has no
    vector semantics for them), and the upstream importer makes them lane by lane."""

    OP_TYPES = (*Arith.operations, *Math.operations)

    def match_and_rewrite(self, op: Operation, r: PatternRewriter, /):
        if op.dialect_name() not in ("arith", "math"):
            return
        for value in (*op.operands, *op.results):
            if isinstance(value.type, VectorType):
                raise OpError(
                    op,
                    f"'{op.name}' on {value.type} is not lowered: gpuir runs arith and math on "
                    "scalars (an upstream program's vectors are imported lane by lane)",
                )


@dataclass(frozen=True)
class ConvertVectorToLlvmPass(DeviceModulePass):
    """`vector` ops to LLVM vector instructions and intrinsics."""

    name = "convert-vector-to-llvm"

    def lower_module(self, module: ModuleOp) -> None:
        rewrite_once(
            module,
            [
                ScalarArithmetic(),
                FromElementsLowering(),
                ExtractLowering(),
                InsertLowering(),
                BroadcastLowering(),
                ShuffleLowering(),
                FmaLowering(),
                ReductionLowering(),
                ContractionLowering(),
                CastLowering(),
            ],
        )
