"""The `mem` dialect: memory tokens, pointers and arrays per address space.

It models MimIR's `mem` plugin (`%mem.M`, `%mem.Ptr`, `«n; T»`, `%mem.alloc`, `%mem.load`, …) the
way MLIR would spell it. Every op that touches memory of address space `a` takes the current token
`!mem.M<a>` and returns the next one; the token chains are the only ordering of memory effects.

Departures from MimIR:
- arrays are a type of their own, `!mem.array<N x T>` / `!mem.array<? x T>`, used only as a
  pointee; a run-time extent is an `index` operand of the op that allocates the array;
- `mem.slot` has no unique id (its SSA result is its identity) and `mem.remem` stays (newer
  MimIR replaced it with `mem.fresh`).

The custom syntax names the pointer type once and derives the token types from its address
space, e.g. `%m2, %v = mem.load %m1, %p : !mem.ptr<i32, 1>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerType,
    StringAttr,
    i1,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    MemoryAllocEffect,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.common import expect_type, parse_type_of

HOST, GLOBAL, SHARED, CONST, LOCAL = 0, 1, 3, 4, 5
SPACE_NAMES = {HOST: "host", GLOBAL: "global", SHARED: "shared", CONST: "const", LOCAL: "local"}
PRINTABLE = (IntegerType(32), IntegerType(64), Float32Type(), Float64Type())
"""The element types `mem.print_memref` prints (mlir-runner's `printMemref{I32,I64,F32,F64}`)."""


def _space_error(space: int) -> str | None:
    if space in SPACE_NAMES:
        return None
    known = ", ".join(f"{a} ({n})" for a, n in SPACE_NAMES.items())
    return f"address space {space} is not one of {known}"


def _verify_space(space: int) -> None:
    if (error := _space_error(space)) is not None:
        raise VerifyException(error)


def _parse_space(parser: AttrParser) -> IntAttr:
    """An address space; an unknown one is a parse error at the number (not a verifier error
    escaping the parser, which gpu-opt cannot place)."""
    pos = parser.pos
    space = parser.parse_integer(allow_boolean=False)
    if (error := _space_error(space)) is not None:
        parser.raise_error(error, pos, parser.pos)
    return IntAttr(space)


@irdl_attr_definition
class MemType(ParametrizedAttribute, TypeAttribute):
    """`!mem.M<a>`: the memory token of address space `a`."""

    name = "mem.M"
    space: IntAttr

    def __init__(self, space: int | IntAttr):
        super().__init__(IntAttr(space) if isinstance(space, int) else space)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (_parse_space(parser),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.space.data}>")

    def verify(self) -> None:
        _verify_space(self.space.data)


def _inner_dynamic_error(inner: ArrayType) -> str:
    return f"only the outermost extent of a !mem.array may be '?', found inner {inner}"


@irdl_attr_definition
class ArrayType(ParametrizedAttribute, TypeAttribute):
    """`!mem.array<N x T>` or `!mem.array<? x T>`: a pointee of `N` (or a run-time number of) `T`s.

    Only the outermost extent of nested arrays may be `?`.
    """

    name = "mem.array"
    size: IntAttr
    element_type: Attribute

    def __init__(self, size: int, element_type: Attribute):
        super().__init__(IntAttr(size), element_type)

    @property
    def is_dynamic(self) -> bool:
        return self.size.data == DYNAMIC_INDEX

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            size = parser.parse_shape_dimension()
            parser.parse_shape_delimiter()
            pos = parser.pos
            element_type = parser.parse_type()
            if isinstance(element_type, ArrayType) and element_type.is_dynamic:
                parser.raise_error(_inner_dynamic_error(element_type), pos, parser.pos)
        return (IntAttr(size), element_type)

    def print_parameters(self, printer: Printer) -> None:
        size = "?" if self.is_dynamic else str(self.size.data)
        printer.print_string(f"<{size} x ")
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if not self.is_dynamic and self.size.data < 0:
            raise VerifyException(f"!mem.array extent must be ? or >= 0, got {self.size.data}")
        if isinstance(self.element_type, ArrayType) and self.element_type.is_dynamic:
            raise VerifyException(_inner_dynamic_error(self.element_type))


@irdl_attr_definition
class PtrType(ParametrizedAttribute, TypeAttribute):
    """`!mem.ptr<T, a>`: a pointer to a `T` in address space `a`."""

    name = "mem.ptr"
    pointee: Attribute
    space: IntAttr

    def __init__(self, pointee: Attribute, space: int | IntAttr):
        super().__init__(pointee, IntAttr(space) if isinstance(space, int) else space)

    @property
    def token_type(self) -> MemType:
        """The token that orders accesses through this pointer."""
        return MemType(self.space)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pointee = parser.parse_type()
            parser.parse_punctuation(",")
            space = _parse_space(parser)
        return (pointee, space)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.pointee)
        printer.print_string(f", {self.space.data}>")

    def verify(self) -> None:
        _verify_space(self.space.data)


