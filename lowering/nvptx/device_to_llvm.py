"""`device-to-llvm`: the device module, from gpuir's IR to the llvm dialect, as one list of stages.

`DEVICE_TO_LLVM` is the list; each stage runs on the device modules only (the module itself
when it has the `gpu.device` attribute, else the `@device` module that `split-apply` made), so
the host module is left alone. Every stage is a pass of its own that `gpu-opt -p` can run, and
the IR between two stages is valid. The stages run through the pass manager
(`gpuir.ir.pass_manager.run_pass`): `--mlir-print-ir-after-all`, `--mlir-timing` and the crash
reproducers see each of them.

Option `index-bitwidth` (32 or 64, default 64), as MLIR's `convert-gpu-to-nvvm` has it:
`device-to-llvm{index-bitwidth=32}` gives the device modules the attribute
`gpu.index_bitwidth = 32 : i64`, which every stage reads (`conversion.index_type`): `index`
values, their arithmetic, comparisons, loop counters and the ids are `i32` (as nvcc's `int`);
an index value must fit in 32 bits, and arithmetic on it wraps at 32 bits. Memory layout and
the kernel ABI do not change (an `index` in memory and a kernel's `index` parameter are 64-bit;
the parameter is truncated at the kernel's entry). The default leaves a module's own attribute
(if any) in effect.

Option `sm` (default 0: any architecture): `device-to-llvm{sm=80}` gives the device modules
`nvptx.sm = 80 : i64`, the architecture `convert-gpu-to-nvvm` may use instructions of
(`redux.sync` from sm_80); the `llvm` / `ptx` targets set it from their `sm`.

At the end every op of the device module must be an `llvm` op: the first that is not is an
error at that op, so the translation to LLVM IR (`gpuir.lowering.llvm.llvm_ir`) only ever sees IR it
can emit. Running the stages, that check and the index width are `gpuir.lowering.llvm.conversion`'s
(`stage_passes`, `check_lowered`, `set_index_bitwidth`): the cpu provider's lowering and
`host-to-llvm` use them too.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass

from gpuir.ir.pass_manager import run_pass
from gpuir.ir.pipelines import DEVICE_TO_LLVM
from gpuir.lowering.llvm.conversion import (
    check_index_bitwidth,
    check_lowered,
    device_modules,
    set_index_bitwidth,
    stage_passes,
)
from gpuir.lowering.nvptx.gpu_to_nvvm import SM_ATTR
from gpuir.lowering.nvptx.ptx import MIN_PTX_FOR_SM


@dataclass(frozen=True)
class DeviceToLlvmPass(ModulePass):
    """Run the stages of `DEVICE_TO_LLVM` on the device modules, then check the result."""

    name = "device-to-llvm"

    index_bitwidth: int = 64
    """The width of `index` values in device code: 64, or 32 (module docstring)."""
    sm: int = 0
    """The architecture lowered for (80: `sm_80`), or 0 for any (module docstring)."""

    def __post_init__(self) -> None:
        check_index_bitwidth(self.index_bitwidth)
        if self.sm != 0 and (isinstance(self.sm, bool) or self.sm not in MIN_PTX_FOR_SM):
            known = ", ".join(str(sm) for sm in MIN_PTX_FOR_SM)
            raise ValueError(f"sm must be 0 (any) or one of {known}, found {self.sm!r}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stages = stage_passes()
        for module in device_modules(op, self.name):
            set_index_bitwidth(module, self.index_bitwidth)
            if self.sm:
                module.attributes[SM_ATTR] = IntegerAttr(self.sm, i64)
            for name in DEVICE_TO_LLVM:
                run_pass(ctx, module, stages[name]())
            check_lowered(module)
