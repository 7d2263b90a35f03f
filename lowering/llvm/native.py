"""This CPU as LLVM's target: the target machine the cpu provider's and the compiled host's
code is optimized (`optimize`) and generated for. Light on purpose (llvmlite only, imported on
first use), so that a run whose machine code comes from the disk cache imports no lowering."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llvmlite import binding


@cache
def host_machine() -> binding.TargetMachine:
    """The target machine of this CPU (its name and features), `-O3`, for the optimizer and
    the data layout. An MCJIT engine owns (and frees) its target machine: give each engine
    its own `new_host_machine()`."""
    return new_host_machine()


def new_host_machine() -> binding.TargetMachine:
    """A new target machine of this CPU, `-O3`."""
    from llvmlite import binding

    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    target = binding.Target.from_default_triple()
    return target.create_target_machine(
        cpu=binding.get_host_cpu_name(),
        features=binding.get_host_cpu_features().flatten(),
        opt=3,
    )


@cache
def load_libraries() -> None:
    """libc (`malloc`, `free`), libm (the math functions) and libgcc (`__udivti3` and the other
    128-bit helpers that LLVM's code calls) for MCJIT's symbol lookup: a symbol it cannot find
    is left at address 0, and the code that calls it crashes."""
    from llvmlite import binding

    for name in ("c", "m", "gcc_s"):
        path = ctypes.util.find_library(name)
        if path is not None:
            binding.load_library_permanently(path)


def optimize(module: binding.ModuleRef, level: int = 3) -> binding.ModuleRef:
    """LLVM's `default<O{level}>` for the host CPU, vectorizers on."""
    from llvmlite import binding

    tuning = binding.create_pipeline_tuning_options(speed_level=level)
    tuning.loop_vectorization = True
    tuning.slp_vectorization = True
    builder = binding.create_pass_builder(host_machine(), tuning)
    builder.getModulePassManager().run(module, builder)
    module.verify()
    return module
