"""What both host executors share, without the interpreter: finding `@host` and `@device`, the
device session that `gpu.init` / `gpu.deinit` open and close, the scalar parameters of a host
function. (`gpuir.runtime.executors.make_executor` picks the executor; importing this module
imports neither, so that gpu-run on a compiled provider never loads xDSL's interpreter.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects.mem import MemType
from gpuir.ir.diagnostics import describe_op
from gpuir.runtime.memory import Pointer
from gpuir.runtime.provider import (
    LoadedModule,
    Provider,
    ProviderError,
)
from gpuir.runtime.scalars import is_scalar_type

if TYPE_CHECKING:
    pass


def split_modules(module: ModuleOp) -> tuple[ModuleOp, ModuleOp]:
    """`@host` and `@device` of a split program; the module itself twice otherwise."""
    inner = {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, ModuleOp) and op.sym_name is not None
    }
    if "host" in inner and "device" in inner:
        return inner["host"], inner["device"]
    return module, module


def copy_size(src: Pointer) -> int:
    """The bytes a `gpu.copy_*` of `src`'s pointee moves."""
    return src.extent_bytes()


class DeviceSession:
    """The device side of running host code: the provider, the device module, the sessions that
    `gpu.init` / `gpu.deinit` open and close (nested ones share the device; a device that is
    open already, e.g. by the Python API, stays open), and the device module, loaded once per
    session. Both host executors (this module's and `gpuir.runtime.compiled_host`'s) are one.

    `loaded`: the device module, already loaded into an open `provider` (the Python API passes
    it when it keeps the device open across calls)."""

    def __init__(self, device: ModuleOp, provider: Provider, loaded: LoadedModule | None = None):
        self.device = device
        self.provider = provider
        self.sessions = 0
        self.opened = False
        self.external_loaded = loaded
        self.loaded = loaded

    def open(self, op: Operation) -> None:
        if self.sessions == 0:
            self.opened = not self.provider.is_open
            if self.opened:
                self.provider.open(op=op)
                self.loaded = None
        self.sessions += 1

    def close(self, op: Operation) -> None:
        if self.sessions == 0:
            raise ProviderError(
                op, f"{describe_op(op)} closes a device that is not open", "device not open"
            )
        self.sessions -= 1
        if self.sessions == 0:
            self.provider.synchronize(op=op)
            if self.opened:
                self.provider.close(op=op)
                self.loaded = None
            self.opened = False

    def module_for(self, op: Operation) -> LoadedModule:
        if self.loaded is None:
            self.provider.check_open(op)
            self.loaded = self.provider.load_module(self.device, op=op)
        return self.loaded

    def finish(self) -> None:
        """After a call: close the device if the call opened it and left it open (it failed)."""
        if self.sessions and self.opened and self.provider.is_open:
            self.sessions = 0
            self.opened = False
            self.loaded = None
            self.provider.abandon_streams()
            self.provider.close()


def scalar_params(func: FuncOp) -> list[Attribute]:
    """The parameter types of `func` that take values (all but tokens)."""
    return [t for t in func.function_type.inputs.data if not isinstance(t, MemType)]


def host_function(functions: dict[str, FuncOp], name: str) -> FuncOp:
    """The host function `name`; a `ProviderError` when the program has none."""
    found = functions.get(name)
    if found is None:
        raise ProviderError(None, f"the program has no function @{name} to run", "not found")
    return found


def called_function(
    functions: dict[str, FuncOp], name: str, scalars: Sequence[object]
) -> tuple[FuncOp, list[Attribute]]:
    """The host function `name` and its scalar parameters, which `scalars` must match in
    number (a `ValueError` otherwise)."""
    func = host_function(functions, name)
    expected = scalar_params(func)
    if len(scalars) != len(expected):
        raise ValueError(f"@{name} takes {len(expected)} value(s), got {len(scalars)}")
    return func, expected


def check_entry(func: FuncOp) -> None:
    """`main`'s parameters and results (but tokens) must be scalars that gpu-run can read and
    print."""
    name = func.sym_name.data
    for what, types in (
        ("takes", func.function_type.inputs.data),
        ("returns", func.function_type.outputs.data),
    ):
        for type_ in types:
            if isinstance(type_, MemType):
                continue
            if not is_scalar_type(type_):
                raise ProviderError(
                    func,
                    f"@{name} {what} a value of type {type_}; only integers, index and "
                    "f16/f32/f64 can cross the command line",
                    "invalid signature",
                )
