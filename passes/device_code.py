"""Which functions are device code: MimIR's rule, shared by the passes that need it.

A kernel is a `func.func` that a `gpu.launch` names, or one marked with the unit attribute
`gpu.kernel` (as kernels are after `split-apply`). Device code is exactly the kernels plus every
function they call, transitively. Everything else is host code; a function called from both sides
is device code *and* host code (`split-apply` copies it into both modules).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation

from gpuir.dialects.gpu import DEVICE_ATTR, KERNEL_ATTR, LaunchOp


def functions(module: ModuleOp) -> dict[str, FuncOp]:
    """The module's top-level functions by name."""
    return {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}


def launched_name(kernel: SymbolRefAttr) -> str:
    """The function a launch names: `@k`, or the leaf of `@device::@k`."""
    if kernel.nested_references.data:
        return kernel.nested_references.data[-1].data
    return kernel.root_reference.data


def callees(op: Operation) -> Iterable[str]:
    for inner in op.walk():
        if isinstance(inner, CallOp):
            yield inner.callee.root_reference.data


def reachable(funcs: dict[str, FuncOp], roots: list[str]) -> set[str]:
    """`roots` and every function of `funcs` they call, transitively."""
    found: set[str] = set()
    worklist = list(roots)
    while worklist:
        name = worklist.pop()
        if name in found:
            continue
        found.add(name)
        worklist.extend(c for c in callees(funcs[name]) if c in funcs and c not in found)
    return found


def kernels(module: ModuleOp) -> set[str]:
    """Names of the functions launched anywhere in `module` or marked `gpu.kernel`."""
    names = {launched_name(op.kernel) for op in module.walk() if isinstance(op, LaunchOp)}
    names |= {f.sym_name.data for f in functions(module).values() if KERNEL_ATTR in f.attributes}
    return names


def device_functions(module: ModuleOp) -> set[str]:
    """The kernels of `module` and, transitively, every function they call."""
    funcs = functions(module)
    return reachable(funcs, [name for name in kernels(module) if name in funcs])


def host_functions(module: ModuleOp) -> set[str]:
    """The functions that host code reaches: those that are not device code, plus every
    function they call (which may be device code too)."""
    funcs = functions(module)
    device = device_functions(module)
    return reachable(funcs, [name for name in funcs if name not in device])


def is_device_function(func: FuncOp) -> bool:
    """Whether `func` is device code of the module it lives in (or lives in a device module
    after `split-apply`)."""
    module = func.parent_op()
    if not isinstance(module, ModuleOp):
        return False
    if DEVICE_ATTR in module.attributes:
        return True
    return func.sym_name.data in device_functions(module)
