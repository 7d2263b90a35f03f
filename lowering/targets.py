"""gpu-opt's targets `llvm`, `ptx`, `sass` and `mlir-gpu`: the device module as LLVM IR, PTX
text, SASS (the machine code, through ptxas and nvdisasm), or upstream MLIR's `gpu.module` (for
`mlir-opt --gpu-module-to-binary`).

Both take a program at any stage before: a module that is not split yet goes through
`gpu-pipeline` first, a device module (or the `@device` module of a split program) that is not
lowered yet through `device-to-llvm`; an already lowered one (the output of
`-p …,device-to-llvm`, or hand-written llvm dialect in a `gpu.device` module) is translated as
it is. Only the device module is emitted; the host module is the runtime's.

    gpu-opt prog.mlir -t llvm                 # LLVM IR as translated (NVPTX triple, layout)
    gpu-opt prog.mlir -t llvm{opt=3}          # … after libdevice and LLVM's optimizer
    gpu-opt prog.mlir -t ptx                  # PTX for sm_80, PTX ISA 8.0, -O3
    gpu-opt prog.mlir -t ptx{sm=90 ptx=8.0 opt=2 fast-math=true}
    gpu-opt prog.mlir -t ptx{sm=90 index-bitwidth=32}   # 32-bit index values in device code
    gpu-opt prog.mlir -t ptx{line-info=false}  # no .file / .loc (line info is on by default)
    gpu-opt prog.mlir -t mlir-gpu{sm=90} | mlir-opt-22 --gpu-module-to-binary=format=isa
    gpu-opt prog.mlir -t sass{sm=90}          # SASS: ptxas, then nvdisasm (`SassTarget`)
    gpu-opt prog.mlir -t 'sass{ptxas-options="-v" print-commands=true}'  # + ptxas's command

The options are `PtxOptions`' (`gpuir.lowering.nvptx.ptx`) and are checked before any work:
`-t ptx{sm=42}` is an error. The device module is lowered for `sm` (`device-to-llvm{sm=…}`:
from sm_80 a warp's `i32` reduction is one `redux.sync`). `index-bitwidth` is `device-to-llvm`'s
option: it applies when the target lowers the device module (an input already in the llvm
dialect keeps its types).
`line-info` (default true) turns the ops' locations into debug metadata in the LLVM IR and
`.file` / `.loc` in the PTX (`gpuir.lowering.llvm.line_info`); `host-llvm` has it too.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from gpuir.ir.pass_manager import run_pass
from gpuir.lowering.llvm.conversion import DEVICE_ATTR
from gpuir.lowering.nvptx.ptx import PtxOptions


def device_module(module: ModuleOp) -> ModuleOp | None:
    """`module` itself when it is a device module, else its nested `gpu.device` module."""
    if DEVICE_ATTR in module.attributes:
        return module
    found = [m for m in module.ops if isinstance(m, ModuleOp) and DEVICE_ATTR in m.attributes]
    return found[0] if found else None


def is_lowered(module: ModuleOp) -> bool:
    return all(op is module or op.name.startswith("llvm.") for op in module.walk())


def lowered_device_module(
    ctx: Context, module: ModuleOp, index_bitwidth: int = 64, sm: int = 0
) -> ModuleOp:
    """The device module of `module`, split and lowered to the llvm dialect if need be (with
    `index_bitwidth`-bit index values, for architecture `sm`: 0 for any)."""
    from gpuir.lowering.nvptx.device_to_llvm import DeviceToLlvmPass
    from gpuir.passes.gpu_pipeline import GpuPipelinePass

    device = device_module(module)
    if device is None and is_lowered(module) and any(True for _ in module.ops):
        return module  # llvm dialect without the gpu.device marker: take it as it is
    if device is None:
        run_pass(ctx, module, GpuPipelinePass())
        device = device_module(module)
        assert device is not None
    if not is_lowered(device):
        run_pass(ctx, device, DeviceToLlvmPass(index_bitwidth=index_bitwidth, sm=sm))
    return device


@dataclass(frozen=True)
class DeviceTarget(Target, PtxOptions):
    """The options the LLVM IR and PTX targets share: `PtxOptions`' own fields (the target's
    `-t 'ptx{sm=90 opt=0}'` options), checked as `PtxOptions` checks them."""

    def options(self) -> PtxOptions:
        return PtxOptions(**{f.name: getattr(self, f.name) for f in fields(PtxOptions)})

    def devices(self, ctx: Context, module: ModuleOp) -> list[ModuleOp]:
        """The device modules to emit, lowered: `lowered_device_module`'s, or each of several
        that `module` holds (an upstream program's gpu.modules of llvm ops: each compiles apart,
        as MLIR compiles each gpu.module to a binary of its own)."""
        from gpuir.lowering.nvptx.device_to_llvm import DeviceToLlvmPass

        nested = [m for m in module.ops if isinstance(m, ModuleOp) and DEVICE_ATTR in m.attributes]
        if len(nested) < 2:
            return [lowered_device_module(ctx, module, self.index_bitwidth, self.sm)]
        for device in nested:
            if not is_lowered(device):
                run_pass(
                    ctx, device, DeviceToLlvmPass(index_bitwidth=self.index_bitwidth, sm=self.sm)
                )
        return nested


@dataclass(frozen=True)
class LlvmTarget(DeviceTarget):
    """The device module as LLVM IR for NVPTX; `opt` > 0 links libdevice and optimizes."""

    name = "llvm"

    opt: int = 0

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from gpuir.lowering.llvm.llvm_ir import to_llvm
        from gpuir.lowering.nvptx.ptx import llvm_module

        for device in self.devices(ctx, module):
            if self.opt == 0:
                output.write(str(to_llvm(device, self.fast_math, self.line_info)))
            else:
                output.write(str(llvm_module(device, self.options())))


@dataclass(frozen=True)
class PtxTarget(DeviceTarget):
    """The device module as PTX."""

    name = "ptx"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from gpuir.lowering.nvptx.ptx import compile_ptx

        for device in self.devices(ctx, module):
            output.write(compile_ptx(device, self.options()))


@dataclass(frozen=True)
class SassTarget(DeviceTarget):
    """The device module as SASS, the machine code a GPU of `sm` runs: the PTX assembled by
    NVIDIA's ptxas and disassembled by its nvdisasm (`gpuir.lowering.nvptx.ptxas`; no GPU is
    needed, only the tools). `ptxas-options` are more options for ptxas (`"-v
    --maxrregcount=32"`; the architecture is `sm`'s); `print-commands=true` prints each tool's
    command line, and ptxas's log, to stderr."""

    name = "sass"

    ptxas_options: str = ""
    print_commands: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.ptxas_options, str):
            raise ValueError(f"ptxas-options must be a string, found {self.ptxas_options!r}")
        if not isinstance(self.print_commands, bool):
            raise ValueError(f"print-commands must be true or false, found {self.print_commands!r}")
        for word in self.ptxas_words():
            if word.split("=")[0] in PTXAS_OWN_OPTIONS:
                raise ValueError(
                    f"ptxas-options cannot hold {word}: the target gives ptxas the architecture "
                    "(sm) and the files"
                )

    def ptxas_words(self) -> list[str]:
        import shlex

        try:
            return shlex.split(self.ptxas_options)
        except ValueError as e:
            raise ValueError(f"ptxas-options: {e}: {self.ptxas_options!r}") from None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        import sys

        from gpuir.lowering.nvptx.ptx import compile_ptx
        from gpuir.lowering.nvptx.ptxas import disassemble, run_ptxas

        def echo(line: str) -> None:
            sys.stderr.write(line + "\n")

        shown = echo if self.print_commands else None
        for device in self.devices(ctx, module):
            ptx = compile_ptx(device, self.options())
            cubin, log = run_ptxas(ptx, self.sm, tuple(self.ptxas_words()), shown)
            if shown is not None and log:
                sys.stderr.write(log if log.endswith("\n") else log + "\n")
            output.write(disassemble(cubin, shown))


