"""Upstream gpu.modules written in the llvm dialect, as MLIR's `convert-gpu-to-nvvm` leaves them
(and as tests write kernels by hand): `gpu.module @m { llvm.func @k(…) attributes {gpu.kernel,
nvvm.kernel} { … } }`. A program made of such gpu.modules alone is device code already: each
gpu.module is read as a gpuir device module (`builtin.module attributes {gpu.device}`) holding
its ops as they are, which gpu-opt's `-t llvm` / `-t ptx` / `-t sass` translate (`nvvm.kernel`
marks an entry; `nvvm` ops become intrinsic calls). One gpu.module is the program; several are
`builtin.module @m` each, in a module of their own, and compile apart, as MLIR compiles each
gpu.module to a binary of its own (their symbols may repeat). The gpu.modules' `#nvvm.target`s
are not read: the target's options say the architecture. Such a gpu.module beside host code, or
an llvm op beside gpu.funcs, is an error at its first llvm op.
"""

from __future__ import annotations

from xdsl.dialects import builtin
from xdsl.ir import Operation

from gpuir.dialects.gpu.launch import DEVICE_ATTR
from gpuir.ir.upstream import gpu_ops
from gpuir.ir.upstream.common import unsupported


def is_llvm_op(op: Operation) -> bool:
    return op.name.startswith("llvm.")


def llvm_device_module(source: builtin.ModuleOp) -> builtin.ModuleOp | None:
    """The device module of a program whose ops are gpu.modules of llvm ops alone (their ops
    moved into it), or a module of one device module per gpu.module where there are several;
    None for a program without llvm ops in its gpu.modules."""
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
            "ops (device code for gpu-opt's -t llvm / -t ptx / -t sass)",
        )
    devices = []
    for module in modules:
        device = builtin.ModuleOp([], attributes={DEVICE_ATTR: builtin.UnitAttr()})
        for op in list(module.body.block.ops):
            op.detach()
            device.body.block.add_op(op)
        devices.append(device)
    if len(devices) == 1:
        return devices[0]
    for device, module in zip(devices, modules, strict=True):
        device.sym_name = builtin.StringAttr(module.sym_name.data)
    return builtin.ModuleOp(devices)
