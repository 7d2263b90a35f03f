"""The part of MLIR's `nvvm` dialect that MLIR's own GPU lowering (`mlir-opt
--convert-gpu-to-nvvm`) writes for a kernel's ids and barriers, so that device code lowered by
MLIR reads into gpuir and goes on to PTX (`gpu-opt FILE -t ptx`): the special registers
`nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}`, `laneid` and `warpsize` (each an `i32`:
`%t = nvvm.read.ptx.sreg.tid.x : i32`) and the work-group barrier `nvvm.barrier0`.

`convert-gpu-to-nvvm` (a stage of `device-to-llvm`) turns them into the
`llvm.call_intrinsic`s gpuir's own lowering makes (`llvm.nvvm.read.ptx.sreg.tid.x`, the
barrier's `llvm.nvvm.barrier.cta.sync.aligned.all(0)`). gpuir's providers do not run them:
the llvm dialect is what the NVPTX back end takes, not a program.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import NoMemoryEffect


class SpecialRegisterOp(IRDLOperation):
    """A read of one of PTX's special registers (an `i32`)."""

    res = result_def(i32)
    assembly_format = "attr-dict `:` type($res)"
    traits = traits_def(NoMemoryEffect())

    @property
    def intrinsic(self) -> str:
        """The LLVM intrinsic that reads the register (`llvm.nvvm.read.ptx.sreg.tid.x`)."""
        return "llvm." + self.name


REGISTERS = [
    f"{kind}.{axis}" for kind in ("tid", "ntid", "ctaid", "nctaid") for axis in ("x", "y", "z")
] + ["laneid", "warpsize"]


def _register_op(register: str) -> type[SpecialRegisterOp]:
    class_name = "Read" + "".join(part.capitalize() for part in register.split(".")) + "Op"
    op = type(class_name, (SpecialRegisterOp,), {"name": f"nvvm.read.ptx.sreg.{register}"})
    return irdl_op_definition(op)


SPECIAL_REGISTER_OPS: tuple[type[SpecialRegisterOp], ...] = tuple(
    _register_op(register) for register in REGISTERS
)


@irdl_op_definition
class Barrier0Op(IRDLOperation):
    """`bar.sync 0`: every thread of the block waits here (`__syncthreads()`)."""

    name = "nvvm.barrier0"
    assembly_format = "attr-dict"


Nvvm = Dialect("nvvm", [*SPECIAL_REGISTER_OPS, Barrier0Op], [])
