"""PTX from a lowered device module: the NVPTX back end of LLVM, through llvmlite.

`PtxOptions` is the frozen, validated set of compile options (Triton-style); `compile_ptx`
runs the stages translate → link libdevice (when used) → optimize → emit:

    options = PtxOptions(sm=90)                 # PTX ISA 8.0, -O3, no fast math
    ptx = compile_ptx(device_module, options)   # device_module: the lowered @device module

`llvm_module(device_module, options)` stops before emitting (the LLVM module after the
optimizer); `emit_ptx(llvm_module, options)` is the last stage alone.

The defaults load on current drivers: `sm_80` (every GPU since Ampere runs it) and PTX ISA 8.0
(CUDA 12.0, drivers ≥ 525). The PTX ISA version must be one LLVM 22 knows and at least the
version that introduced the chosen `sm`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from gpuir.lowering.llvm.llvm_ir import TRIPLE, to_llvm

if TYPE_CHECKING:
    from llvmlite import binding

MIN_PTX_FOR_SM: dict[int, int] = {
    50: 40,
    52: 41,
    53: 42,
    60: 50,
    61: 50,
    62: 50,
    70: 60,
    72: 61,
    75: 63,
    80: 70,
    86: 71,
    87: 74,
    89: 78,
    90: 78,
    100: 86,
    101: 86,
    103: 88,
    120: 87,
    121: 88,
}
"""The architectures LLVM 22's NVPTX back end and this module support, with the PTX ISA
version (times ten) that introduced each."""

PTX_VERSIONS = (
    (4, 0), (4, 1), (4, 2), (4, 3), (5, 0), (6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5),
    (7, 0), (7, 1), (7, 2), (7, 3), (7, 4), (7, 5), (7, 6), (7, 7), (7, 8),
    (8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6), (8, 7), (8, 8), (9, 0),
)  # fmt: skip
"""The PTX ISA versions LLVM 22 can emit (its `+ptxNN` features)."""

LIBDEVICE_ENV = "GPUIR_LIBDEVICE"
"""Environment variable: the path of `libdevice.10.bc`, when it is not found by itself."""


@dataclass(frozen=True)
class PtxOptions:
    """How to compile device code to PTX; checked on construction.

    - `sm`: the compute capability times ten (80 = `sm_80`, 90 = `sm_90`);
    - `ptx`: the PTX ISA version (8.0 → LLVM feature `+ptx80`, `.version 8.0`);
    - `opt`: LLVM's optimization level, 0 to 3;
    - `fast_math`: the `fast` flags on every floating-point instruction (approximate division
      and square root, contraction, no NaN/inf/signed-zero guarantees) and libdevice's
      flush-to-zero variants;
    - `index_bitwidth`: 64, or 32 for 32-bit `index` values in device code (index arithmetic
      as nvcc's `int`; values must fit in 32 bits, overflow wraps; the kernel ABI is the same).
      It applies where the device module is lowered (`device-to-llvm{index-bitwidth=32}`, done
      by the `llvm`/`ptx` targets and the cuda provider); `compile_ptx` takes a module that is
      lowered already;
    - `line_info`: the ops' locations as line info, `.file` / `.loc` in the PTX (as
      `nvcc -lineinfo`; `gpuir.lowering.llvm.line_info`); ptxas keeps them with `-lineinfo`.

    Without fast math no `a * b + c` is contracted into an FMA (nvcc does that by default), so
    that float results are those of the CPU providers, bit for bit.
    """

    sm: int = 80
    ptx: float = 8.0
    opt: int = 3
    fast_math: bool = False
    index_bitwidth: int = 64
    line_info: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.sm, bool) or not isinstance(self.sm, int):
            raise ValueError(f"sm must be an integer such as 80 or 90, found {self.sm!r}")
        if self.sm not in MIN_PTX_FOR_SM:
            known = ", ".join(str(sm) for sm in MIN_PTX_FOR_SM)
            raise ValueError(f"sm_{self.sm} is not a known NVIDIA architecture; known: {known}")
        if isinstance(self.ptx, bool) or not isinstance(self.ptx, int | float):
            raise ValueError(f"ptx must be a version number such as 8.0, found {self.ptx!r}")
        if self.ptx_version not in PTX_VERSIONS:
            known = ", ".join(f"{major}.{minor}" for major, minor in PTX_VERSIONS)
            raise ValueError(f"PTX ISA version {self.ptx} is not one LLVM can emit; known: {known}")
        major, minor = self.ptx_version
        needed = MIN_PTX_FOR_SM[self.sm]
        if major * 10 + minor < needed:
            raise ValueError(
                f"sm_{self.sm} needs PTX ISA {needed // 10}.{needed % 10} or later, "
                f"found {self.ptx}"
            )
        if isinstance(self.opt, bool) or self.opt not in (0, 1, 2, 3):
            raise ValueError(f"opt must be 0, 1, 2 or 3, found {self.opt!r}")
        if not isinstance(self.fast_math, bool):
            raise ValueError(f"fast_math must be true or false, found {self.fast_math!r}")
        if isinstance(self.index_bitwidth, bool) or self.index_bitwidth not in (32, 64):
            raise ValueError(f"index-bitwidth must be 32 or 64, found {self.index_bitwidth!r}")
        if not isinstance(self.line_info, bool):
            raise ValueError(f"line-info must be true or false, found {self.line_info!r}")

    @property
    def ptx_version(self) -> tuple[int, int]:
        """`(major, minor)` of `ptx` (8.0 → (8, 0))."""
        tenths = round(float(self.ptx) * 10)
        if abs(float(self.ptx) * 10 - tenths) > 1e-6:
            return (-1, -1)
        return divmod(tenths, 10)

    @property
    def arch(self) -> str:
        """`sm_80`, as LLVM's CPU name and ptxas's `-arch`."""
        return f"sm_{self.sm}"

    @property
    def features(self) -> str:
        """LLVM's target features: `+ptx80`."""
        major, minor = self.ptx_version
        return f"+ptx{major}{minor}"


