"""`fuse-map-reduce`: merge an elementwise `btensor.map_reduce(_post)` into the op that reads
its output (gompute's `Fused`; MimIR's `tensor.fuse_tensor` runs at this point of `opt`).

The producer computes each output cell on its own; the consumer reads the cell at its own loop
indices, once. Then the fused op reads the producer's inputs instead of its output, and its
combiner computes the producer's value just before the consumer's combiner uses it: the
producer's combiner (on the producer's `init`), then its epilogue, both inlined. There is no
intermediate buffer; a chain of maps becomes one op, hence one kernel (`lower-btensor-map-reduce`)
or one loop nest (`btensor-lower-map-reduce`). Each value is computed by the same operations
in the same order as before, so results are bit-identical.

What is fused: a producer P and a consumer C in the same block where
- P is a map: no reduction extents (`out_rank` = the loop rank), `out_map` the identity (its
  input and post maps may be any affine maps);
- P's output is used only by C, as one or more inputs (not post inputs) all read through the
  same map, whose results are distinct loop indices of C in increasing order (a projection
  without permutation) with C's extents there equal to P's shape, and every loop index of C
  that it leaves out has extent 1: each cell of P is read once, at one loop point of C;
- P's token goes straight to C (its only use), so nothing happens between them;
- fusing does not move work between the GPU and the CPU path: P and C are both lowerable by
  `lower-btensor-map-reduce`, or neither is.

The fused op has C's kind, loop box, out_map, post inputs and epilogue. Its inputs are C's,
with P's inputs and post inputs (read through P's maps composed with C's map) in the place of
the first read of P's output; an input that is already there with the same map is read once.

Views: a producer that reads views fuses like any other (the fused op reads the views, through
the producer's maps composed with the consumer's read: `lower-btensor-map-reduce` and
`buffer-lower-ptr` apply their layouts). A view of the producer's output is a use other than the
consumer's, so a consumer that reads one is not fused.

Not fused (the ops stay as they are): a producer that reduces, or stores through another
`out_map`; an output that something else uses too (the host, another op, the consumer's post
inputs or its token chain); a transposed read (a permutation), a broadcast read (a loop index of
extent > 1 left out, which would recompute P's cells) or a shifted or strided one; reads through
different maps; a host op on the token chain between them; ops in different blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from gpuir.dialects.btensor import MapReduceOp, MapReducePostOp, YieldOp
from gpuir.dialects.buffer import BufType
from gpuir.ir.pass_manager import Counter, Statistic
from gpuir.passes.btensor_lower_map_reduce import inline_region
from gpuir.passes.locations import KeepLocations
from gpuir.passes.lower_btensor_map_reduce import fallback_reason

MapReduce = MapReduceOp | MapReducePostOp


def is_map(op: MapReduce) -> bool:
    """No reduction extents and an identity `out_map`: cell c is computed from reads at c."""
    rank = op.out_rank.value.data
    return rank == len(op.loop_shape) and op.out_map.data == AffineMap.identity(rank)


def reads_each_cell_once(read: AffineMap, producer: MapReduce, consumer: MapReduce) -> bool:
    """`read` (consumer loop indices → producer cell) picks distinct loop indices in increasing
    order, over the producer's shape, and leaves out only loop indices of extent 1."""
    dims = [e.position if isinstance(e, AffineDimExpr) else -1 for e in read.results]
    if read.num_symbols or -1 in dims or dims != sorted(set(dims)):
        return False
    shape = consumer.loop_shape
    if [shape[d] for d in dims] != list(producer.loop_shape):
        return False
    return all(extent == 1 for d, extent in enumerate(shape) if d not in dims)


def producer_read(consumer: MapReduce, producer: MapReduce) -> AffineMap | None:
    """The one map through which `consumer` reads `producer`'s output, when fusing applies."""
    if not is_map(producer) or producer.parent_block() is not consumer.parent_block():
        return None
    if consumer.mem is not producer.res_mem or not producer.res_mem.has_one_use():
        return None
    reads: set[AffineMap] = set()
    for use in producer.res.uses:
        position = use.index - 1  # operand 0 is the token, the inputs follow
        if use.operation is not consumer or not 0 <= position < len(consumer.inputs):
            return None
        reads.add(consumer.maps.data[position].data)
    if len(reads) != 1:
        return None
    (read,) = reads
    if not reads_each_cell_once(read, producer, consumer):
        return None
    if (fallback_reason(producer) is None) != (fallback_reason(consumer) is None):
        return None
    return read


def compose(amap: AffineMap, read: AffineMap) -> AffineMap:
    """`amap` after `read`: `read`'s results are loop indices, so this substitutes them."""
    return amap.replace_dims_and_symbols(read.results, (), read.num_dims, 0)