def static_extent_ok(
    pointee: Attribute, extent: SSAValue | None, op: IRDLOperation, takes_extent: bool = True
) -> None:
    """Check that `extent` is present iff `pointee` is `!mem.array<? x …>`; an op that
    `takes_extent=False` (it has no extent operand) only allocates static pointees."""
    dynamic = isinstance(pointee, ArrayType) and pointee.is_dynamic
    if dynamic and not takes_extent:
        raise VerifyException(
            f"'{op.name}' expects a pointee of static size (it takes no extent operand), "
            f"found {pointee}"
        )
    if dynamic and extent is None:
        raise VerifyException(
            f"'{op.name}' allocates {pointee}, so it expects an extent operand, found none"
        )
    if not dynamic and extent is not None:
        raise VerifyException(
            f"'{op.name}' allocates {pointee}, whose size is static, so it expects no extent "
            "operand, found one"
        )


def tokens_match_ptr(
    op: IRDLOperation, mem: SSAValue, res_mem: SSAValue, ptr_type: Attribute
) -> None:
    """Check that the token `mem` is of its pointer's address space and the next token
    `res_mem` of `mem`'s type."""
    assert isinstance(ptr_type, PtrType) and isinstance(mem.type, MemType)
    if mem.type.space != ptr_type.space:
        raise VerifyException(
            f"'{op.name}' expects the token of the pointer's address space "
            f"({ptr_type.token_type}), found {mem.type}"
        )
    expect_type(op, "token result", res_mem.type, mem.type)


def not_an_array_value(op: IRDLOperation, value_type: Attribute, what: str) -> None:
    if isinstance(value_type, ArrayType):
        raise VerifyException(
            f"'{op.name}' {what} {value_type}, but an array is only ever a pointee; "
            "address its elements with mem.lea"
        )


