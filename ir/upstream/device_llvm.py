"""Upstream gpu.modules written in the llvm dialect, as MLIR's `convert-gpu-to-nvvm` leaves them
(and as tests write kernels by hand): `gpu.module @m { llvm.func @k(…) attributes {gpu.kernel,
nvvm.kernel} { … } }`. A program made of such gpu.modules alone is device code already: it is
read as one gpuir device module (`builtin.module attributes {gpu.device}`) holding their ops as
they are, which gpu-opt's `-t llvm` / `-t ptx` translate (`nvvm.kernel` marks an entry; `nvvm`
ops become intrinsic calls). The gpu.modules' `#nvvm.target`s are not read: the target's options
say the architecture. Such a gpu.module beside host code, or an llvm op beside gpu.funcs, is an
error at its first llvm op.
"""

from __future__ import annotations

from xdsl.dialects import builtin
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface

from gpuir.dialects.gpu.launch import DEVICE_ATTR
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import gpu_ops
from gpuir.ir.upstream.common import unsupported


def is_llvm_op(op: Operation) -> bool:
    return op.name.startswith("llvm.")


def llvm_device_module(source: builtin.ModuleOp) -> builtin.ModuleOp | None:
    """The device module of a program whose ops are gpu.modules of llvm ops alone (their ops
    moved into it); None for a program without llvm ops in its gpu.modules."""
    top = list(source.body.block.ops)
    modules = [op for op in top if isinstance(op, gpu_ops.ModuleOp)]
    first = next((op for m in modules for op in m.body.block.ops if is_llvm_op(op)), None)
    if first is None:
        return None
    device_only = len(modules) == len(top) and all(
        is_llvm_op(op) for m in modules for op in m.body.block.ops
    )
    if not device_only:
        raise unsupported(
            first,
            "in a gpu.module is read only in a program of such gpu.modules alone, all of llvm "
            "ops (device code for gpu-opt's -t llvm / -t ptx)",
        )
    device = builtin.ModuleOp([], attributes={DEVICE_ATTR: builtin.UnitAttr()})
    names: dict[str, gpu_ops.ModuleOp] = {}
    for module in modules:
        for op in list(module.body.block.ops):
            name = symbol_name(op)
            if name is not None and name in names:
                raise OpError(
                    op,
                    f"importing upstream MLIR: '{op.name}' @{name} of gpu.module "
                    f"@{module.sym_name.data}: gpu.module @{names[name].sym_name.data} has a "
                    "symbol of that name, and their ops make one device module",
                )
            if name is not None:
                names[name] = module
            op.detach()
            device.body.block.add_op(op)
    return device


def symbol_name(op: Operation) -> str | None:
    interface = op.get_trait(SymbolOpInterface)
    if interface is None:
        return None
    symbol = interface.get_sym_attr_name(op)
    return None if symbol is None else symbol.data
