"""The matrix ops of the `gpu` dialect: a warp's tiles in registers (tensor cores), as MLIR's
`gpu.subgroup_mma_*` ops and `!gpu.mma_matrix` type model them (CUDA's `wmma`).

- `!gpu.fragment<RxCxT, "a">` (`"a"`, `"b"`, `"c"`: the left and right operand of a product,
  the accumulator): one RxC matrix held by the 32 lanes of a warp together. Two shapes of
  product exist (`tile_of`): `m16n16k16`, 16x16 tiles of f16 (`a`, `b`) and f16 or f32 (`c`);
  and `m8n8k4` of f64, an 8x4 `a`, a 4x8 `b` and an 8x8 `c`. Its layout over the lanes is
  opaque: only the ops below read it. interp and the cpu provider give lane `l` the `s`
  consecutive elements `s l … s l + s - 1` of the row-major matrix (`s = R C / 32`,
  `share_of`: 8 of a 16x16 tile, 1 of an f64 `a` or `b`, 2 of an f64 `c`); the NVPTX lowering
  gives the lanes `wmma`'s own registers.
- `gpu.mma_load`, `gpu.mma_store`: the tile whose element (r, c) is element `index + r * lead +
  c` (`transpose`: `index + c * lead + r`) of the scalars the pointer points to, counted
  row-major through its arrays (the pointer of a memref, the linear index of its element);
  `lead` (MLIR's `leadDimension`) is at least the tile's columns (`transpose`: its rows). Each
  lane accesses the elements of its share.
- `gpu.mma_compute`: `a · b + c` (on interp and the cpu provider: `c` plus the products in k
  order, added in f32 for f16 operands, in f64 for f64 ones, the sum rounded once to the
  accumulator's type); the operands are of one element type and the accumulator of their
  product's shape (f64 for f64 operands, f16 or f32 for f16 ones). `a_transpose` /
  `b_transpose` say that the operand was loaded with `transpose`, as MLIR's
  `subgroup_mma_compute` says it (the NVPTX lowering's layouts).
- `gpu.mma_constant`: every element the scalar; `gpu.mma_elementwise "addf" | "subf" | "mulf"
  | "divf" | "maxf" | "minf" | "negatef"`: the op on each element (`maxf` / `minf` propagate a
  NaN, as MLIR's lowering does, and order -0 below +0).

Every op is a warp collective (`WarpCollective`): the 32 lanes of a warp reach it together, with
the same pointer and index; each takes and gives the global and shared tokens, as the other warp
ops do. Departure from MLIR: only the `m16n16k16` tiles of f16 / f32 and the `m8n8k4` tiles of
f64 (MLIR's NVVM lowering has more: `m32n8k16`, integers, tf32).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    f16,
    f32,
    f64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.common import expect_type
from gpuir.dialects.gpu.common import M1, M3
from gpuir.dialects.gpu.device import WARP
from gpuir.dialects.mem import GLOBAL, SHARED, ArrayType, PtrType
from gpuir.dialects.traits import WarpCollective

TILE = 16
"""The rows and columns of every `m16n16k16` fragment (f16 and f32)."""
F64_TILES = {"a": (8, 4), "b": (4, 8), "c": (8, 8)}
"""The tiles of an `m8n8k4` product of f64: an 8x4 `a` times a 4x8 `b` into an 8x8 `c`."""
ELEMENT_TYPES = {"a": (f16, f64), "b": (f16, f64), "c": (f16, f32, f64)}
"""What each kind of fragment holds: f16 and f64 operands, an accumulator of either or f32."""
KINDS = tuple(ELEMENT_TYPES)
ELEMENTWISE_KINDS = {"addf": 2, "subf": 2, "mulf": 2, "divf": 2, "maxf": 2, "minf": 2}
ELEMENTWISE_KINDS["negatef"] = 1
"""`gpu.mma_elementwise`'s kinds and how many fragments each takes."""
ELEMENTWISE_OPS: dict[str, type[Operation]] = {
    "addf": arith.AddfOp,
    "subf": arith.SubfOp,
    "mulf": arith.MulfOp,
    "divf": arith.DivfOp,
    "maxf": arith.MaximumfOp,
    "minf": arith.MinimumfOp,
    "negatef": arith.NegfOp,
}
"""The `arith` op that each kind is on one element (`maximumf`, `minimumf`: a NaN wins, -0 <
+0), which the lowerings build."""