@dataclass
class Reads:
    """The fused op's inputs and maps; one input per distinct (buffer, map)."""

    inputs: list[SSAValue]
    maps: list[AffineMap]

    def add(self, value: SSAValue, amap: AffineMap) -> int:
        """The position of `value` read through `amap` among the inputs (added if new)."""
        for i, (known, known_map) in enumerate(zip(self.inputs, self.maps, strict=True)):
            if known is value and known_map == amap:
                return i
        self.inputs.append(value)
        self.maps.append(amap)
        return len(self.inputs) - 1


def fused_combiner(
    producer: MapReduce,
    consumer: MapReduce,
    reads: Reads,
    producer_inputs: Sequence[int],
    consumer_inputs: Sequence[int | None],
) -> Region:
    """`^bb0(acc, elements…)`: the producer's combiner and epilogue on its elements, then the
    consumer's combiner with the producer's value where it read the producer's output
    (`consumer_inputs[j]` is None there, else the position of the element)."""
    element_types: list[Attribute] = [cast(BufType, v.type).element_type for v in reads.inputs]
    block = Block(arg_types=[consumer.init.type, *element_types])
    acc, *elements = block.args
    acc.name_hint = consumer.combiner.block.args[0].name_hint
    n_in = len(producer.inputs)
    named = [
        *zip(producer_inputs[:n_in], producer.combiner.block.args[1:], strict=True),
        *zip(consumer_inputs, consumer.combiner.block.args[1:], strict=True),
    ]
    if isinstance(producer, MapReducePostOp):
        named += zip(producer_inputs[n_in:], producer.epilogue.block.args[1:], strict=True)
    for i, original in named:  # the element takes the name of its first reader
        if i is not None and elements[i].name_hint is None:
            elements[i].name_hint = original.name_hint
    b = Builder(InsertPoint.at_end(block))
    ins = [elements[i] for i in producer_inputs[:n_in]]
    value = inline_region(b, producer.combiner, [producer.init, *ins])
    if isinstance(producer, MapReducePostOp):
        post = [elements[i] for i in producer_inputs[n_in:]]
        value = inline_region(b, producer.epilogue, [value, *post])
    args = [value if i is None else elements[i] for i in consumer_inputs]
    b.insert(YieldOp(inline_region(b, consumer.combiner, [acc, *args])))
    return Region(block)


@dataclass(frozen=True)
class FuseMapReduce(RewritePattern):
    fused: Counter

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MapReduceOp | MapReducePostOp, rewriter: PatternRewriter, /):
        for value in op.inputs:
            producer = value.owner
            if not isinstance(producer, MapReduceOp | MapReducePostOp):
                continue
            read = producer_read(op, producer)
            if read is not None:
                return self.fuse(producer, op, read, rewriter)

    def fuse(
        self, producer: MapReduce, consumer: MapReduce, read: AffineMap, rewriter: PatternRewriter
    ) -> None:
        reads = Reads([], [])
        producer_inputs: list[int] = []
        consumer_inputs: list[int | None] = []
        sources = [*producer.inputs, *producer.post_operands()]
        source_maps = [m.data for m in producer.maps.data]
        if isinstance(producer, MapReducePostOp):
            source_maps += [m.data for m in producer.post_maps.data]
        for value, amap in zip(consumer.inputs, consumer.maps.data, strict=True):
            if value is not producer.res:
                consumer_inputs.append(reads.add(value, amap.data))
                continue
            if not producer_inputs:  # the first read of the producer: its inputs go here
                for source, source_map in zip(sources, source_maps, strict=True):
                    producer_inputs.append(reads.add(source, compose(source_map, read)))
            consumer_inputs.append(None)
        combiner = fused_combiner(producer, consumer, reads, producer_inputs, consumer_inputs)

        properties = dict(consumer.properties)
        properties.pop("operandSegmentSizes", None)
        properties["maps"] = ArrayAttr([AffineMapAttr(m) for m in reads.maps])
        result_types = [r.type for r in consumer.results]
        if isinstance(consumer, MapReducePostOp):
            fused = MapReducePostOp.build(
                operands=[producer.mem, reads.inputs, consumer.post_inputs, consumer.init],
                properties=properties,
                attributes=dict(consumer.attributes),
                regions=[combiner, consumer.epilogue.clone()],
                result_types=result_types,
            )
        else:
            fused = MapReduceOp.build(
                operands=[producer.mem, reads.inputs, consumer.init],
                properties=properties,
                attributes=dict(consumer.attributes),
                regions=[combiner],
                result_types=result_types,
            )
        rewriter.replace(consumer, fused)
        rewriter.erase(producer)
        self.fused.add()


@dataclass(frozen=True)
class FuseMapReducePass(ModulePass):
    """Fuse each elementwise `btensor.map_reduce(_post)` into the one op that reads its
    output, once per cell, so that a chain of maps becomes one op (no intermediate buffer)."""

    name = "fuse-map-reduce"

    fused = Statistic("num-map-reduces-fused", "Number of map-reduces fused into their consumer")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(KeepLocations(FuseMapReduce(self.fused))).rewrite_module(op)
