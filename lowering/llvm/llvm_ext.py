"""The llvm dialect ops that the device lowering needs and xDSL 0.75's `llvm` dialect lacks.

They carry MLIR's names and generic form (`"llvm.addrspacecast"(%p) : (!llvm.ptr) ->
!llvm.ptr<1>`), so `mlir-translate` reads the lowered IR as it is, and gpuir's translation
(`gpuir.lowering.llvm.llvm_ir`) emits them. The custom syntax is MLIR's too:
`%q = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>`, `%i = llvm.fptosi %x : f32 to i32`.

gpu-opt adds them to xDSL's `llvm` dialect (`make_context(extra_ops=…)`), importing this module
when the input first names an llvm op, so that its start-up does not pay for them. This module
imports no more of xDSL than the IRDL machinery; type checks that need `xdsl.dialects.llvm`
import it in the verifier.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import AnyFloat, IntegerAttr, IntegerType, StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

if TYPE_CHECKING:
    from xdsl.parser import Parser
    from xdsl.printer import Printer


class CastBase(IRDLOperation):
    """One value in, one value of another type out; `EXPECTS`: the kinds of type the operand and
    the result must have, each with its words for the verifier's message."""

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"
    arg = operand_def()
    res = result_def()
    traits = traits_def(Pure())

    EXPECTS: ClassVar[tuple[tuple[type, str], tuple[type, str]]]

    def __init__(self, arg: SSAValue, result_type: Attribute):
        super().__init__(operands=[arg], result_types=[result_type])

    def verify_(self) -> None:
        (arg_kind, arg_what), (res_kind, res_what) = self.EXPECTS
        expect(self, self.arg.type, arg_kind, arg_what)
        expect(self, self.res.type, res_kind, res_what)


def expect(op: IRDLOperation, value_type: Attribute, kind: type | tuple[type, ...], what: str):
    if not isinstance(value_type, kind):
        raise VerifyException(f"'{op.name}' expects {what}, found {value_type}")


@irdl_op_definition
class AddrSpaceCastOp(CastBase):
    """A pointer in another address space."""

    name = "llvm.addrspacecast"

    def verify_(self) -> None:
        from xdsl.dialects.llvm import LLVMPointerType

        expect(self, self.arg.type, LLVMPointerType, "an !llvm.ptr operand")
        expect(self, self.res.type, LLVMPointerType, "an !llvm.ptr result")


FLOAT_TO_INT = ((AnyFloat, "a float operand"), (IntegerType, "an integer result"))


@irdl_op_definition
class FPToSIOp(CastBase):
    name = "llvm.fptosi"
    EXPECTS: ClassVar = FLOAT_TO_INT


@irdl_op_definition
class FPToUIOp(CastBase):
    name = "llvm.fptoui"
    EXPECTS: ClassVar = FLOAT_TO_INT


@irdl_op_definition
class UIToFPOp(CastBase):
    name = "llvm.uitofp"
    EXPECTS: ClassVar = ((IntegerType, "an integer operand"), (AnyFloat, "a float result"))


ATOMIC_BIN_OPS = (
    "xchg",
    "add",
    "sub",
    "and",
    "nand",
    "or",
    "xor",
    "max",
    "min",
    "umax",
    "umin",
    "fadd",
    "fsub",
    "fmax",
    "fmin",
)
"""MLIR's `AtomicBinOp` values, in order, as LLVM IR spells them."""
ATOMIC_ORDERINGS = {"monotonic": 2, "acquire": 4, "release": 5, "acq_rel": 6, "seq_cst": 7}
"""MLIR's `AtomicOrdering` values of the orderings an atomicrmw may have."""


def ordering_name(ordering: IntegerAttr) -> str:
    """The name of an `AtomicOrdering` value (`ATOMIC_ORDERINGS`)."""
    return {v: k for k, v in ATOMIC_ORDERINGS.items()}[ordering.value.data]


