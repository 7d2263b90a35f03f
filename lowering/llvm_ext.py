"""The llvm dialect ops that the device lowering needs and xDSL 0.75's `llvm` dialect lacks.

They carry MLIR's names and generic form (`"llvm.addrspacecast"(%p) : (!llvm.ptr) ->
!llvm.ptr<1>`), so `mlir-translate` reads the lowered IR as it is, and gpuir's translation
(`gpuir.lowering.llvm_ir`) emits them. The custom syntax is MLIR's too:
`%q = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>`, `%i = llvm.fptosi %x : f32 to i32`.

gpu-opt adds them to xDSL's `llvm` dialect (`make_context(extra_ops=…)`), importing this module
when the input first names an llvm op, so that its start-up does not pay for them. This module
imports no more of xDSL than the IRDL machinery; type checks that need `xdsl.dialects.llvm`
import it in the verifier.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


class CastBase(IRDLOperation):
    """One value in, one value of another type out."""

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"

    def __init__(self, arg: SSAValue, result_type: Attribute):
        super().__init__(operands=[arg], result_types=[result_type])


def expect(op: IRDLOperation, value_type: Attribute, kind: type | tuple[type, ...], what: str):
    if not isinstance(value_type, kind):
        raise VerifyException(f"'{op.name}' expects {what}, found {value_type}")


@irdl_op_definition
class AddrSpaceCastOp(CastBase):
    """A pointer in another address space."""

    name = "llvm.addrspacecast"
    arg = operand_def()
    res = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        from xdsl.dialects.llvm import LLVMPointerType

        expect(self, self.arg.type, LLVMPointerType, "an !llvm.ptr operand")
        expect(self, self.res.type, LLVMPointerType, "an !llvm.ptr result")


@irdl_op_definition
class FPToSIOp(CastBase):
    name = "llvm.fptosi"
    arg = operand_def()
    res = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        expect(self, self.arg.type, AnyFloat, "a float operand")
        expect(self, self.res.type, IntegerType, "an integer result")


@irdl_op_definition
class FPToUIOp(CastBase):
    name = "llvm.fptoui"
    arg = operand_def()
    res = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        expect(self, self.arg.type, AnyFloat, "a float operand")
        expect(self, self.res.type, IntegerType, "an integer result")


@irdl_op_definition
class UIToFPOp(CastBase):
    name = "llvm.uitofp"
    arg = operand_def()
    res = result_def()
    traits = traits_def(Pure())

    def verify_(self) -> None:
        expect(self, self.arg.type, IntegerType, "an integer operand")
        expect(self, self.res.type, AnyFloat, "a float result")


LLVM_EXTENSION_OPS: tuple[type[IRDLOperation], ...] = (
    AddrSpaceCastOp,
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
)
