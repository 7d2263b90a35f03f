"""PyCUDA, imported on first use (`driver()`), and the one status check of every driver call
(`check`): a failed call is a `ProviderError` at the op that made it, named after the CUDA error
(`CUDA_ERROR_ILLEGAL_ADDRESS`, …), as tinygrad's ops_cuda checks each status in one place."""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from xdsl.ir import Operation

from gpuir.runtime.provider import ProviderError

FAULTS = frozenset(
    {
        "CUDA_ERROR_ILLEGAL_ADDRESS",
        "CUDA_ERROR_LAUNCH_FAILED",
        "CUDA_ERROR_MISALIGNED_ADDRESS",
        "CUDA_ERROR_ILLEGAL_INSTRUCTION",
        "CUDA_ERROR_INVALID_ADDRESS_SPACE",
        "CUDA_ERROR_INVALID_PC",
        "CUDA_ERROR_HARDWARE_STACK_ERROR",
        "CUDA_ERROR_ASSERT",
        "CUDA_ERROR_LAUNCH_TIMEOUT",
        "CUDA_ERROR_TRAP",
    }
)
"""Errors that a kernel causes: the context is unusable afterwards."""
KNOWN_ERRORS: dict[str, str] = {
    "invalid argument": "CUDA_ERROR_INVALID_VALUE",
    "out of memory": "CUDA_ERROR_OUT_OF_MEMORY",
    "initialization error": "CUDA_ERROR_NOT_INITIALIZED",
    "driver shutting down": "CUDA_ERROR_DEINITIALIZED",
    "no CUDA-capable device is detected": "CUDA_ERROR_NO_DEVICE",
    "invalid device ordinal": "CUDA_ERROR_INVALID_DEVICE",
    "CUDA driver is a stub library": "CUDA_ERROR_STUB_LIBRARY",
    "device kernel image is invalid": "CUDA_ERROR_INVALID_IMAGE",
    "invalid device context": "CUDA_ERROR_INVALID_CONTEXT",
    "no kernel image is available for execution on the device": "CUDA_ERROR_NO_BINARY_FOR_GPU",
    "a PTX JIT compilation failed": "CUDA_ERROR_INVALID_PTX",
    "the provided PTX was compiled with an unsupported toolchain.": (
        "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"
    ),
    "invalid resource handle": "CUDA_ERROR_INVALID_HANDLE",
    "named symbol not found": "CUDA_ERROR_NOT_FOUND",
    "device not ready": "CUDA_ERROR_NOT_READY",
    "an illegal memory access was encountered": "CUDA_ERROR_ILLEGAL_ADDRESS",
    "too many resources requested for launch": "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
    "the launch timed out and was terminated": "CUDA_ERROR_LAUNCH_TIMEOUT",
    "unspecified launch failure": "CUDA_ERROR_LAUNCH_FAILED",
    "misaligned address": "CUDA_ERROR_MISALIGNED_ADDRESS",
    "an illegal instruction was encountered": "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "device-side assert triggered": "CUDA_ERROR_ASSERT",
    "hardware stack error": "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "invalid program counter": "CUDA_ERROR_INVALID_PC",
    "operation not supported on global/shared address space": "CUDA_ERROR_INVALID_ADDRESS_SPACE",
    "operation not supported": "CUDA_ERROR_NOT_SUPPORTED",
    "context is destroyed": "CUDA_ERROR_CONTEXT_IS_DESTROYED",
    "unknown error": "CUDA_ERROR_UNKNOWN",
}
"""`cuGetErrorString` → `cuGetErrorName` for the errors a program meets, for when the driver
cannot be asked (`error_names` asks it)."""


# --- PyCUDA, imported on first use ----------------------------------------------------------------


def driver() -> ModuleType:
    """`pycuda.driver`; an `ImportError` when PyCUDA is missing or cannot load the driver."""
    return importlib.import_module("pycuda.driver")


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


# --- errors ----------------------------------------------------------------------------------------


@cache
def error_names() -> dict[str, str]:
    """Every `cuGetErrorString` text of this driver → its `cuGetErrorName` (asked through
    ctypes; PyCUDA's exceptions carry only the text); `KNOWN_ERRORS` where the driver cannot
    be asked."""
    names = dict(KNOWN_ERRORS)
    try:
        libcuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return names
    text, name = ctypes.c_char_p(), ctypes.c_char_p()
    for code in range(1000):
        if libcuda.cuGetErrorString(code, ctypes.byref(text)) != 0 or not text.value:
            continue
        if libcuda.cuGetErrorName(code, ctypes.byref(name)) != 0 or not name.value:
            continue
        names[text.value.decode(errors="replace")] = name.value.decode(errors="replace")
    return names


@dataclass(frozen=True)
class DriverError:
    """A PyCUDA error message taken apart: `cuMemcpyDtoH failed: an illegal memory access was
    encountered` (the routine, the driver's text, its CUDA error name, and what follows ` - `:
    a JIT log, a PyCUDA remark)."""

    routine: str
    text: str
    name: str
    detail: str = ""

    @classmethod
    def parse(cls, message: str) -> DriverError:
        routine, found, rest = message.partition(" failed: ")
        if not found:
            return cls("", message.strip(), "CUDA error")
        names = error_names()
        # The driver's text may itself contain ' - ': the longest known text that starts the
        # rest wins, and what follows it is the detail.
        for text in sorted(names, key=len, reverse=True):
            if rest == text or rest.startswith(text + " - "):
                return cls(routine, text, names[text], rest[len(text) + 3 :].strip())
        text, _, detail = rest.partition(" - ")
        return cls(routine, text.strip(), "CUDA error", detail.strip())

    def describe(self) -> str:
        where = f"{self.routine} failed: " if self.routine else ""
        detail = f"\n{self.detail}" if self.detail else ""
        return f"{where}{self.name} ({self.text}){detail}"


def cuda_error(op: Operation | None, error: BaseException, context: str = "") -> ProviderError:
    """The `ProviderError` of a PyCUDA error at `op`."""
    parsed = DriverError.parse(str(error))
    prefix = f"cuda: {context}: " if context else "cuda: "
    return ProviderError(op, prefix + parsed.describe(), parsed.name)


def check(op: Operation | None, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call the PyCUDA function `fn`; a driver error becomes a `ProviderError` at `op`, named
    after the CUDA error. The one status check of this provider."""
    try:
        return fn(*args, **kwargs)
    except driver().Error as e:
        raise cuda_error(op, e) from None
