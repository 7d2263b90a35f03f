"""gpuir's lowerings: the device module to the llvm dialect, LLVM IR and PTX; the host module to
LLVM IR for this CPU. `get_all_targets()` is the registry of gpu-opt's `-t` targets and
`get_all_lowering_passes()` lists the lowering passes, which importing this package adds to the
one registry of passes (`gpuir.ir.registry`).

Each entry imports its module on first use, so that gpu-opt starts fast (llvmlite is imported
only by the translation and the PTX back end).

The stages, each printable (Triton-style named stages):

| stage | how to print it |
| --- | --- |
| gpuir IR, split into `@host` / `@device` | `gpu-opt FILE -p gpu-pipeline` |
| llvm dialect | `gpu-opt FILE -p gpu-pipeline,device-to-llvm` (stage by stage: the passes of `DEVICE_TO_LLVM` in `nvptx/device_to_llvm.py`) |
| LLVM IR (NVPTX) | `gpu-opt FILE -t llvm` (`-t llvm{opt=3}`: after LLVM's optimizer) |
| PTX | `gpu-opt FILE -t ptx` (`-t ptx{sm=90 ptx=8.0 opt=3 fast-math=true index-bitwidth=32}`) |
| cubin | `gpuir.lowering.nvptx.ptxas.assemble(ptx, sm)` (needs `ptxas`) |
| host module, llvm dialect | `gpu-opt FILE -p gpu-pipeline,host-to-llvm` (the stages of `HOST_TO_LLVM` in `host/host_to_llvm.py`) |
| host module, LLVM IR (this CPU) | `gpu-opt FILE -t host-llvm` (`{opt=3}`): calls of the C ABI in `host/host_abi.py` / `runtime/gpuir_runtime.h` |

`-t llvm` and `-t ptx` take any of the first two stages: a module that is not split yet goes
through `gpu-pipeline` first, a device module that is not lowered yet through `device-to-llvm`.

The kernel ABI (what a runtime relies on to launch a kernel of the PTX or of the cpu
provider's code), the index bitwidth, shared memory and the print buffer: `docs/kernel-abi.md`.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.target import Target

import gpuir.passes  # noqa: F401  # the lowering's stages name gpuir's passes too
from gpuir.ir.registry import register_pass_group, register_target_group


def get_llvm() -> type[Target]:
    from gpuir.lowering.targets import LlvmTarget

    return LlvmTarget


def get_ptx() -> type[Target]:
    from gpuir.lowering.targets import PtxTarget

    return PtxTarget


def get_host_llvm() -> type[Target]:
    from gpuir.lowering.targets import HostLlvmTarget

    return HostLlvmTarget


def get_mlir_gpu() -> type[Target]:
    from gpuir.lowering.targets import MlirGpuTarget

    return MlirGpuTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Our targets by `-t` name; each value imports and returns the target class."""
    return {
        "llvm": get_llvm,
        "ptx": get_ptx,
        "host-llvm": get_host_llvm,
        "mlir-gpu": get_mlir_gpu,
    }


def get_convert_scf_while_to_cf() -> type[ModulePass]:
    from gpuir.lowering.llvm.scf_while_to_cf import ConvertScfWhileToCfPass

    return ConvertScfWhileToCfPass


def get_convert_gpu_to_nvvm() -> type[ModulePass]:
    from gpuir.lowering.nvptx.gpu_to_nvvm import ConvertGpuToNvvmPass

    return ConvertGpuToNvvmPass


def get_convert_mem_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.llvm.mem_to_llvm import ConvertMemToLlvmPass

    return ConvertMemToLlvmPass


def get_erase_mem_tokens() -> type[ModulePass]:
    from gpuir.lowering.llvm.erase_mem_tokens import EraseMemTokensPass

    return EraseMemTokensPass


def get_convert_arith_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.llvm.arith_to_llvm import ConvertArithToLlvmPass

    return ConvertArithToLlvmPass


def get_convert_math_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.llvm.math_to_llvm import ConvertMathToLlvmPass

    return ConvertMathToLlvmPass


def get_convert_cf_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.llvm.cf_to_llvm import ConvertCfToLlvmPass

    return ConvertCfToLlvmPass


def get_convert_func_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.llvm.func_to_llvm import ConvertFuncToLlvmPass

    return ConvertFuncToLlvmPass


def get_cpu_check_accesses() -> type[ModulePass]:
    from gpuir.lowering.cpu.check_accesses import CpuCheckAccessesPass

    return CpuCheckAccessesPass


def get_cpu_workgroup_loops() -> type[ModulePass]:
    from gpuir.lowering.cpu.workgroup_loops import CpuWorkgroupLoopsPass

    return CpuWorkgroupLoopsPass


def get_convert_gpu_host_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.host.gpu_host_to_llvm import ConvertGpuHostToLlvmPass

    return ConvertGpuHostToLlvmPass


def get_convert_printf_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.host.printf_to_llvm import ConvertPrintfToLlvmPass

    return ConvertPrintfToLlvmPass


def get_convert_device_printf_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.llvm.device_printf import ConvertDevicePrintfToLlvmPass

    return ConvertDevicePrintfToLlvmPass


def get_host_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.host.host_to_llvm import HostToLlvmPass

    return HostToLlvmPass


def get_device_to_llvm() -> type[ModulePass]:
    from gpuir.lowering.nvptx.device_to_llvm import DeviceToLlvmPass

    return DeviceToLlvmPass


def get_all_lowering_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The lowering passes by CLI name; each value imports and returns the pass class."""
    return {
        "convert-scf-while-to-cf": get_convert_scf_while_to_cf,
        "convert-gpu-to-nvvm": get_convert_gpu_to_nvvm,
        "convert-mem-to-llvm": get_convert_mem_to_llvm,
        "erase-mem-tokens": get_erase_mem_tokens,
        "convert-arith-to-llvm": get_convert_arith_to_llvm,
        "convert-math-to-llvm": get_convert_math_to_llvm,
        "convert-cf-to-llvm": get_convert_cf_to_llvm,
        "convert-func-to-llvm": get_convert_func_to_llvm,
        "device-to-llvm": get_device_to_llvm,
        "convert-gpu-host-to-llvm": get_convert_gpu_host_to_llvm,
        "convert-printf-to-llvm": get_convert_printf_to_llvm,
        "convert-device-printf-to-llvm": get_convert_device_printf_to_llvm,
        "host-to-llvm": get_host_to_llvm,
        "cpu-workgroup-loops": get_cpu_workgroup_loops,
        "cpu-check-accesses": get_cpu_check_accesses,
    }


register_pass_group("gpuir.lowering", get_all_lowering_passes)
register_target_group("gpuir.lowering", get_all_targets)
