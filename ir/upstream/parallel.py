"""`scf.parallel` and `scf.while` in upstream programs.

`scf.parallel` is what MLIR's parallel loops are before (or instead of) their mapping to the
GPU, on the host or in a kernel. `--convert-parallel-loops-to-gpu` leaves a loop it cannot map
where it is (an inner bound that depends on an outer loop, as `--affine-loop-tile` and
`--affine-parallelize` make; a loop not marked for the GPU), and
`--convert-linalg-to-parallel-loops` or `--affine-parallelize` alone make them on the host.

`ParallelOp` reads MLIR's custom syntax (xDSL's `scf.parallel` reads only the generic form):
`%r = scf.parallel (%i, …) = (lb, …) to (ub, …) step (s, …) [init (%x, …) -> T | (T, …)]
{ … scf.reduce[(%v : T) { ^bb0(%lhs: T, %rhs: T): … scf.reduce.return %c : T }] } [{attrs}]`.

`parallel` imports one as a nest of `scf.for`, one per dimension, outermost first, whose
iterations run one after the other: a valid schedule of a parallel loop (its iterations are
independent). A reduction's accumulator, from its `init` value, is carried by the loops; each
iteration's `scf.reduce` combines it with the iteration's value through the reduction's region
(as `lhs` and `rhs`), in the iterations' order.

`WhileOp` reads `scf.while` as MLIR writes a loop without iteration values (`scf.while : () ->
() {…} do {…}`), and `while_loop` imports any `scf.while` as one that also carries the tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.rewriter import InsertPoint

from gpuir.dialects.mem import MemType
from gpuir.ir.upstream.common import OpTable, Scope, SharedImporter


class ParallelOp(scf.ParallelOp):
    """xDSL's `scf.parallel`, with MLIR's custom syntax (module docstring)."""

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        paren = parser.Delimiter.PAREN
        ivs = parser.parse_comma_separated_list(
            paren, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lower = parser.parse_comma_separated_list(paren, parser.parse_operand)
        parser.parse_keyword("to")
        upper = parser.parse_comma_separated_list(paren, parser.parse_operand)
        parser.parse_keyword("step")
        steps = parser.parse_comma_separated_list(paren, parser.parse_operand)
        inits: list[SSAValue] = []
        if parser.parse_optional_keyword("init") is not None:
            inits = parser.parse_comma_separated_list(paren, parser.parse_operand)
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                parser.parse_punctuation(")")
            else:
                parser.parse_type()  # the results' types are the init values'
        region = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        attributes = parser.parse_optional_attr_dict()
        if not region.blocks:
            region.add_block(Block(arg_types=[IndexType()] * len(ivs)))
        block = region.blocks[0]
        if not isinstance(block.last_op, scf.ReduceOp):  # MLIR may leave it implicit
            block.add_op(scf.ReduceOp())
        op = cls(lower, upper, steps, region, inits)
        op.attributes.update(attributes)
        return op


class WhileOp(scf.WhileOp):
    """xDSL's `scf.while`, reading MLIR's syntax: the assignments of the iteration values,
    `(%a = %x, …)`, may be left out when there are none (`scf.while : () -> () {…} do {…}`,
    as MLIR prints such a loop; xDSL reads only `scf.while () : …`)."""

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        def assignment() -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            return arg, parser.parse_unresolved_operand()

        paren = parser.Delimiter.PAREN
        pairs = parser.parse_optional_comma_separated_list(paren, assignment) or []
        parser.parse_punctuation(":")
        start = parser.pos
        signature = parser.parse_function_type()
        inputs = signature.inputs.data
        if len(pairs) != len(inputs):
            parser.raise_error(
                f"'scf.while' assigns {len(pairs)} iteration value(s), but its type takes "
                f"{len(inputs)}",
                start,
                parser.pos,
            )
        args = [arg.resolve(t) for (arg, _), t in zip(pairs, inputs, strict=True)]
        values = [parser.resolve_operand(v, t) for (_, v), t in zip(pairs, inputs, strict=True)]
        before = parser.parse_region(args)
        parser.parse_keyword("do")
        after = parser.parse_region()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(values, signature.outputs.data, before, after)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op


REPLACED = (ParallelOp.name, WhileOp.name)
UpstreamScf = Dialect(
    "scf",
    [*(op for op in scf.Scf.operations if op.name not in REPLACED), ParallelOp, WhileOp],
    list(scf.Scf.attributes),
)
"""xDSL's `scf`, with MLIR's syntax of `scf.parallel` and `scf.while`."""


def parallel(self: SharedImporter, op: scf.ParallelOp, b: Builder, s: Scope) -> None:
    """A nest of `scf.for`, one per dimension, that carries the reductions' accumulators
    (module docstring)."""
    lower, upper, steps = (
        self.mapped(op, list(values), s) for values in (op.lowerBound, op.upperBound, op.step)
    )
    body = op.body.block
    reduce = body.last_op
    assert isinstance(reduce, scf.ReduceOp)
    ivs: list[SSAValue] = []

    def level(k: int, b: Builder, s: Scope, accs: Sequence[SSAValue]) -> list[SSAValue]:
        """The loops from dimension `k` in, at `b` (`s.tokens` then the tokens after them):
        the accumulators after them."""
        if k == len(lower):
            for old, new in zip(body.args, ivs, strict=True):
                s.values[old] = new
            for region, acc in zip(reduce.reductions, accs, strict=True):
                s.values[region.block.args[0]] = acc
            self.block(body, b, s)  # its scf.reduce leaves the combined values there
            return [s.values[region.block.args[0]] for region in reduce.reductions]
        types: list[Attribute] = [IndexType(), *(a.type for a in accs)]
        loop = Block(arg_types=[*types, *(MemType(t) for t in s.spaces)])
        inner = s.inner()
        for i, space in enumerate(s.spaces):
            inner.tokens[space] = loop.args[len(types) + i]
        ivs.append(loop.args[0])
        ib = Builder(InsertPoint.at_end(loop))
        after = level(k + 1, ib, inner, loop.args[1 : len(types)])
        ib.insert(scf.YieldOp(*after, *self.token_list(inner)))
        carried = [*accs, *self.token_list(s)]
        made = b.insert(scf.ForOp(lower[k], upper[k], steps[k], carried, loop))
        for i, space in enumerate(s.spaces):
            s.tokens[space] = made.results[len(accs) + i]
        return list(made.results[: len(accs)])

    results = level(0, b, s, self.mapped(op, list(op.initVals), s))
    for old, new in zip(op.res, results, strict=True):
        s.values[old] = new


def reduce(self: SharedImporter, op: scf.ReduceOp, b: Builder, s: Scope) -> None:
    """An iteration's `scf.reduce`: each reduction's region, made with `lhs` the accumulator
    (the value of its first argument) and `rhs` the iteration's value; its `scf.reduce.return`
    leaves the combined value as the first argument's value."""
    for region, value in zip(op.reductions, self.mapped(op, list(op.args), s), strict=True):
        s.values[region.block.args[1]] = value
        self.block(region.block, b, s)