def parse_choice(parser: Parser, choices: Container[str], unknown: str) -> str:
    """An identifier, one of `choices`; another is an error (`unknown` and the identifier)."""
    pos = parser.pos
    word = parser.parse_identifier()
    if word not in choices:
        parser.raise_error(f"{unknown} '{word}'", pos, parser.pos)
    return word


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%old = llvm.atomicrmw add %ptr, %val monotonic : !llvm.ptr, i64`: an atomic
    read-modify-write of the value at `ptr` (an integer; a float for `fadd`/`fsub`/`fmax`/
    `fmin` and `xchg`); its old value."""

    name = "llvm.atomicrmw"
    ptr = operand_def()
    val = operand_def()
    res = result_def()
    bin_op = prop_def(IntegerAttr)
    ordering = prop_def(IntegerAttr)

    def __init__(self, bin_op: str, ptr: SSAValue, val: SSAValue, ordering: str = "monotonic"):
        super().__init__(
            operands=[ptr, val],
            result_types=[val.type],
            properties={
                "bin_op": IntegerAttr(ATOMIC_BIN_OPS.index(bin_op), 64),
                "ordering": IntegerAttr(ATOMIC_ORDERINGS[ordering], 64),
            },
        )

    @property
    def bin_op_name(self) -> str:
        return ATOMIC_BIN_OPS[self.bin_op.value.data]

    def verify_(self) -> None:
        from xdsl.dialects.llvm import LLVMPointerType

        expect(self, self.ptr.type, LLVMPointerType, "an !llvm.ptr operand")
        bin_op = ATOMIC_BIN_OPS[self.bin_op.value.data] if self.bin_op.value.data < 15 else ""
        if bin_op.startswith("f") or (bin_op == "xchg" and isinstance(self.val.type, AnyFloat)):
            expect(self, self.val.type, AnyFloat, "a float value")
        else:
            expect(self, self.val.type, IntegerType, "an integer value")
        if self.res.type != self.val.type:
            raise VerifyException(f"'{self.name}' returns the value's type, {self.val.type}")
        if not 0 <= self.bin_op.value.data < len(ATOMIC_BIN_OPS):
            raise VerifyException(
                f"'{self.name}' has no integer operation {self.bin_op.value.data}"
            )
        if self.ordering.value.data not in ATOMIC_ORDERINGS.values():
            raise VerifyException(f"'{self.name}' has no ordering {self.ordering.value.data}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.bin_op_name} ")
        printer.print_operand(self.ptr)
        printer.print_string(", ")
        printer.print_operand(self.val)
        printer.print_string(f" {ordering_name(self.ordering)} : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        bin_op = parse_choice(parser, ATOMIC_BIN_OPS, f"'{cls.name}': unknown operation")
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        pos = parser.pos
        ordering = parse_choice(parser, ATOMIC_ORDERINGS, f"'{cls.name}': unknown ordering")
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        val_type = parser.parse_type()
        ptr_value, val_value = parser.resolve_operands([ptr, val], [ptr_type, val_type], pos)
        return cls(bin_op, ptr_value, val_value, ordering)


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """`%r = llvm.cmpxchg %ptr, %cmp, %val monotonic monotonic : !llvm.ptr, i32`: atomically
    store `val` at `ptr` if it holds `cmp`; `!llvm.struct<(i32, i1)>`, the old value and
    whether it stored."""

    name = "llvm.cmpxchg"
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    res = result_def()
    success_ordering = prop_def(IntegerAttr)
    failure_ordering = prop_def(IntegerAttr)

    def __init__(self, ptr: SSAValue, cmp: SSAValue, val: SSAValue, ordering: str = "monotonic"):
        from xdsl.dialects.builtin import i1
        from xdsl.dialects.llvm import LLVMStructType

        super().__init__(
            operands=[ptr, cmp, val],
            result_types=[LLVMStructType.from_type_list([val.type, i1])],
            properties={
                "success_ordering": IntegerAttr(ATOMIC_ORDERINGS[ordering], 64),
                "failure_ordering": IntegerAttr(ATOMIC_ORDERINGS["monotonic"], 64),
            },
        )

    def verify_(self) -> None:
        from xdsl.dialects.llvm import LLVMPointerType

        expect(self, self.ptr.type, LLVMPointerType, "an !llvm.ptr operand")
        expect(self, self.val.type, IntegerType, "an integer value")
        if self.cmp.type != self.val.type:
            raise VerifyException(f"'{self.name}' compares values of the stored type")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.ptr, self.cmp, self.val), printer.print_operand)
        success = ordering_name(self.success_ordering)
        failure = ordering_name(self.failure_ordering)
        printer.print_string(f" {success} {failure} : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)


FENCE_SCOPES = {"workgroup": "block", "device": "device", "system": ""}
"""`gpu.fence` scopes → NVPTX's LLVM sync scopes (`""`: the system, LLVM's default)."""


@irdl_op_definition
class FenceOp(IRDLOperation):
    """`llvm.fence syncscope("device") seq_cst`: a memory fence."""

    name = "llvm.fence"
    ordering = prop_def(IntegerAttr)
    syncscope = prop_def(StringAttr)

    def __init__(self, syncscope: str = "", ordering: str = "seq_cst"):
        super().__init__(
            properties={
                "ordering": IntegerAttr(ATOMIC_ORDERINGS[ordering], 64),
                "syncscope": StringAttr(syncscope),
            }
        )

    def print(self, printer: Printer) -> None:
        if self.syncscope.data:
            printer.print_string(f' syncscope("{self.syncscope.data}")')
        printer.print_string(f" {ordering_name(self.ordering)}")


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`llvm.mlir.poison`: a value of its type that no program may depend on (MLIR's lowering
    starts its structs with it). Translated as `undef`, which refines it."""

    name = "llvm.mlir.poison"
    assembly_format = "attr-dict `:` type($res)"
    res = result_def(Attribute)
    traits = traits_def(Pure())


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%x = llvm.extractelement %v[%i : i64] : vector<4xf32>`: the element at `%i` (xDSL has
    `llvm.insertelement` only). Printed and read in the generic form."""

    name = "llvm.extractelement"
    vector = operand_def(Attribute)
    position = operand_def(IntegerType)
    res = result_def(Attribute)
    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue, position: SSAValue, result_type: Attribute):
        super().__init__(operands=[vector, position], result_types=[result_type])


LLVM_EXTENSION_OPS: tuple[type[IRDLOperation], ...] = (
    PoisonOp,
    ExtractElementOp,
    AtomicRMWOp,
    CmpXchgOp,
    FenceOp,
    AddrSpaceCastOp,
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
)