PTXAS_OWN_OPTIONS = ("-arch", "--gpu-name", "-o", "--output-file")
"""The ptxas options `SassTarget` gives itself."""


@dataclass(frozen=True)
class MlirGpuTarget(DeviceTarget):
    """The device module as upstream MLIR's GPU container (`mlir_gpu_module`), for
    `mlir-opt --gpu-module-to-binary`."""

    name = "mlir-gpu"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(mlir_gpu_module(self.devices(ctx, module), self.options()))


def mlir_gpu_module(devices: list[ModuleOp], options: PtxOptions) -> str:
    """Lowered device modules as MLIR 22 writes a GPU program's device code: a module marked
    `gpu.container_module` holding `gpu.module @device` (several: each `gpu.module @name` of
    its `builtin.module @name`) with the target
    `#nvvm.target<triple = "nvptx64-nvidia-cuda", chip = "sm_<sm>", features = "+ptx<ptx>">`
    (and the NVPTX data layout as `llvm.data_layout`), the device module's llvm dialect ops in
    it, in the generic form (MLIR's llvm dialect; kernels are the `llvm.func`s marked
    `nvvm.kernel`, as MLIR marks them). `mlir-opt-22 --gpu-module-to-binary=format=isa`
    compiles it to PTX."""
    import io

    from xdsl.printer import Printer

    from gpuir.lowering.llvm.llvm_ir import nvptx_data_layout

    target = nvvm_target(options)
    layout = nvptx_data_layout()
    modules = []
    for device in devices:
        body = io.StringIO()
        printer = Printer(stream=body, print_generic_format=True)
        for op in device.ops:
            printer.print_op(op)
            body.write("\n")
        name = device.sym_name.data if len(devices) > 1 and device.sym_name else "device"
        indented = "".join(f"    {line}\n" for line in body.getvalue().splitlines())
        modules.append(
            f'  "gpu.module"() <{{sym_name = "{name}", targets = [{target}]}}> ({{\n'
            f"{indented}"
            f'  }}) {{llvm.data_layout = "{layout}"}} : () -> ()\n'
        )
    return '"builtin.module"() ({\n' + "".join(modules) + "}) {gpu.container_module} : () -> ()\n"


