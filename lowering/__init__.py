"""gpuir's lowerings: the device module to the llvm dialect, LLVM IR and PTX; the host module to
LLVM IR for this CPU. `get_all_targets()` is the registry of gpu-opt's `-t` targets and
`get_all_lowering_passes()` lists the lowering passes, which importing this package adds to the
one registry of passes (`gpuir.ir.registry`).

Each entry (`TARGETS`, `LOWERING_PASSES`: name → `module:Class`) imports its module on first use
(`gpuir.ir.lazy`), so that gpu-opt starts fast (llvmlite is imported only by the translation and
the PTX back end).

The stages, each printable (Triton-style named stages):

| stage | how to print it |
| --- | --- |
| gpuir IR, split into `@host` / `@device` | `gpu-opt FILE -p gpu-pipeline` |
| llvm dialect | `gpu-opt FILE -p gpu-pipeline,device-to-llvm` (stage by stage: the passes of `DEVICE_TO_LLVM` in `nvptx/device_to_llvm.py`) |
| LLVM IR (NVPTX) | `gpu-opt FILE -t llvm` (`-t llvm{opt=3}`: after LLVM's optimizer) |
| PTX | `gpu-opt FILE -t ptx` (`-t ptx{sm=90 ptx=8.0 opt=3 fast-math=true index-bitwidth=32}`) |
| cubin | `gpuir.lowering.nvptx.ptxas.assemble(ptx, sm)` (needs `ptxas`) |
| SASS | `gpu-opt FILE -t sass` (`-t 'sass{sm=90 ptxas-options="-v" print-commands=true}'`; needs `ptxas` and `nvdisasm`) |
| host module, llvm dialect | `gpu-opt FILE -p gpu-pipeline,host-to-llvm` (the stages of `HOST_TO_LLVM` in `host/host_to_llvm.py`) |
| host module, LLVM IR (this CPU) | `gpu-opt FILE -t host-llvm` (`{opt=3}`): calls of the C ABI in `host/host_abi.py` / `runtime/gpuir_runtime.h` |

`-t llvm` and `-t ptx` take any of the first two stages: a module that is not split yet goes
through `gpu-pipeline` first, a device module that is not lowered yet through `device-to-llvm`.

The kernel ABI (what a runtime relies on to launch a kernel of the PTX or of the cpu
provider's code), the index bitwidth, shared memory and the print buffer: `docs/kernel-abi.md`.
"""

import gpuir.passes  # noqa: F401  # the lowering's stages name gpuir's passes too
from gpuir.ir.lazy import lazy_group
from gpuir.ir.registry import register_pass_group, register_target_group

TARGETS: dict[str, str] = {
    "llvm": "gpuir.lowering.targets:LlvmTarget",
    "ptx": "gpuir.lowering.targets:PtxTarget",
    "sass": "gpuir.lowering.targets:SassTarget",
    "host-llvm": "gpuir.lowering.targets:HostLlvmTarget",
    "mlir-gpu": "gpuir.lowering.targets:MlirGpuTarget",
    "mlir-upstream": "gpuir.lowering.targets:MlirUpstreamTarget",
}


get_all_targets = lazy_group(TARGETS)
"""Our targets by `-t` name; each value imports and returns the target class."""


LOWERING_PASSES: dict[str, str] = {
    "convert-scf-while-to-cf": "gpuir.lowering.llvm.cf_to_llvm:ConvertScfWhileToCfPass",
    "convert-gpu-to-nvvm": "gpuir.lowering.nvptx.gpu_to_nvvm:ConvertGpuToNvvmPass",
    "convert-mem-to-llvm": "gpuir.lowering.llvm.mem_to_llvm:ConvertMemToLlvmPass",
    "erase-mem-tokens": "gpuir.lowering.llvm.erase_mem_tokens:EraseMemTokensPass",
    "convert-arith-to-llvm": "gpuir.lowering.llvm.arith_to_llvm:ConvertArithToLlvmPass",
    "convert-math-to-llvm": "gpuir.lowering.llvm.math_to_llvm:ConvertMathToLlvmPass",
    "convert-vector-to-llvm": "gpuir.lowering.llvm.vector_to_llvm:ConvertVectorToLlvmPass",
    "convert-cf-to-llvm": "gpuir.lowering.llvm.cf_to_llvm:ConvertCfToLlvmPass",
    "convert-func-to-llvm": "gpuir.lowering.llvm.func_to_llvm:ConvertFuncToLlvmPass",
    "device-to-llvm": "gpuir.lowering.nvptx.device_to_llvm:DeviceToLlvmPass",
    "convert-gpu-host-to-llvm": "gpuir.lowering.host.gpu_host_to_llvm:ConvertGpuHostToLlvmPass",
    "convert-printf-to-llvm": "gpuir.lowering.host.printf_to_llvm:ConvertPrintfToLlvmPass",
    "convert-device-printf-to-llvm": "gpuir.lowering.llvm.device_printf:ConvertDevicePrintfToLlvmPass",
    "host-to-llvm": "gpuir.lowering.host.host_to_llvm:HostToLlvmPass",
    "cpu-workgroup-loops": "gpuir.lowering.cpu.workgroup_loops:CpuWorkgroupLoopsPass",
    "cpu-check-accesses": "gpuir.lowering.cpu.check_accesses:CpuCheckAccessesPass",
}


get_all_lowering_passes = lazy_group(LOWERING_PASSES)
"""The lowering passes by CLI name; each value imports and returns the pass class."""


register_pass_group("gpuir.lowering", get_all_lowering_passes)
register_target_group("gpuir.lowering", get_all_targets)