class PtrSyntaxOp(IRDLOperation):
    """Base of the `mem` ops whose custom syntax is `op %a, %b, … : !mem.ptr<T, a>`: the one
    pointer type written fixes every other operand and result type.

    Subclasses give `_operand_types(ptr, count)` and `_result_types(ptr)` for the parser and
    `_syntax_ptr()` (the pointer type to print); `ARITIES` lists the valid operand counts.
    """

    ARITIES: ClassVar[tuple[int, ...]]

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        raise NotImplementedError

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        raise NotImplementedError

    @classmethod
    def _group_operands(cls, operands: list[SSAValue]) -> list[SSAValue | list[SSAValue]]:
        return list(operands)

    def _syntax_ptr(self) -> Attribute:
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser) -> PtrSyntaxOp:
        return cls.parse_rest(parser)

    @classmethod
    def parse_rest(cls, parser: Parser, properties: dict[str, Attribute] | None = None):
        """The operands, attributes and pointer type (after what a subclass parses first)."""
        pos = parser.pos
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(unresolved) not in cls.ARITIES:
            expected = " or ".join(str(n) for n in cls.ARITIES)
            parser.raise_error(
                f"'{cls.name}' expects {expected} operands, found {len(unresolved)}",
                pos,
                parser.pos,
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr = parse_type_of(parser, PtrType, "!mem.ptr")
        types = cls._operand_types(ptr, len(unresolved))
        operands = [parser.resolve_operand(o, t) for o, t in zip(unresolved, types, strict=True)]
        return cls.build(
            operands=cls._group_operands(operands),
            result_types=cls._result_types(ptr),
            attributes=attributes,
            properties=properties or {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self._syntax_ptr())


class AllocatingOp(PtrSyntaxOp):
    """Shape of `mem.alloc`, `mem.malloc`, `mem.slot`, `mem.mslot`: a token (and a size) in, the
    next token and the new pointer out. (IRDL collects a subclass's fields before its base's, so
    each op declares its operands, in order, and this base the results.)"""

    res_mem = result_def(MemType)
    res = result_def(PtrType)

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr.token_type] + [IndexType()] * (count - 1)

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        return [ptr.token_type, ptr]

    def _syntax_ptr(self) -> Attribute:
        return self.res.type

    def verify_(self) -> None:
        tokens_match_ptr(self, self.mem, self.res_mem, self.res.type)


@irdl_op_definition
class AllocOp(AllocatingOp):
    """Allocate one `T`; `extent` is present iff `T` is `!mem.array<? x …>`."""

    name = "mem.alloc"
    traits = traits_def(MemoryAllocEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (1, 2)
    mem = operand_def(MemType)
    extent = opt_operand_def(IndexType)

    def __init__(self, mem: SSAValue, ptr_type: PtrType, extent: SSAValue | None = None):
        super().__init__(
            operands=[mem, [extent] if extent else []],
            result_types=[ptr_type.token_type, ptr_type],
        )

    @classmethod
    def _group_operands(cls, operands: list[SSAValue]) -> list[SSAValue | list[SSAValue]]:
        return [operands[0], operands[1:]]

    def verify_(self) -> None:
        super().verify_()
        assert isinstance(self.res.type, PtrType)
        static_extent_ok(self.res.type.pointee, self.extent, self)


class SizedAllocatingOp(AllocatingOp):
    """Shape of `mem.malloc` and `mem.mslot`: `size` bytes."""

    traits = traits_def(MemoryAllocEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (2,)
    mem = operand_def(MemType)
    size = operand_def(IndexType)

    def __init__(self, mem: SSAValue, size: SSAValue, ptr_type: PtrType):
        super().__init__(operands=[mem, size], result_types=[ptr_type.token_type, ptr_type])


@irdl_op_definition
class MallocOp(SizedAllocatingOp):
    """Allocate `size` bytes."""

    name = "mem.malloc"


@irdl_op_definition
class SlotOp(AllocatingOp):
    """A slot that lives as long as the enclosing function (in a kernel with `a = 3`: one static
    shared array per work-group)."""

    name = "mem.slot"
    traits = traits_def(MemoryAllocEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (1,)
    mem = operand_def(MemType)

    def __init__(self, mem: SSAValue, ptr_type: PtrType):
        super().__init__(operands=[mem], result_types=[ptr_type.token_type, ptr_type])

    def verify_(self) -> None:
        super().verify_()
        assert isinstance(self.res.type, PtrType)
        static_extent_ok(self.res.type.pointee, None, self, takes_extent=False)


@irdl_op_definition
class MslotOp(SizedAllocatingOp):
    """A slot of `size` bytes."""

    name = "mem.mslot"


class AccessOp(PtrSyntaxOp):
    """Shape of `mem.free`, `mem.load`, `mem.store`: the token, the pointer, maybe a value."""

    def _syntax_ptr(self) -> Attribute:
        return self.ptr.type

    def verify_(self) -> None:
        tokens_match_ptr(self, self.mem, self.res_mem, self.ptr.type)

    def check_value(self, value_type: Attribute, verb: str, done: str) -> None:
        """The value loaded or stored (`verb`, `done`: `load`, `loaded`) is the pointee, and
        no array."""
        pointee = self.ptr.type.pointee
        if value_type != pointee:
            raise VerifyException(
                f"'{self.name}' expects the {done} type to be the pointee {pointee}, found "
                f"{value_type}"
            )
        not_an_array_value(self, value_type, f"would {verb} a value of type")


class TokenPtrOp(AccessOp):
    """Shape of `mem.free` and `mem.print_memref`: the token and the pointer in, the token
    out."""

    ARITIES: ClassVar[tuple[int, ...]] = (2,)
    mem = operand_def(MemType)
    ptr = operand_def(PtrType)
    res_mem = result_def(MemType)

    def __init__(self, mem: SSAValue, ptr: SSAValue):
        super().__init__(operands=[mem, ptr], result_types=[mem.type])

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr.token_type, ptr]

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        return [ptr.token_type]


@irdl_op_definition
class FreeOp(TokenPtrOp):
    name = "mem.free"
    traits = traits_def(MemoryFreeEffect())


@irdl_op_definition
class PrintMemrefOp(TokenPtrOp):
    """Print host memory as mlir-runner's `printMemrefF32` (and `I32`, `I64`, `F64`) prints a
    memref: a header (`Unranked Memref base@ = 0x… rank = R offset = 0 sizes = […] strides =
    […] data = `), then the elements in nested brackets. The pointee is a scalar or nested
    arrays of one (`i32`, `i64`, `f32`, `f64`); an outer `?` extent is every whole element from
    the pointer to the end of its allocation. Integers print in decimal, floats as C's `%g`."""

    name = "mem.print_memref"
    traits = traits_def(MemoryReadEffect())

    def verify_(self) -> None:
        super().verify_()
        assert isinstance(self.ptr.type, PtrType)
        if self.ptr.type.space.data != HOST:
            raise VerifyException(f"'{self.name}' prints host memory (address space 0)")
        element = self.ptr.type.pointee
        while isinstance(element, ArrayType):
            element = element.element_type
        if element not in PRINTABLE:
            raise VerifyException(
                f"'{self.name}' prints elements of type i32, i64, f32 or f64, found {element}"
            )


@irdl_op_definition
class LoadOp(AccessOp):
    name = "mem.load"
    traits = traits_def(MemoryReadEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (2,)
    mem = operand_def(MemType)
    ptr = operand_def(PtrType)
    res_mem = result_def(MemType)
    res = result_def()

    def __init__(self, mem: SSAValue, ptr: SSAValue):
        assert isinstance(ptr.type, PtrType)
        super().__init__(operands=[mem, ptr], result_types=[mem.type, ptr.type.pointee])

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr.token_type, ptr]

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        return [ptr.token_type, ptr.pointee]

    def verify_(self) -> None:
        super().verify_()
        self.check_value(self.res.type, "load", "loaded")


@irdl_op_definition
class StoreOp(AccessOp):
    name = "mem.store"
    traits = traits_def(MemoryWriteEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (3,)
    mem = operand_def(MemType)
    ptr = operand_def(PtrType)
    value = operand_def()
    res_mem = result_def(MemType)

    def __init__(self, mem: SSAValue, ptr: SSAValue, value: SSAValue):
        super().__init__(operands=[mem, ptr, value], result_types=[mem.type])

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr.token_type, ptr, ptr.pointee]

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        return [ptr.token_type]

    def verify_(self) -> None:
        super().verify_()
        self.check_value(self.value.type, "store", "stored")


ATOMIC_INT_KINDS = ("add", "sub", "max", "min", "umax", "umin", "and", "or", "xor", "xchg")
ATOMIC_FLOAT_KINDS = ("add", "max", "min", "xchg")
ATOMIC_SPACES = (HOST, GLOBAL, SHARED)


def is_word_scalar(t: Attribute) -> bool:
    """Whether `t` is a scalar of 32 or 64 bits: `index`, `i32` or `i64`, `f32` or `f64` (what
    an atomic updates and `gpu.shuffle` exchanges)."""
    if isinstance(t, IntegerType):
        return t.width.data in (32, 64)
    return isinstance(t, IndexType | Float32Type | Float64Type)


def atomic_operand_ok(op: IRDLOperation, ptr: Attribute) -> Attribute:
    """The pointee of an atomic's pointer, checked: in space 0, 1 or 3; a 32- or 64-bit
    integer (or `index`), an f32 or an f64."""
    assert isinstance(ptr, PtrType)
    space = ptr.space.data
    if space not in ATOMIC_SPACES:
        raise VerifyException(
            f"'{op.name}' cannot be used in address space {space}: atomics work on host (0), "
            "global (1) and shared (3) memory"
        )
    t = ptr.pointee
    if is_word_scalar(t):
        return t
    raise VerifyException(
        f"'{op.name}' expects a pointer to a 32- or 64-bit integer, index, f32 or f64, found {t}"
    )


@irdl_op_definition
class AtomicRmwOp(AccessOp):
    """`%m, %old = mem.atomic_rmw "add" %m1, %p, %v : !mem.ptr<i32, 1>`: atomically
    `*p = old ⊕ v`; the old value. Relaxed, device-scoped (CUDA's `atomicAdd`)."""

    name = "mem.atomic_rmw"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (3,)
    mem = operand_def(MemType)
    ptr = operand_def(PtrType)
    value = operand_def()
    kind = prop_def(StringAttr)
    res_mem = result_def(MemType)
    res = result_def()

    def __init__(self, kind: str, mem: SSAValue, ptr: SSAValue, value: SSAValue):
        super().__init__(
            operands=[mem, ptr, value],
            properties={"kind": StringAttr(kind)},
            result_types=[mem.type, value.type],
        )

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr.token_type, ptr, ptr.pointee]

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        return [ptr.token_type, ptr.pointee]

    @classmethod
    def parse(cls, parser: Parser) -> PtrSyntaxOp:
        kind = parser.parse_str_literal(" for the atomic operation's kind")
        return cls.parse_rest(parser, {"kind": StringAttr(kind)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.kind.data)
        super().print(printer)

    def verify_(self) -> None:
        super().verify_()
        t = atomic_operand_ok(self, self.ptr.type)
        kind = self.kind.data
        kinds = ATOMIC_FLOAT_KINDS if isinstance(t, Float32Type | Float64Type) else ATOMIC_INT_KINDS
        if kind not in kinds:
            raise VerifyException(
                f"'{self.name}' on {t} expects kind to be one of {', '.join(kinds)}, "
                f'found "{kind}"'
            )
        for what, value in (("value", self.value.type), ("result", self.res.type)):
            expect_type(self, what, value, t)


@irdl_op_definition
class CmpxchgOp(AccessOp):
    """`%m, %old, %ok = mem.cmpxchg %m1, %p, %expected, %desired : !mem.ptr<i32, 1>`:
    atomically, if `*p == expected` then `*p = desired`; the old value and whether it stored
    (CUDA's `atomicCAS`). Floats compare by their bits (a NaN equals itself, -0 is not +0)."""

    name = "mem.cmpxchg"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    ARITIES: ClassVar[tuple[int, ...]] = (4,)
    mem = operand_def(MemType)
    ptr = operand_def(PtrType)
    expected = operand_def()
    desired = operand_def()
    res_mem = result_def(MemType)
    res = result_def()
    success = result_def(IntegerType)

    def __init__(self, mem: SSAValue, ptr: SSAValue, expected: SSAValue, desired: SSAValue):
        super().__init__(
            operands=[mem, ptr, expected, desired], result_types=[mem.type, expected.type, i1]
        )

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr.token_type, ptr, ptr.pointee, ptr.pointee]

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        return [ptr.token_type, ptr.pointee, i1]

    def verify_(self) -> None:
        super().verify_()
        t = atomic_operand_ok(self, self.ptr.type)
        values = (("expected value", self.expected.type), ("desired value", self.desired.type))
        for what, value in (*values, ("result", self.res.type)):
            expect_type(self, what, value, t)
        if self.success.type != i1:
            raise VerifyException(f"'{self.name}' expects its success flag to be i1")


ATOMIC_OPS = (AtomicRmwOp, CmpxchgOp)


@irdl_op_definition
class LeaOp(PtrSyntaxOp):
    """The address of element `index` of the array that `ptr` points to; pure, no token."""

    name = "mem.lea"
    ARITIES: ClassVar[tuple[int, ...]] = (2,)
    ptr = operand_def(PtrType)
    index = operand_def(IndexType)
    res = result_def(PtrType)

    traits = traits_def(Pure())

    def __init__(self, ptr: SSAValue, index: SSAValue):
        assert isinstance(ptr.type, PtrType)
        super().__init__(operands=[ptr, index], result_types=self._result_types(ptr.type))

    @classmethod
    def _operand_types(cls, ptr: PtrType, count: int) -> list[Attribute]:
        return [ptr, IndexType()]

    @classmethod
    def _result_types(cls, ptr: PtrType) -> list[Attribute]:
        element = ptr.pointee.element_type if isinstance(ptr.pointee, ArrayType) else ptr.pointee
        return [PtrType(element, ptr.space)]

    def _syntax_ptr(self) -> Attribute:
        return self.ptr.type

    def verify_(self) -> None:
        assert isinstance(self.ptr.type, PtrType)
        array = self.ptr.type.pointee
        if not isinstance(array, ArrayType):
            raise VerifyException(
                f"'{self.name}' expects a pointer to a !mem.array, found {self.ptr.type}"
            )
        expected = PtrType(array.element_type, self.ptr.type.space)
        expect_type(self, "result", self.res.type, expected)


@irdl_op_definition
class RememOp(IRDLOperation):
    """A fresh token of the same address space."""

    name = "mem.remem"
    mem = operand_def(MemType)
    res_mem = result_def(MemType)

    def __init__(self, mem: SSAValue):
        super().__init__(operands=[mem], result_types=[mem.type])

    def verify_(self) -> None:
        expect_type(self, "result", self.res_mem.type, self.mem.type)

    @classmethod
    def parse(cls, parser: Parser) -> RememOp:
        mem = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        token = parse_type_of(parser, MemType, "!mem.M")
        op = cls(parser.resolve_operand(mem, token))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mem)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.mem.type)


Mem = Dialect(
    "mem",
    [
        AllocOp,
        MallocOp,
        FreeOp,
        SlotOp,
        MslotOp,
        LoadOp,
        StoreOp,
        AtomicRmwOp,
        CmpxchgOp,
        LeaOp,
        RememOp,
        PrintMemrefOp,
    ],
    [MemType, PtrType, ArrayType],
)