@cache
def target_machine(sm: int, features: str, opt: int) -> binding.TargetMachine:
    from llvmlite import binding

    binding.initialize_all_targets()
    binding.initialize_all_asmprinters()
    target = binding.Target.from_triple(TRIPLE)
    return target.create_target_machine(cpu=f"sm_{sm}", features=features, opt=opt)


def machine_for(options: PtxOptions) -> binding.TargetMachine:
    return target_machine(options.sm, options.features, options.opt)


def find_libdevice() -> str | None:
    """`libdevice.10.bc`: `$GPUIR_LIBDEVICE`, the nvidia-cuda-nvcc wheel, `$CUDA_HOME`."""
    candidates = [os.environ.get(LIBDEVICE_ENV, "")]
    try:
        import nvidia  # the pip CUDA wheels' namespace package

        for root in nvidia.__path__:
            for cuda in ("cu13", "cuda_nvcc", "cu12"):
                candidates.append(os.path.join(root, cuda, "nvvm", "libdevice", "libdevice.10.bc"))
    except ImportError:
        pass
    for home in (
        os.environ.get("CUDA_HOME", ""),
        os.environ.get("CUDA_PATH", ""),
        "/usr/local/cuda",
    ):
        if home:
            candidates.append(os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc"))
    return next((path for path in candidates if path and os.path.isfile(path)), None)


def uses_libdevice(module: binding.ModuleRef) -> bool:
    return any(f.is_declaration and f.name.startswith("__nv_") for f in module.functions)


def link_libdevice(module: binding.ModuleRef, fast_math: bool) -> None:
    """Link CUDA's libdevice into `module` and make its functions internal, so that the
    optimizer inlines what is used and drops the rest."""
    from llvmlite import binding

    path = find_libdevice()
    if path is None:
        raise LibdeviceNotFound(
            "the device code calls libdevice math functions, but libdevice.10.bc was not "
            f"found: install nvidia-cuda-nvcc, set CUDA_HOME, or set {LIBDEVICE_ENV}"
        )
    with open(path, "rb") as f:
        libdevice = binding.parse_bitcode(f.read())
    libdevice.triple = module.triple
    libdevice.data_layout = module.data_layout
    module.link_in(libdevice)
    for function in module.functions:
        if function.name.startswith("__nv_") and not function.is_declaration:
            function.linkage = "internal"
    flag = 1 if fast_math else 0
    # libdevice asks __nvvm_reflect("__CUDA_FTZ"); NVVMReflect answers from this module flag.
    reflect = binding.parse_assembly(
        f'!llvm.module.flags = !{{!0}}\n!0 = !{{i32 4, !"nvvm-reflect-ftz", i32 {flag}}}\n'
    )
    reflect.triple = module.triple
    reflect.data_layout = module.data_layout
    module.link_in(reflect)


class LibdeviceNotFound(DiagnosticException):
    """The device code needs libdevice, which is not installed."""


def optimize(module: binding.ModuleRef, options: PtxOptions) -> None:
    """LLVM's `default<O{opt}>` pipeline with NVPTX's callbacks (NVVMReflect, …); at `opt=0`
    only global dead code elimination (what libdevice brought and nothing calls)."""
    from llvmlite import binding

    tuning = binding.create_pipeline_tuning_options(speed_level=options.opt)
    builder = binding.create_pass_builder(machine_for(options), tuning)
    if options.opt > 0:
        builder.getModulePassManager().run(module, builder)
        return
    passes = binding.create_new_module_pass_manager()  # -O0: only drop unused libdevice code
    passes.add_global_dead_code_eliminate_pass()
    passes.run(module, builder)


def llvm_module(device: ModuleOp, options: PtxOptions) -> binding.ModuleRef:
    """The lowered device module as LLVM IR, with libdevice linked and optimized."""
    module = to_llvm(device, fast_math=options.fast_math, line_info=options.line_info)
    if uses_libdevice(module):
        link_libdevice(module, options.fast_math)
    optimize(module, options)
    module.verify()
    return module


def emit_ptx(module: binding.ModuleRef, options: PtxOptions) -> str:
    """PTX text of an LLVM module."""
    return machine_for(options).emit_assembly(module)


def compile_ptx(device: ModuleOp, options: PtxOptions = PtxOptions()) -> str:
    """PTX text of a lowered device module (see the module docstring)."""
    return emit_ptx(llvm_module(device, options), options)