@irdl_attr_definition
class FragmentType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.fragment<16x16xf16, "a">`: a warp's tile in registers (module docstring)."""

    name = "gpu.fragment"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    kind: StringAttr

    def __init__(self, element_type: Attribute, kind: str):
        rows, cols = tile_of(element_type, kind)
        super().__init__(ArrayAttr([IntAttr(rows), IntAttr(cols)]), element_type, StringAttr(kind))

    @property
    def rows_cols(self) -> tuple[int, int]:
        rows, cols = (d.data for d in self.shape.data)
        return rows, cols

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        """A bad shape, kind or element is a parse error at the type (which gpu-opt places)."""
        with parser.in_angle_brackets():
            pos = parser.pos
            rows, cols, element, kind = parse_tile(parser, "the fragment's kind")
            if (problem := fragment_problem((rows, cols), element, kind)) is not None:
                parser.raise_error(problem, pos, parser.pos)
        return (ArrayAttr([IntAttr(rows), IntAttr(cols)]), element, StringAttr(kind))

    def print_parameters(self, printer: Printer) -> None:
        rows, cols = self.rows_cols
        printer.print_string(f"<{rows}x{cols}x")
        printer.print_attribute(self.element_type)
        printer.print_string(f', "{self.kind.data}">')

    def verify(self) -> None:
        problem = fragment_problem(self.rows_cols, self.element_type, self.kind.data)
        if problem is not None:
            raise VerifyException(problem)


def parse_tile(parser: AttrParser, what: str) -> tuple[int, int, Attribute, str]:
    """`16x16xf16, "a"`: a tile's rows, columns, element type and the string after them (the
    syntax of `!gpu.fragment` and of MLIR's `!gpu.mma_matrix`)."""
    rows = parser.parse_shape_dimension()
    parser.parse_shape_delimiter()
    cols = parser.parse_shape_dimension()
    parser.parse_shape_delimiter()
    element = parser.parse_type()
    parser.parse_punctuation(",")
    return rows, cols, element, parser.parse_str_literal(what)


def tile_of(element: Attribute, kind: str) -> tuple[int, int]:
    """The rows and columns of a fragment of `element` and `kind` (module docstring)."""
    if element == f64:
        return F64_TILES[kind]
    return TILE, TILE


def share_of(type_: FragmentType) -> int:
    """The elements of a fragment that each lane holds (module docstring)."""
    rows, cols = type_.rows_cols
    return rows * cols // WARP


def fragment_problem(shape: tuple[int, ...], element: Attribute, kind: str) -> str | None:
    """What is wrong with a fragment of `shape`, `element` and `kind`, if anything."""
    if kind not in KINDS:
        return f'!gpu.fragment\'s kind is one of "a", "b", "c", found "{kind}"'
    allowed = ELEMENT_TYPES[kind]
    if element not in allowed:
        wanted = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}"
        return f'!gpu.fragment of kind "{kind}" holds {wanted}, found {element}'
    if shape != tile_of(element, kind):
        rows, cols = tile_of(element, kind)
        return (
            f'!gpu.fragment of kind "{kind}" and {element} is {rows}x{cols}, found '
            f"{'x'.join(map(str, shape))}"
        )
    return None


def scalar_of(pointee: Attribute) -> Attribute:
    """The scalar a pointer's arrays hold."""
    while isinstance(pointee, ArrayType):
        pointee = pointee.element_type
    return pointee


def expect_kind(op: IRDLOperation, what: str, type_: Attribute, kinds: str) -> FragmentType:
    if not isinstance(type_, FragmentType) or type_.kind.data not in kinds:
        wanted = " or ".join(f'"{k}"' for k in kinds)
        raise VerifyException(
            f"'{op.name}' expects its {what} to be a !gpu.fragment of kind {wanted}, found {type_}"
        )
    return type_


class FragmentOp(IRDLOperation):
    """The matrix ops that make a fragment: their results, the next `M<1>, M<3>` and the
    fragment (each op declares its operands, in order: IRDL collects a subclass's fields
    before its base's)."""

    res_m1 = result_def(M1)
    res_m3 = result_def(M3)
    res = result_def(FragmentType)


class MmaAccessOp(IRDLOperation):
    """What `gpu.mma_load` and `gpu.mma_store` check: the pointer's space and scalar, `lead`."""

    VERB: ClassVar[str]

    @staticmethod
    def access_properties(lead: int, transpose: bool) -> dict[str, Attribute]:
        """The `lead` and `transpose` properties of an access."""
        properties: dict[str, Attribute] = {"lead": IntegerAttr(lead, 64)}
        if transpose:
            properties["transpose"] = UnitAttr()
        return properties

    def check_access(self, fragment: FragmentType) -> None:
        ptr, lead = self.ptr.type, self.lead.value.data  # type: ignore[attr-defined]
        assert isinstance(ptr, PtrType)
        if ptr.space.data not in (GLOBAL, SHARED):
            raise VerifyException(
                f"'{self.name}' {self.VERB} global or shared memory (address space 1 or 3), "
                f"found address space {ptr.space.data}"
            )
        if scalar_of(ptr.pointee) != fragment.element_type:
            raise VerifyException(
                f"'{self.name}' expects a pointer to {fragment.element_type} elements, found {ptr}"
            )
        rows, cols = fragment.rows_cols
        least = rows if self.transpose is not None else cols  # type: ignore[attr-defined]
        if lead < least:
            raise VerifyException(
                f"'{self.name}' expects a lead of at least {least} elements, found {lead}"
            )


@irdl_op_definition
class MmaLoadOp(MmaAccessOp, FragmentOp):
    """`%a1, %a3, %f = gpu.mma_load %m1, %m3, %p[%i] {lead = 32} : !mem.ptr<…> ->
    !gpu.fragment<16x16xf16, "a">`: the tile at element `%i` (module docstring)."""

    name = "gpu.mma_load"
    VERB: ClassVar[str] = "loads from"
    traits = traits_def(WarpCollective(), MemoryReadEffect())
    irdl_options = (ParsePropInAttrDict(),)
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    ptr = operand_def(PtrType)
    index = operand_def(IndexType)
    lead = prop_def(IntegerAttr)
    transpose = opt_prop_def(UnitAttr)

    assembly_format = "$m1 `,` $m3 `,` $ptr `[` $index `]` attr-dict `:` type($ptr) `->` type($res)"

    def __init__(
        self,
        m1: SSAValue,
        m3: SSAValue,
        ptr: SSAValue,
        index: SSAValue,
        lead: int,
        transpose: bool,
        type_: FragmentType,
    ):
        super().__init__(
            operands=[m1, m3, ptr, index],
            properties=self.access_properties(lead, transpose),
            result_types=[M1, M3, type_],
        )

    def verify_(self) -> None:
        assert isinstance(self.res.type, FragmentType)
        self.check_access(self.res.type)


@irdl_op_definition
class MmaStoreOp(MmaAccessOp):
    """`%a1, %a3 = gpu.mma_store %m1, %m3, %f, %p[%i] {lead = 32} : !gpu.fragment<16x16xf32,
    "c">, !mem.ptr<…>`: an accumulator's tile to element `%i` on (module docstring)."""

    name = "gpu.mma_store"
    VERB: ClassVar[str] = "stores to"
    traits = traits_def(WarpCollective(), MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def(FragmentType)
    ptr = operand_def(PtrType)
    index = operand_def(IndexType)
    lead = prop_def(IntegerAttr)
    transpose = opt_prop_def(UnitAttr)
    res_m1 = result_def(M1)
    res_m3 = result_def(M3)

    assembly_format = (
        "$m1 `,` $m3 `,` $value `,` $ptr `[` $index `]` attr-dict `:` type($value) `,` type($ptr)"
    )

    def __init__(
        self,
        m1: SSAValue,
        m3: SSAValue,
        value: SSAValue,
        ptr: SSAValue,
        index: SSAValue,
        lead: int,
        transpose: bool,
    ):
        super().__init__(
            operands=[m1, m3, value, ptr, index],
            properties=self.access_properties(lead, transpose),
            result_types=[M1, M3],
        )

    def verify_(self) -> None:
        self.check_access(expect_kind(self, "value", self.value.type, "c"))


@irdl_op_definition
class MmaComputeOp(FragmentOp):
    """`%a1, %a3, %d = gpu.mma_compute %m1, %m3, %a, %b, %c : !gpu.fragment<16x16xf16, "a">,
    !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xf32, "c"> -> !gpu.fragment<16x16xf32,
    "c">`: `a · b + c` (or of the f64 tiles: `!gpu.fragment<8x4xf64, "a">`, `<4x8xf64, "b">`,
    `<8x8xf64, "c">`)."""

    name = "gpu.mma_compute"
    traits = traits_def(WarpCollective())
    irdl_options = (ParsePropInAttrDict(),)
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    a = operand_def(FragmentType)
    b = operand_def(FragmentType)
    c = operand_def(FragmentType)
    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)

    assembly_format = (
        "$m1 `,` $m3 `,` $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) "
        "`->` type($res)"
    )

    def __init__(
        self,
        m1: SSAValue,
        m3: SSAValue,
        a: SSAValue,
        b: SSAValue,
        c: SSAValue,
        a_transpose: bool = False,
        b_transpose: bool = False,
    ):
        properties: dict[str, Attribute] = {}
        for name, given in (("a_transpose", a_transpose), ("b_transpose", b_transpose)):
            if given:
                properties[name] = UnitAttr()
        super().__init__(
            operands=[m1, m3, a, b, c], properties=properties, result_types=[M1, M3, c.type]
        )

    def verify_(self) -> None:
        a = expect_kind(self, "left operand", self.a.type, "a")
        b = expect_kind(self, "right operand", self.b.type, "b")
        c = expect_kind(self, "accumulator", self.c.type, "c")
        if a.element_type != b.element_type:
            raise VerifyException(
                f"'{self.name}' expects its operands of one element type, found "
                f"{a.element_type} and {b.element_type}"
            )
        if (a.element_type == f64) != (c.element_type == f64):
            wanted = "f64" if a.element_type == f64 else "f16 or f32"
            raise VerifyException(
                f"'{self.name}' expects an accumulator of {wanted} for operands of "
                f"{a.element_type}, found {c.element_type}"
            )
        expect_type(self, "result", self.res.type, self.c.type)


@irdl_op_definition
class MmaConstantOp(FragmentOp):
    """`%a1, %a3, %f = gpu.mma_constant %m1, %m3, %x : f32 -> !gpu.fragment<16x16xf32, "c">`:
    every element `%x`."""

    name = "gpu.mma_constant"
    traits = traits_def(WarpCollective())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    value = operand_def(AnyFloat)

    assembly_format = "$m1 `,` $m3 `,` $value attr-dict `:` type($value) `->` type($res)"

    def __init__(self, m1: SSAValue, m3: SSAValue, value: SSAValue, type_: FragmentType):
        super().__init__(operands=[m1, m3, value], result_types=[M1, M3, type_])

    def verify_(self) -> None:
        assert isinstance(self.res.type, FragmentType)
        expect_type(self, "value", self.value.type, self.res.type.element_type)


@irdl_op_definition
class MmaElementwiseOp(FragmentOp):
    """`%a1, %a3, %f = gpu.mma_elementwise "addf" %m1, %m3, %x, %y : !gpu.fragment<…>,
    !gpu.fragment<…> -> !gpu.fragment<…>`: the op on each element of fragments of one type."""

    name = "gpu.mma_elementwise"
    traits = traits_def(WarpCollective())
    m1 = operand_def(M1)
    m3 = operand_def(M3)
    values = var_operand_def(FragmentType)
    kind = prop_def(StringAttr)

    assembly_format = "$kind $m1 `,` $m3 `,` $values attr-dict `:` type($values) `->` type($res)"

    def __init__(self, kind: str, m1: SSAValue, m3: SSAValue, values: Sequence[SSAValue]):
        super().__init__(
            operands=[m1, m3, values],
            properties={"kind": StringAttr(kind)},
            result_types=[M1, M3, values[0].type],
        )

    def verify_(self) -> None:
        kind = self.kind.data
        count = ELEMENTWISE_KINDS.get(kind)
        if count is None:
            raise VerifyException(
                f"'{self.name}' expects kind to be one of {', '.join(ELEMENTWISE_KINDS)}, "
                f'found "{kind}"'
            )
        if len(self.values) != count:
            raise VerifyException(
                f"'{self.name}' \"{kind}\" takes {count} fragment(s), found {len(self.values)}"
            )
        for value in self.values:
            expect_type(self, "operands", value.type, self.res.type)


MMA_OPS = (MmaLoadOp, MmaStoreOp, MmaComputeOp, MmaConstantOp, MmaElementwiseOp)
"""The matrix ops, all warp collectives."""
