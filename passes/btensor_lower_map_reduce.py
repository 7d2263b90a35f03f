"""`btensor-lower-map-reduce`: the CPU lowering of `btensor.map_reduce(_post)` (MimIR's
`btensor.lower_map_reduce`).

Each op becomes a `buffer.alloc` of its output and a loop nest over the output cells (the first
`out_rank` extents of `shape`). Per cell an inner nest over the reduction extents folds the
inlined `combiner` from `init` over the inputs, read with `buffer.read` at `maps(loop indices)`;
then the inlined `epilogue` combines the result with the post inputs, read at
`post_maps(output indices)`, and `buffer.write` stores it at `out_map(output indices)`. The host
token `!mem.M<0>` runs through every loop as an `iter_arg` (the accumulator, too, in the inner
nest). The op's results become the final token and the new buffer.

Affine expressions are materialised as `arith` ops on `index` values with MLIR's meaning:
`mod` is never negative, `floordiv` / `ceildiv` round down / up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir import Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from gpuir.dialects import buffer
from gpuir.dialects.btensor import MapReduceOp, MapReducePostOp, YieldOp
from gpuir.dialects.buffer import BufType
from gpuir.ir.builders import Constants, affine_values, for_nest
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.passes.locations import KeepLocations


def inline_region(
    b: Builder,
    region: Region,
    args: Sequence[SSAValue],
    outer: dict[SSAValue, SSAValue] | None = None,
) -> SSAValue:
    """Clone the ops of a combiner/epilogue with its arguments bound to `args` (and values
    from outside the region mapped by `outer`); return the value it yields."""
    mapping = dict(outer or {})
    block = region.block
    mapping.update(zip(block.args, args, strict=True))
    for op in block.ops:
        if isinstance(op, YieldOp):
            return mapping.get(op.values[0], op.values[0])
        b.insert(op.clone(mapping))
    raise ValueError("region without btensor.yield")  # the op's verifier excludes it


@dataclass(frozen=True)
class LowerMapReduce(RewritePattern):
    lowered: Counter

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: MapReduceOp | MapReducePostOp, rewriter: PatternRewriter, /
    ) -> None:
        const = Constants(rewriter)
        rank = op.out_rank.value.data
        alloc = rewriter.insert(buffer.AllocOp(op.mem, cast(BufType, op.res.type)))
        out_extents = [const(e) for e in op.loop_shape[:rank]]
        reduction_extents = [const(e) for e in op.loop_shape[rank:]]

        def read_all(
            b: Builder,
            token: SSAValue,
            inputs: Sequence[SSAValue],
            maps: Sequence[AffineMapAttr],
            loop: list[SSAValue],
        ) -> tuple[SSAValue, list[SSAValue]]:
            elements: list[SSAValue] = []
            for input_, amap in zip(inputs, maps, strict=True):
                indices = affine_values(b, const, amap.data, loop)
                read = b.insert(buffer.ReadOp(token, input_, indices))
                token = read.res_mem
                elements.append(read.res)
            return token, elements

        def cell(b: Builder, coords: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
            def step(b: Builder, reduced: list[SSAValue], args: list[SSAValue]):
                token, acc = args
                loop = [*coords, *reduced]
                token, elements = read_all(b, token, op.inputs, op.maps.data, loop)
                return [token, inline_region(b, op.combiner, [acc, *elements])]

            token, acc = for_nest(b, const, reduction_extents, [args[0], op.init], step)
            if isinstance(op, MapReducePostOp):
                token, elements = read_all(b, token, op.post_inputs, op.post_maps.data, coords)
                acc = inline_region(b, op.epilogue, [acc, *elements])
            indices = affine_values(b, const, op.out_map.data, coords)
            return [b.insert(buffer.WriteOp(token, alloc.res, indices, acc)).res_mem]

        (token,) = for_nest(rewriter, const, out_extents, [alloc.res_mem], cell)
        rewriter.replace(op, [], [token, alloc.res])
        self.lowered.add()


@dataclass(frozen=True)
class BTensorLowerMapReducePass(ModulePass):
    """Lower each `btensor.map_reduce(_post)` to a host buffer and a loop nest over its
    cells (the CPU path: what `lower-btensor-map-reduce` left, or everything)."""

    name = "btensor-lower-map-reduce"

    lowered = Statistic("num-map-reduces-lowered", "Number of map-reduces lowered to loop nests")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = LowerMapReduce(self.lowered)
        PatternRewriteWalker(
            KeepLocations(GreedyRewritePatternApplier([pattern], dce_enabled=False)),
            apply_recursively=False,
        ).rewrite_module(op)
