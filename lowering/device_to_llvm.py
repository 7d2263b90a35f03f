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

At the end every op of the device module must be an `llvm` op: the first that is not is an
error at that op, so the translation to LLVM IR (`gpuir.lowering.llvm_ir`) only ever sees IR it
can emit.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnrealizedConversionCastOp, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import run_pass
from gpuir.ir.pipelines import DEVICE_TO_LLVM
from gpuir.lowering.conversion import INDEX_BITWIDTH_ATTR, INDEX_BITWIDTHS, device_modules


def stage_passes(names: tuple[str, ...] = DEVICE_TO_LLVM) -> dict[str, type[ModulePass]]:
    """The pass classes of the stages `names` (these, or `host-to-llvm`'s): xDSL's, gpuir's and
    the lowerings'."""
    import gpuir.lowering  # noqa: F401  # its passes are in the registry once it is imported
    import gpuir.passes  # noqa: F401
    from gpuir.ir.registry import all_passes

    factories = all_passes(names)
    return {name: factories[name]() for name in names}


def check_lowered(module: ModuleOp, pass_name: str = "device-to-llvm") -> None:
    """Every op of `module` is an `llvm` op; the first one that is not is an error, which
    names `pass_name`."""
    for op in module.walk():
        if op is module or op.name.startswith("llvm."):
            continue
        raise OpError(located_at(op), not_lowered_message(op, pass_name))


def located_at(op: Operation) -> Operation:
    """The op to report `op` at: a cast the conversion made has no location, so its first user
    (the op that wants the value: in the source, or made from an op of it)."""
    if isinstance(op, UnrealizedConversionCastOp):
        users = [use.operation for result in op.results for use in result.uses]
        return users[0] if users else op
    return op


def not_lowered_message(op: Operation, pass_name: str = "device-to-llvm") -> str:
    if isinstance(op, UnrealizedConversionCastOp):
        users = [use.operation.name for result in op.results for use in result.uses]
        source = op.inputs[0].owner
        made_by = f" made by '{source.name}'" if isinstance(source, Operation) else ""
        return (
            f"{pass_name}: a value of type {op.inputs[0].type}{made_by} is still used as "
            f"{op.results[0].type} by {', '.join(repr(u) for u in users) or 'nothing'}: "
            "a conversion is missing"
        )
    return f"'{op.name}' is not lowered to the llvm dialect: {pass_name} has no lowering for it"


def check_index_bitwidth(width: object) -> None:
    if isinstance(width, bool) or width not in INDEX_BITWIDTHS:
        raise ValueError(f"index-bitwidth must be 32 or 64, found {width!r}")


def set_index_bitwidth(module: ModuleOp, width: int) -> None:
    """Give `module` 32-bit index values (`gpu.index_bitwidth = 32`); 64 leaves it as it is."""
    if width != 64:
        module.attributes[INDEX_BITWIDTH_ATTR] = IntegerAttr(width, i64)


@dataclass(frozen=True)
class DeviceToLlvmPass(ModulePass):
    """Run the stages of `DEVICE_TO_LLVM` on the device modules, then check the result."""

    name = "device-to-llvm"

    index_bitwidth: int = 64
    """The width of `index` values in device code: 64, or 32 (module docstring)."""

    def __post_init__(self) -> None:
        check_index_bitwidth(self.index_bitwidth)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stages = stage_passes()
        for module in device_modules(op, self.name):
            set_index_bitwidth(module, self.index_bitwidth)
            for name in DEVICE_TO_LLVM:
                run_pass(ctx, module, stages[name]())
            check_lowered(module)
