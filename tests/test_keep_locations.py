"""`KeepLocations` (passes/locations.py) reads the op types a pattern acts on from xDSL's
`op_type_rewrite_pattern`, and skips the other ops before doing any work for them; a pattern
that says nothing is tried on every op."""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from gpuir.passes.locations import KeepLocations, apply_patterns, op_types


class AddOrMul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp | arith.MuliOp, rewriter: PatternRewriter):
        rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


class Seen(RewritePattern):
    def __init__(self) -> None:
        self.ops: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        self.ops.append(op.name)


def test_the_op_types_come_from_the_decorator():
    assert op_types(AddOrMul()) == (arith.AddiOp, arith.MuliOp)
    assert op_types(Seen()) is None
    merged = KeepLocations(AddOrMul()).merged(KeepLocations(AddOrMul()))
    assert merged.op_types == (arith.AddiOp, arith.MuliOp, arith.AddiOp, arith.MuliOp)
    assert KeepLocations(AddOrMul()).merged(KeepLocations(Seen())).op_types is None


def test_only_the_ops_a_typed_pattern_names_are_tried():
    block_args = func.FuncOp("f", ((i32, i32), (i32,)))
    a, b = block_args.body.block.args
    add, mul = arith.AddiOp(a, b), arith.MuliOp(a, b)
    other = arith.DivSIOp(add.result, mul.result)
    block_args.body.block.add_ops([add, mul, other, func.ReturnOp(other.result)])
    module = ModuleOp([block_args])
    seen = Seen()
    apply_patterns(module, [KeepLocations(AddOrMul()), KeepLocations(seen)], dce=False)
    names = [op.name for op in block_args.body.block.ops]
    assert names == ["arith.subi", "arith.subi", "arith.divsi", "func.return"]
    assert "arith.divsi" in seen.ops  # the untyped pattern still sees every op
