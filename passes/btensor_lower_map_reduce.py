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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from gpuir.dialects import buffer
from gpuir.dialects.btensor import MapReduceOp, MapReducePostOp, YieldOp
from gpuir.dialects.buffer import BufType
from gpuir.ir.builders import Constants, affine_values, for_nest
from gpuir.ir.pass_manager import Statistic
from gpuir.passes.locations import rewrite_once


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


Read = Callable[[Builder, SSAValue, SSAValue, list[SSAValue]], tuple[SSAValue, SSAValue]]
"""`read(b, token, source, indices)`: the token after reading `source` at `indices`, and the
element read."""


def read_each(
    b: Builder,
    const: Constants,
    token: SSAValue,
    sources: Sequence[SSAValue],
    maps: Sequence[AffineMap],
    loop: list[SSAValue],
    read: Read,
) -> tuple[SSAValue, list[SSAValue]]:
    """Read `sources[i]` at `maps[i](loop)`, in order, on the token; the last token and the
    elements."""
    elements: list[SSAValue] = []
    for source, amap in zip(sources, maps, strict=True):
        token, element = read(b, token, source, affine_values(b, const, amap, loop))
        elements.append(element)
    return token, elements


def buffer_read(
    b: Builder, token: SSAValue, buf: SSAValue, indices: list[SSAValue]
) -> tuple[SSAValue, SSAValue]:
    """`read_each`'s `Read` of a buffer: `buffer.read`."""
    read = b.insert(buffer.ReadOp(token, buf, indices))
    return read.res_mem, read.res


class LowerMapReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: MapReduceOp | MapReducePostOp, rewriter: PatternRewriter, /
    ) -> None:
        const = Constants(rewriter)
        rank = op.out_rank.value.data
        alloc = rewriter.insert(buffer.AllocOp(op.mem, cast(BufType, op.res.type)))
        out_extents = [const(e) for e in op.loop_shape[:rank]]
        reduction_extents = [const(e) for e in op.loop_shape[rank:]]
        maps = [amap.data for amap in op.maps.data]

        def cell(b: Builder, coords: list[SSAValue], args: list[SSAValue]) -> list[SSAValue]:
            def step(b: Builder, reduced: list[SSAValue], args: list[SSAValue]):
                token, acc = args
                loop = [*coords, *reduced]
                token, elements = read_each(b, const, token, op.inputs, maps, loop, buffer_read)
                return [token, inline_region(b, op.combiner, [acc, *elements])]

            token, acc = for_nest(b, const, reduction_extents, [args[0], op.init], step)
            if isinstance(op, MapReducePostOp):
                post_maps = [amap.data for amap in op.post_maps.data]
                token, elements = read_each(
                    b, const, token, op.post_inputs, post_maps, coords, buffer_read
                )
                acc = inline_region(b, op.epilogue, [acc, *elements])
            indices = affine_values(b, const, op.out_map.data, coords)
            return [b.insert(buffer.WriteOp(token, alloc.res, indices, acc)).res_mem]

        (token,) = for_nest(rewriter, const, out_extents, [alloc.res_mem], cell)
        rewriter.replace(op, [], [token, alloc.res])


@dataclass(frozen=True)
class BTensorLowerMapReducePass(ModulePass):
    """Lower each `btensor.map_reduce(_post)` to a host buffer and a loop nest over its
    cells (the CPU path: what `lower-btensor-map-reduce` left, or everything)."""

    name = "btensor-lower-map-reduce"

    lowered = Statistic("num-map-reduces-lowered", "Number of map-reduces lowered to loop nests")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_once(op, [LowerMapReduce()], self.lowered, dce=False)
