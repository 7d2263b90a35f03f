"""Builders of IR that passes share: constants made once, loop nests, a token-threading
`scf.if`, affine expressions as `arith` ops."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.rewriter import InsertPoint

from gpuir.dialects import mem

INDEX = IndexType()

LoopBody = Callable[[Builder, list[SSAValue], list[SSAValue]], list[SSAValue]]
"""`body(builder, indices, args)`: builds a loop nest's innermost body; what it yields."""


@dataclass
class Constants:
    """`arith.constant`s, each created once, at `builder`'s insertion point (before the op
    being lowered), so that loop bodies share them."""

    builder: Builder
    values: dict[tuple[Attribute, str], SSAValue] = field(
        default_factory=dict[tuple[Attribute, str], SSAValue]
    )

    def of(self, attr: IntegerAttr | FloatAttr) -> SSAValue:
        key = (attr.type, repr(attr.value.data))
        if key not in self.values:
            self.values[key] = self.builder.insert(arith.ConstantOp(attr)).result
        return self.values[key]

    def __call__(self, value: int | float, type_: Attribute = INDEX) -> SSAValue:
        if isinstance(type_, AnyFloat):
            return self.of(FloatAttr(float(value), type_))
        assert isinstance(type_, IntegerType | IndexType) and isinstance(value, int)
        return self.of(IntegerAttr(value, type_))


def for_nest(
    b: Builder,
    const: Callable[[int], SSAValue],
    bounds: Sequence[SSAValue],
    iter_args: Sequence[SSAValue],
    body: LoopBody,
) -> list[SSAValue]:
    """Nested `scf.for %i = 0 to bound step 1`, outermost first, carrying `iter_args`;
    `body(builder, indices, args)` returns what the innermost body yields."""

    def nest(b: Builder, indices: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
        if len(indices) == len(bounds):
            return body(b, indices, args)
        block = Block(arg_types=[IndexType(), *(a.type for a in args)])
        inner = Builder(InsertPoint.at_end(block))
        index, *inner_args = block.args
        inner.insert(scf.YieldOp(*nest(inner, [*indices, index], inner_args)))
        bound = bounds[len(indices)]
        return list(b.insert(scf.ForOp(const(0), bound, const(1), args, block)).results)

    return nest(b, [], list(iter_args))


def if_else(
    b: Builder,
    condition: SSAValue,
    token: SSAValue,
    then: Callable[[Builder, SSAValue], SSAValue],
    otherwise: Callable[[Builder, SSAValue], SSAValue],
) -> SSAValue:
    """`scf.if` threading the token: each branch takes it and yields the next one."""
    blocks: list[Block] = []
    for branch in (then, otherwise):
        block = Block()
        inner = Builder(InsertPoint.at_end(block))
        inner.insert(scf.YieldOp(branch(inner, token)))
        blocks.append(block)
    return b.insert(scf.IfOp(condition, [token.type], [blocks[0]], [blocks[1]])).results[0]


def affine_value(
    b: Builder, const: Constants, expr: AffineExpr, dims: Sequence[SSAValue]
) -> SSAValue:
    """`expr` evaluated on the `index` values `dims`, with MLIR's `mod`/`floordiv`/`ceildiv`."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return const(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr), expr  # the verifiers exclude symbols
    lhs, rhs = affine_value(b, const, expr.lhs, dims), affine_value(b, const, expr.rhs, dims)
    match expr.kind:
        case AffineBinaryOpKind.Add:
            return b.insert(arith.AddiOp(lhs, rhs)).result
        case AffineBinaryOpKind.Mul:
            return b.insert(arith.MuliOp(lhs, rhs)).result
        case AffineBinaryOpKind.FloorDiv:
            return b.insert(arith.FloorDivSIOp(lhs, rhs)).result
        case AffineBinaryOpKind.CeilDiv:
            return b.insert(arith.CeilDivSIOp(lhs, rhs)).result
        case AffineBinaryOpKind.Mod:
            rem = b.insert(arith.RemSIOp(lhs, rhs)).result
            negative = b.insert(arith.CmpiOp(rem, const(0), "slt")).result
            shifted = b.insert(arith.AddiOp(rem, rhs)).result
            return b.insert(arith.SelectOp(negative, shifted, rem)).result


def affine_values(
    b: Builder, const: Constants, amap: AffineMap, dims: Sequence[SSAValue]
) -> list[SSAValue]:
    return [affine_value(b, const, expr, dims) for expr in amap.results]


def element_ptr(b: Builder, ptr: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
    """The address of `ptr[i0][i1]…`: one `mem.lea` per index."""
    for index in indices:
        ptr = b.insert(mem.LeaOp(ptr, index)).res
    return ptr
