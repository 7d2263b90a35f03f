"""The buffer type `!buffer.buf<…>` and its layouts: row-major strides, strided views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntAttr,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.mem import HOST, MemType

M0 = MemType(HOST)


def row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """The strides (in elements) of a dense row-major buffer of static `shape`."""
    strides: list[int] = []
    step = 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def is_row_major(shape: Sequence[int], strides: Sequence[int], offset: int) -> bool:
    """Whether `strides`/`offset` address `shape` exactly as the dense layout does (the stride
    of an extent-1 dimension never moves, so it does not matter)."""
    dense = row_major_strides(shape)
    return offset == 0 and all(
        extent == 1 or stride == expected
        for extent, stride, expected in zip(shape, strides, dense, strict=True)
    )


def normalised_layout(
    shape: Sequence[int], layout: StridedLayoutAttr | NoneAttr
) -> StridedLayoutAttr | NoneAttr:
    """No layout for one that is the dense row-major one; `layout` itself otherwise (also when
    it is malformed: the type's verifier says what is wrong)."""
    if not isinstance(layout, StridedLayoutAttr):
        return layout
    strides, offset = layout.get_strides(), layout.get_offset()
    if DYNAMIC_INDEX in shape or len(strides) != len(shape) or offset is None:
        return layout
    if any(s is None for s in strides):
        return layout
    if is_row_major(shape, cast(Sequence[int], strides), offset):
        return NoneAttr()
    return layout


@irdl_attr_definition
class BufType(ParametrizedAttribute, TypeAttribute):
    """`!buffer.buf<S0xS1x…xT>`: a host buffer; each extent static or `?`.

    With a layout, `!buffer.buf<4x8xf32, strided<[1, 4], offset: 2>>`, it is a view: element
    `(i0, i1, …)` is element `offset + Σ i_k·stride_k` of the storage it views (the storage of
    the dense buffer the view ops started from). A layout's strides are static and `>= 0`; its
    offset is `>= 0` or `?`, and its shape's extents may be `?` (a dynamic layout: a
    `buffer.subview` with SSA offsets or sizes makes one; the run-time values come from the
    view ops, `docs/ir-extensions.md`). Without one the buffer is dense row-major at offset 0; a
    static layout that addresses like that is dropped (`normalised_layout`), so both spellings
    are one type.
    """

    name = "buffer.buf"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    layout: StridedLayoutAttr | NoneAttr

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Attribute,
        layout: StridedLayoutAttr | NoneAttr | None = None,
    ):
        layout = normalised_layout(shape, layout or NoneAttr())
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), element_type, layout)

    @staticmethod
    def strided(
        shape: Sequence[int], element_type: Attribute, strides: Sequence[int], offset: int = 0
    ) -> BufType:
        """A view type; dense when `strides`/`offset` are the row-major ones (`offset`
        `DYNAMIC_INDEX`: `?`)."""
        layout_offset = None if offset == DYNAMIC_INDEX else offset
        return BufType(shape, element_type, StridedLayoutAttr(strides, layout_offset))

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def rank(self) -> int:
        return len(self.shape.data)

    @property
    def dynamic_dims(self) -> int:
        return sum(1 for d in self.get_shape() if d == DYNAMIC_INDEX)

    def is_dense(self) -> bool:
        return isinstance(self.layout, NoneAttr)

    def strides(self) -> tuple[int, ...]:
        """The strides in elements (the row-major ones of a dense buffer, whose inner extents
        must be static)."""
        if isinstance(self.layout, StridedLayoutAttr):
            return tuple(cast(Sequence[int], self.layout.get_strides()))
        return row_major_strides(self.get_shape())

    def offset(self) -> int:
        """The layout's offset; `DYNAMIC_INDEX` for `?`."""
        if isinstance(self.layout, StridedLayoutAttr):
            offset = self.layout.get_offset()
            return DYNAMIC_INDEX if offset is None else offset
        return 0

    def is_dynamic_view(self) -> bool:
        """Whether this is a view whose offset or an extent is only known at run time."""
        return not self.is_dense() and (
            self.offset() == DYNAMIC_INDEX or DYNAMIC_INDEX in self.get_shape()
        )

    def storage_span(self) -> int:
        """How many elements of its storage a static buffer reaches, from the first: one past
        the last reachable element (0 when the buffer is empty)."""
        shape = self.get_shape()
        if 0 in shape:
            return 0
        return (
            self.offset() + sum((n - 1) * s for n, s in zip(shape, self.strides(), strict=True)) + 1
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape, element_type = parser.parse_ranked_shape()
            layout: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                layout = parser.parse_attribute()
                if not isinstance(layout, StridedLayoutAttr):
                    parser.raise_error(
                        f"expected a strided layout (strided<[…], offset: …>), found {layout}",
                        pos,
                        parser.pos,
                    )
        return (
            ArrayAttr(IntAttr(d) for d in shape),
            element_type,
            normalised_layout(shape, layout),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for extent in self.get_shape():
            printer.print_string("?x" if extent == DYNAMIC_INDEX else f"{extent}x")
        printer.print_attribute(self.element_type)
        if isinstance(self.layout, StridedLayoutAttr):
            printer.print_string(", ")
            printer.print_attribute(self.layout)
        printer.print_string(">")

    def verify(self) -> None:
        shape = self.get_shape()
        for extent in shape:
            if extent < 0 and extent != DYNAMIC_INDEX:
                raise VerifyException(f"!buffer.buf extents must be ? or >= 0, found {extent}")
        layout = self.layout
        if not isinstance(layout, StridedLayoutAttr):
            return
        strides, offset = layout.get_strides(), layout.get_offset()
        if len(strides) != len(shape):
            raise VerifyException(
                f"!buffer.buf layout {layout} needs {len(shape)} strides (one per dimension), "
                f"found {len(strides)}"
            )
        if any(s is None or s < 0 for s in strides) or (offset is not None and offset < 0):
            raise VerifyException(
                f"!buffer.buf layout strides must be static and >= 0, and its offset ? or "
                f">= 0, found {layout}"
            )
        if offset is None or DYNAMIC_INDEX in shape:
            return
        if is_row_major(shape, cast(Sequence[int], strides), offset):
            raise VerifyException(
                f"!buffer.buf layout {layout} is the dense one of {list(shape)}: spell the type "
                "without it"
            )
