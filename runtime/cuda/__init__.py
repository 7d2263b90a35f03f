"""The `cuda` provider: gpuir programs on an NVIDIA GPU, through PyCUDA (the CUDA driver API).
`driver_api` (PyCUDA on first use, `check`: the one status check of every driver call),
`targets` (which `sm` and PTX ISA version for a device and a driver), `arguments` (how a kernel's
arguments are packed), `provider` (`CudaProvider`; its docstring maps each host op to its
driver calls)."""

from __future__ import annotations

from gpuir.runtime.cuda.arguments import arg_format, arg_value, min_smem_bytes, smem_pointee
from gpuir.runtime.cuda.driver_api import DriverError, check, cuda_error
from gpuir.runtime.cuda.provider import CudaProvider
from gpuir.runtime.cuda.targets import choose_target, driver_ptx

__all__ = [
    "CudaProvider",
    "DriverError",
    "arg_format",
    "arg_value",
    "check",
    "choose_target",
    "cuda_error",
    "driver_ptx",
    "min_smem_bytes",
    "smem_pointee",
]
