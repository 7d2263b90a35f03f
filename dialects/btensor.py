"""The `btensor` dialect: map-reduce over host buffers (MimIR's `%btensor.map_reduce(_post)`).

`btensor.map_reduce_post` loops over the box `shape` (`Rn` extents: the first `out_rank` are the
output cells, the rest are reduced). For each output cell it folds the `combiner` region from
`init` over the inputs, read at `maps(loop indices)`, then applies the `epilogue` to the result
and the post inputs, read at `post_maps(output indices)`, and stores it at `out_map(output
indices)` of a new buffer. `btensor.map_reduce` is the same without post inputs and epilogue.
`lower-btensor-map-reduce` turns it into a kernel launch, `btensor-lower-map-reduce` into loops.

Departures from MimIR: the regions are pure (MimIR's combiners thread a token); the loop extents
are static (MimIR allows dynamic reduction extents); there is no schedule operand (MimIR's
`sched` is ignored by its GPU lowering).

Custom syntax, after `linalg.generic`:

    %m1, %c = btensor.map_reduce %m0 ins(%a, %b : !buffer.buf<4x8xf32>, !buffer.buf<8x4xf32>)
        init(%zero : f32) {out_rank = 2 : i64, shape = array<i64: 4, 4, 8>,
        maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>],
        out_map = affine_map<(i, j) -> (i, j)>} combiner {
      ^bb0(%acc: f32, %x: f32, %y: f32):
        …
        btensor.yield %r : f32
    } : !buffer.buf<4x4xf32>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    i64,
)
from xdsl.ir import Attribute, Dialect, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.buffer import BufType
from gpuir.dialects.common import YieldingOp, expect_block_args, expect_type
from gpuir.dialects.mem import HOST, MemType

M0 = MemType(HOST)
PROPERTY_NAMES = ("out_rank", "shape", "maps", "post_maps", "out_map")


def _verify_maps(
    op: IRDLOperation,
    what: str,
    maps: ArrayAttr[AffineMapAttr],
    dims: int,
    buffers: Sequence[SSAValue],
) -> None:
    """One map per buffer, each from `dims` loop indices to the buffer's rank."""
    if len(maps.data) != len(buffers):
        raise VerifyException(
            f"'{op.name}' expects one map in {what} per input ({len(buffers)}), "
            f"found {len(maps.data)}"
        )
    for i, (map_attr, buf) in enumerate(zip(maps.data, buffers, strict=True)):
        amap, buf_type = map_attr.data, buf.type
        assert isinstance(buf_type, BufType)
        if amap.num_dims != dims or amap.num_symbols != 0:
            raise VerifyException(
                f"'{op.name}' expects {what}[{i}] to take {dims} dimensions and no symbols, "
                f"found {amap}"
            )
        if len(amap.results) != buf_type.rank:
            raise VerifyException(
                f"'{op.name}' expects {what}[{i}] to give {buf_type.rank} results "
                f"(the rank of {buf_type}), found {len(amap.results)}"
            )


def _verify_region(
    op: IRDLOperation,
    what: str,
    region: Region,
    args: Sequence[Attribute],
    result: Attribute | None,
) -> Attribute:
    """The region takes `args` and yields one value (of type `result` when given)."""
    block = region.block
    expect_block_args(op, what, block, args)
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.values) != 1:
        raise VerifyException(
            f"'{op.name}' expects its {what} to end in btensor.yield of one value"
        )
    yielded = last.values[0].type
    if result is not None and yielded != result:
        raise VerifyException(f"'{op.name}' expects its {what} to yield {result}, found {yielded}")
    return yielded