def reduce_return(self: SharedImporter, op: scf.ReduceReturnOp, b: Builder, s: Scope) -> None:
    block = op.parent_block()
    assert block is not None
    (s.values[block.args[0]],) = self.mapped(op, [op.result], s)


def while_loop(self: SharedImporter, op: scf.WhileOp, b: Builder, s: Scope) -> None:
    """`scf.while`: its regions take (and its `scf.condition` and `scf.yield` pass) the
    iteration values and then the tokens; its results are the loop's and then the tokens."""
    inits = self.mapped(op, list(op.arguments), s)
    tokens = [MemType(t) for t in s.spaces]
    regions: list[Region] = []
    for region, types in ((op.before_region, inits), (op.after_region, op.res)):
        old = region.block
        block = Block(arg_types=[*(v.type for v in types), *tokens])
        inner = s.inner()
        for old_arg, new_arg in zip(old.args, block.args, strict=False):
            inner.values[old_arg] = new_arg
        for k, space in enumerate(s.spaces):
            inner.tokens[space] = block.args[len(old.args) + k]
        self.block(old, Builder(InsertPoint.at_end(block)), inner)
        regions.append(Region(block))
    types = [*(r.type for r in op.res), *tokens]
    made = b.insert(scf.WhileOp([*inits, *self.token_list(s)], types, *regions))
    for old_result, new in zip(op.res, made.results, strict=False):
        s.values[old_result] = new
    for k, space in enumerate(s.spaces):
        s.tokens[space] = made.results[len(op.res) + k]


def condition(self: SharedImporter, op: scf.ConditionOp, b: Builder, s: Scope) -> None:
    cond, *values = self.mapped(op, list(op.operands), s)
    b.insert(scf.ConditionOp(cond, *values, *self.token_list(s)))


PARALLEL_OPS: OpTable = {
    ParallelOp: parallel,
    WhileOp: while_loop,
    scf.ConditionOp: condition,
    scf.ReduceOp: reduce,
    scf.ReduceReturnOp: reduce_return,
}
"""`scf.parallel` and its reductions, and `scf.while`, on the host and in kernels."""