def nvvm_target(options: PtxOptions) -> str:
    """The `#nvvm.target<…>` of a gpu.module for `options` (its sm, PTX version and `opt`)."""
    from gpuir.lowering.llvm.llvm_ir import TRIPLE

    chip, features = f"sm_{options.sm}", f"+ptx{round(options.ptx * 10)}"
    return (
        f'#nvvm.target<O = {options.opt}, triple = "{TRIPLE}", chip = "{chip}", '
        f'features = "{features}">'
    )


@dataclass(frozen=True)
class MlirUpstreamTarget(DeviceTarget):
    """The whole program, host and device, as upstream MLIR 22 (`gpuir.lowering.mlir`,
    `docs/export.md`): memrefs, `gpu.alloc` / `memcpy` / `launch_func` on async tokens, the
    kernels in a `gpu.module` with the `#nvvm.target` of the options; for `mlir-opt-22
    --gpu-lower-to-nvvm-pipeline`, and gpu-run reads it back."""

    name = "mlir-upstream"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from gpuir.lowering.mlir.export import export_program

        output.write(export_program(ctx, module, nvvm_target(self.options())))


@dataclass(frozen=True)
class HostLlvmTarget(Target):
    """The host module as LLVM IR for this CPU, calling the runtime's C ABI
    (`gpuir.lowering.host.host_to_llvm`); `opt=3` after LLVM's optimizer. A module that is not split
    yet goes through `gpu-pipeline` first. `line-info=false` leaves out the DWARF line table
    (`gpuir.lowering.llvm.line_info`)."""

    name = "host-llvm"

    opt: int = 0
    line_info: bool = True

    def __post_init__(self) -> None:
        if self.opt not in (0, 1, 2, 3):
            raise ValueError(f"opt must be 0 to 3, found {self.opt!r}")
        if not isinstance(self.line_info, bool):
            raise ValueError(f"line-info must be true or false, found {self.line_info!r}")

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from gpuir.lowering.host.host_to_llvm import host_llvm_ir, lower_host
        from gpuir.lowering.llvm.conversion import host_module
        from gpuir.lowering.llvm.llvm_ir import parse
        from gpuir.passes.gpu_pipeline import GpuPipelinePass

        if device_module(module) is None and not is_lowered(module):
            run_pass(ctx, module, GpuPipelinePass())
        host = host_module(module, "host-llvm")
        if not is_lowered(host):
            lower_host(ctx, host)
        parsed = parse(str(host_llvm_ir(host, self.line_info)))
        if self.opt:
            from gpuir.lowering.llvm.native import optimize

            parsed = optimize(parsed, self.opt)
        output.write(str(parsed))