class MapReduceBase(IRDLOperation):
    """What `map_reduce` and `map_reduce_post` share: the loop box, the inputs, the combiner.
    The loop box's properties are fields here; each op declares its operands, regions and
    results, in order."""

    out_rank = prop_def(IntegerAttr[I64])
    shape = prop_def(DenseArrayBase.constr(i64))
    maps = prop_def(ArrayAttr[AffineMapAttr])
    out_map = prop_def(AffineMapAttr)

    @property
    def loop_shape(self) -> tuple[int, ...]:
        return tuple(self.shape.get_values())

    @property
    def output_shape(self) -> tuple[int, ...]:
        return self.loop_shape[: self.out_rank.value.data]

    def post_operands(self) -> Sequence[SSAValue]:
        return ()

    def verify_(self) -> None:
        shape, rank = self.loop_shape, self.out_rank.value.data
        if any(extent < 0 for extent in shape):
            raise VerifyException(f"'{self.name}' expects loop extents >= 0, found {list(shape)}")
        if not 0 <= rank <= len(shape):
            raise VerifyException(
                f"'{self.name}' expects out_rank in [0, {len(shape)}] (the loop rank), found {rank}"
            )
        _verify_maps(self, "maps", self.maps, len(shape), self.inputs)
        out_map = self.out_map.data
        if out_map.num_dims != rank or len(out_map.results) != rank or out_map.num_symbols:
            raise VerifyException(
                f"'{self.name}' expects out_map to map {rank} dimensions and no symbols to "
                f"{rank} results, found {out_map}"
            )
        acc = self.init.type
        elements = [b.type.element_type for b in self.inputs]  # type: ignore[attr-defined]
        _verify_region(self, "combiner", self.combiner, (acc, *elements), acc)
        out_type = self._verify_epilogue(acc)
        expect_type(self, "result", self.res.type, BufType(self.output_shape, out_type))

    def _verify_epilogue(self, acc: Attribute) -> Attribute:
        return acc

    # --- syntax -------------------------------------------------------------------------------

    @classmethod
    def _parse_group(cls, parser: Parser, keyword: str) -> list[SSAValue]:
        """`keyword(%a, %b : T1, T2)`, or nothing when the keyword is absent."""
        if parser.parse_optional_keyword(keyword) is None:
            return []
        with parser.in_parens():
            names: list[UnresolvedOperand] = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(names):
            parser.raise_error(
                f"'{cls.name}' lists {len(names)} operands but {len(types)} types in {keyword}(…)"
            )
        return [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]

    @classmethod
    def _parse_common(cls, parser: Parser):
        mem = parser.parse_operand(M0)
        inputs = cls._parse_group(parser, "ins")
        post_inputs = cls._parse_group(parser, "post_ins")
        init = cls._parse_group(parser, "init")
        if len(init) != 1:
            parser.raise_error(f"'{cls.name}' expects init(%value : type)")
        attributes = parser.parse_optional_attr_dict()
        properties = {k: attributes.pop(k) for k in PROPERTY_NAMES if k in attributes}
        parser.parse_keyword("combiner")
        combiner = parser.parse_region()
        epilogue = parser.parse_region() if parser.parse_optional_keyword("epilogue") else None
        parser.parse_punctuation(":")
        res_type = parser.parse_type()
        return (
            mem,
            inputs,
            post_inputs,
            init[0],
            properties,
            attributes,
            combiner,
            epilogue,
            res_type,
        )

    def _print_group(self, printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
        if not values:
            return
        printer.print_string(f" {keyword}(")
        printer.print_list(values, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
        printer.print_string(")")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mem)
        self._print_group(printer, "ins", self.inputs)
        self._print_group(printer, "post_ins", self.post_operands())
        self._print_group(printer, "init", [self.init])
        props = {k: v for k, v in self.properties.items() if k in PROPERTY_NAMES}
        printer.print_string(" ")
        printer.print_attr_dict(props | dict(self.attributes))
        printer.print_string(" combiner ")
        printer.print_region(self.combiner, print_entry_block_args=True)
        if self.regions[1:]:
            printer.print_string(" epilogue ")
            printer.print_region(self.regions[1], print_entry_block_args=True)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)


@irdl_op_definition
class MapReduceOp(MapReduceBase):
    name = "btensor.map_reduce"
    mem = operand_def(M0)
    inputs = var_operand_def(BufType)
    init = operand_def()
    combiner = region_def("single_block")
    res_mem = result_def(M0)
    res = result_def(BufType)

    @classmethod
    def parse(cls, parser: Parser) -> MapReduceOp:
        pos = parser.pos
        mem, inputs, post, init, props, attrs, combiner, epilogue, res = cls._parse_common(parser)
        if post or epilogue is not None:
            parser.raise_error(
                f"'{cls.name}' takes no post_ins or epilogue; use btensor.map_reduce_post", pos
            )
        return cls.build(
            operands=[mem, inputs, init],
            properties=props,
            attributes=attrs,
            regions=[combiner],
            result_types=[M0, res],
        )


@irdl_op_definition
class MapReducePostOp(MapReduceBase):
    name = "btensor.map_reduce_post"
    mem = operand_def(M0)
    inputs = var_operand_def(BufType)
    post_inputs = var_operand_def(BufType)
    init = operand_def()
    post_maps = prop_def(ArrayAttr[AffineMapAttr])
    combiner = region_def("single_block")
    epilogue = region_def("single_block")
    res_mem = result_def(M0)
    res = result_def(BufType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def post_operands(self) -> Sequence[SSAValue]:
        return self.post_inputs

    def _verify_epilogue(self, acc: Attribute) -> Attribute:
        rank = self.out_rank.value.data
        _verify_maps(self, "post_maps", self.post_maps, rank, self.post_inputs)
        elements = [b.type.element_type for b in self.post_inputs]  # type: ignore[attr-defined]
        return _verify_region(self, "epilogue", self.epilogue, (acc, *elements), None)

    @classmethod
    def parse(cls, parser: Parser) -> MapReducePostOp:
        pos = parser.pos
        mem, inputs, post, init, props, attrs, combiner, epilogue, res = cls._parse_common(parser)
        if epilogue is None:
            parser.raise_error(f"'{cls.name}' expects an epilogue region", pos)
        return cls.build(
            operands=[mem, inputs, post, init],
            properties=props,
            attributes=attrs,
            regions=[combiner, epilogue],
            result_types=[M0, res],
        )


@irdl_op_definition
class YieldOp(YieldingOp):
    """Terminator of the combiner and the epilogue."""

    name = "btensor.yield"
    traits = traits_def(IsTerminator(), HasParent(MapReduceOp, MapReducePostOp))


BTensor = Dialect("btensor", [MapReduceOp, MapReducePostOp, YieldOp], [])
