"""`split-apply`: split a program into `@host` and `@device`, then run a sub-pipeline on each
(MimIR's `split_apply`, reference §3.5).

Device code is exactly the kernels (functions a `gpu.launch` names, or marked `gpu.kernel`) and,
transitively, every function they call (`gpuir.passes.device_code`). The top-level module then
holds exactly two modules, in this order:

- `builtin.module @host`: every top-level op that is not a device-only function, in the input
  order (host functions, external declarations, globals, …); each launch in it names
  `@device::@<kernel>`;
- `builtin.module @device attributes {gpu.device}`: the device functions, in the input order,
  each kernel marked with the unit attribute `gpu.kernel`. A module without launches gets an
  empty `@device`.

A function that both sides call is copied into both. Then the host sub-pipeline runs on `@host`
and the device sub-pipeline on `@device` (MimIR's `host_specific_phases` /
`device_specific_phases`). Each option takes any pass pipeline text (`"canonicalize,cse"`, with
`{}` options) over xDSL's passes and gpuir's; an empty string runs nothing.

A module that is split already (exactly `@host` and `@device {gpu.device}`, the output of an
earlier `split-apply`) is not split again: the sub-pipelines run on its two modules and nothing
else changes, so the output of any pipeline stage is a valid input (`gpu-opt -p gpu-pipeline
f.mlir | gpu-run -` runs). Any other nested module is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr, UnitAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from gpuir.dialects.gpu import DEVICE_ATTR, LaunchOp
from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import (
    BadOptions,
    Counter,
    PassManager,
    PipelineError,
    Statistic,
    UnknownPass,
    parse_pass_pipeline,
    run_pipeline,
)
from gpuir.ir.pipelines import SPLIT_DEVICE, SPLIT_HOST
from gpuir.passes.device_code import (
    KERNEL_ATTR,
    device_functions,
    host_functions,
    kernels,
    launched_name,
)


def parse_sub_pipeline(op: ModuleOp, option: str, spec: str) -> PassManager:
    """The pipeline that the option `option` (text `spec`) names, on a module (`cse,dce` or
    `builtin.module(func.func(canonicalize))`); a bad one is an OpError."""
    from gpuir.ir.registry import pass_table

    where = f'split-apply: {option}="{spec}"'
    try:
        return parse_pass_pipeline(spec, pass_table())
    except UnknownPass as e:
        raise OpError(op, f"{where} names the unknown pass '{e.name}'{e.hint}") from None
    except BadOptions as e:
        raise OpError(op, f"{where} has bad options: {e}") from None
    except PipelineError as e:
        raise OpError(op, f"{where} is not a pass pipeline: {e}".rstrip()) from None


def split_parts(op: ModuleOp) -> tuple[ModuleOp, ModuleOp] | None:
    """`@host` and `@device` when `op` is split already (exactly those two modules, in this
    order, the second with `gpu.device`), else None."""
    inner = list(op.ops)
    if len(inner) != 2 or not all(isinstance(m, ModuleOp) for m in inner):
        return None
    host, device = inner
    assert isinstance(host, ModuleOp) and isinstance(device, ModuleOp)
    names = [None if m.sym_name is None else m.sym_name.data for m in (host, device)]
    if names != ["host", "device"] or DEVICE_ATTR not in device.attributes:
        return None
    return host, device


def check_not_split(op: ModuleOp) -> None:
    """Reject a module that holds modules other than a split's: it is not a program."""
    for inner in op.ops:
        if not isinstance(inner, ModuleOp):
            continue
        name = None if inner.sym_name is None else inner.sym_name.data
        if name in ("host", "device"):
            raise OpError(
                inner, f"split-apply: the module is already split (it holds the module @{name})"
            )
        what = "an unnamed nested module" if name is None else f"the nested module @{name}"
        raise OpError(inner, f"split-apply: expected a module of top-level functions, found {what}")


def split(
    op: ModuleOp, to_host: Counter, to_device: Counter, copied: Counter
) -> tuple[ModuleOp, ModuleOp]:
    """Move the top-level ops of `op` into a new `@host` and `@device` module, counting the
    ops moved to each and the functions copied into both."""
    device = device_functions(op)
    host = host_functions(op)
    marked = kernels(op)
    host_ops: list[Operation] = []
    device_ops: list[Operation] = []
    for top in list(op.ops):
        top.detach()
        name = top.sym_name.data if isinstance(top, FuncOp) else None
        if name not in device:
            host_ops.append(top)
            to_host.add()
            continue
        if name in host:  # called from both sides: a plain copy for the host
            copy = top.clone()
            copy.attributes.pop(KERNEL_ATTR, None)
            host_ops.append(copy)
            copied.add()
        if name in marked:
            top.attributes[KERNEL_ATTR] = UnitAttr()
        device_ops.append(top)
        to_device.add()
    host_module = ModuleOp(host_ops, sym_name=StringAttr("host"))
    device_module = ModuleOp(
        device_ops, attributes={DEVICE_ATTR: UnitAttr()}, sym_name=StringAttr("device")
    )
    return host_module, device_module


def name_device_kernels(host: ModuleOp, retargeted: Counter) -> None:
    """Point each launch in `host` at its kernel in `@device`."""
    for launch in host.walk():
        if isinstance(launch, LaunchOp):
            kernel = launched_name(launch.kernel)
            launch.kernel = SymbolRefAttr("device", [kernel])
            retargeted.add()


@dataclass(frozen=True)
class SplitApplyPass(ModulePass):
    """Split into `@host` and `@device`, then run `host-pipeline` on `@host` and
    `device-pipeline` on `@device`."""

    name = "split-apply"

    host_pipeline: str = SPLIT_HOST
    device_pipeline: str = SPLIT_DEVICE

    modules_split = Statistic("num-modules-split", "Number of modules split into @host and @device")
    to_host = Statistic("num-ops-to-host", "Number of top-level ops moved into @host")
    to_device = Statistic("num-functions-to-device", "Number of functions moved into @device")
    copied = Statistic(
        "num-functions-copied", "Number of functions copied into @host as well as @device"
    )
    retargeted = Statistic(
        "num-launches-retargeted", "Number of launches pointed at their kernel in @device"
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        parts = split_parts(op)
        if parts is None:
            check_not_split(op)
        host_passes = parse_sub_pipeline(op, "host-pipeline", self.host_pipeline)
        device_passes = parse_sub_pipeline(op, "device-pipeline", self.device_pipeline)
        if parts is not None:  # split already (an earlier split-apply's output): only the passes
            host, device = parts
        else:
            host, device = split(op, self.to_host, self.to_device, self.copied)
            name_device_kernels(host, self.retargeted)
            op.body.block.add_ops([host, device])
            self.modules_split.add()
        run_pipeline(ctx, host, host_passes, "'builtin.module' Pipeline @host")
        run_pipeline(ctx, device, device_passes, "'builtin.module' Pipeline @device")
