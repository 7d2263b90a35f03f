"""gpuir's Python API: compile a program once, run its `@main`, or keep a device open and launch
its kernels on resident buffers.

    import numpy as np
    import gpuir

    program = gpuir.compile(text)              # the default pipeline; provider "interp"
    program.main(3)                            # @main's results, as numpy scalars

    with gpuir.Device("interp") as device:     # "auto", "interp", "cpu", "cuda", or a Provider
        program = device.compile(text)         # or gpuir.compile(text, provider=device)
        x = device.upload(np.arange(16, dtype=np.float32))
        y = device.empty(16, np.float32)
        scale = program.kernel("scale")        # a kernel: launched, or marked `gpu.kernel`
        scale(4, 4, x, y, 2.0)                 # n_groups, n_items, the kernel's arguments
        device.synchronize()
        y.download()                           # a numpy array; np.asarray(y) where host-visible
        y[4:].upload(np.zeros(12))             # views (gpuir.Layout): no device allocation
        y[::-2].download()                     # [y[15], y[13], …], dense

Everything goes through the provider interface (`gpuir.runtime.provider.Provider`); a `Device` is
one provider instance, opened on first use (or by `with`/`open()`) and closed by `close()`.
`main` runs the host executor against the program's device: with the device open, `gpu.init` in
`main` joins that session; otherwise `main` opens and closes the device itself.

Errors: `CompileError` (parse, verifier, pass: the message is the diagnostic gpu-run prints),
`ProviderError` (at run time: `out of bounds`, `race`, …), `KernelNotFound` (a `KeyError` that
lists the kernels there are), `TypeError` for arguments that do not fit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException

from gpuir.api.arguments import ArgumentError, _converters, _wrong_arity, convert_args
from gpuir.api.buffers import Buffer, Strided
from gpuir.api.elements import element_type, nested_array
from gpuir.dialects.gpu import kernel_arguments, smem_param
from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.runtime import get_provider
from gpuir.runtime.executors import make_executor
from gpuir.runtime.memory import size_of
from gpuir.runtime.provider import LoadedModule, Provider, ProviderError, Stream, kernels_of
from gpuir.runtime.scalars import to_numpy
from gpuir.runtime.session import scalar_params, split_modules

__all__ = [
    "ArgumentError",
    "Buffer",
    "CompileError",
    "Device",
    "Kernel",
    "KernelNotFound",
    "Program",
    "ProviderError",
    "Strided",
    "compile",
]


class CompileError(Exception):
    """A program that does not parse, verify or pass the pipeline; the message is the
    diagnostic (`file:line:col: error: …` with the source line)."""


class KernelNotFound(KeyError):
    """`Program.kernel(name)` of a name that is no kernel; the message lists the kernels."""

    def __str__(self) -> str:
        return str(self.args[0])


# --- devices and buffers -------------------------------------------------------------------------


class Device:
    """One provider instance: resident buffers, streams, loaded programs."""

    def __init__(self, provider: str | Provider = "interp"):
        self.provider = get_provider(provider) if isinstance(provider, str) else provider
        self._loaded: dict[int, tuple[Program, LoadedModule]] = {}
        self.session = 0
        """How many times the device has been opened (what was loaded before is gone)."""

    @property
    def name(self) -> str:
        return self.provider.name

    @property
    def is_open(self) -> bool:
        return self.provider.is_open

    def open(self) -> Device:
        if not self.provider.is_open:
            self.provider.open()
            self._loaded.clear()
            self.session += 1
        return self

    def close(self) -> None:
        """Finish all work and close the device; its buffers are gone."""
        if self.provider.is_open:
            self.provider.close()
        self._loaded.clear()

    def __enter__(self) -> Device:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Device({self.name!r}, {'open' if self.is_open else 'closed'})"

    def compile(
        self,
        source: str | Path | ModuleOp,
        *,
        pipeline: str | None = None,
        interpret_host: bool = False,
    ) -> Program:
        """`gpuir.compile(source, provider=self)`."""
        return compile(source, provider=self, pipeline=pipeline, interpret_host=interpret_host)

    def empty(self, shape: int | Sequence[int], dtype: np.typing.DTypeLike) -> Buffer:
        """A device buffer of `shape` and `dtype` (its contents are undefined on a real
        device)."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        dtype = np.dtype(dtype)
        pointee = nested_array(shape, element_type(dtype))
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        self.open()
        pointer = self.provider.alloc(nbytes, pointee)
        return Buffer(self, pointer, shape, dtype)

    def upload(self, array: np.typing.ArrayLike, *, stream: Stream | None = None) -> Buffer:
        """A device buffer holding a copy of `array`."""
        array = np.asarray(array)
        buffer = self.empty(array.shape, array.dtype)
        buffer.upload(array, stream=stream)
        return buffer

    def stream(self) -> Stream:
        """A new stream (destroyed with the device, or by `destroy_stream`)."""
        self.open()
        return self.provider.create_stream()

    def destroy_stream(self, stream: Stream) -> None:
        self.provider.destroy_stream(stream)

    def synchronize(self, stream: Stream | None = None) -> None:
        """Wait for the work on `stream`, or on every stream."""
        if not self.provider.is_open:
            return
        if stream is None:
            self.provider.synchronize()
        else:
            self.provider.sync_stream(stream)

    def live_allocations(self) -> int:
        """How many device allocations are live (made and not yet freed), for leak checks."""
        live = getattr(self.provider, "live", ())
        if isinstance(live, dict):  # cuda: only the live ones, by serial
            return len(live)
        return sum(not allocation.freed for allocation in live)

    def load(self, program: Program) -> LoadedModule:
        """`program`'s device module, loaded once per session."""
        self.open()
        entry = self._loaded.get(id(program))
        if entry is None or entry[0] is not program:
            entry = (program, self.provider.load_module(program.device_module))
            self._loaded[id(program)] = entry
        return entry[1]


# --- programs and kernels -----------------------------------------------------------------------


class Program:
    """A compiled program on a device: `main(...)`, and its kernels by name."""

    def __init__(
        self,
        module: ModuleOp,
        device: Device,
        out: IO[str] | None = None,
        interpret_host: bool = False,
    ):
        self.module = module
        self.device = device
        self.out = out
        self.interpret_host = interpret_host
        self.host_module, self.device_module = split_modules(module)
        self._kernels, _ = kernels_of(self.device_module)
        self._host: object = None
        """The machine code of the host module, once a call made it (the module is compiled
        once: change a program by compiling it again)."""

    @property
    def kernels(self) -> tuple[str, ...]:
        return tuple(sorted(self._kernels))

    def kernel(self, name: str) -> Kernel:
        """The kernel `name` (a function that a launch names or that is marked `gpu.kernel`)."""
        if name not in self._kernels:
            known = ", ".join(self.kernels) or "none (launch one, or mark it gpu.kernel)"
            raise KernelNotFound(f"no kernel named '{name}'; the kernels are: {known}")
        return Kernel(self, self._kernels[name])

    def main(self, *args: object, name: str = "main") -> object:
        """Call `@name` with `args` (one per non-token parameter, numbers or numpy scalars);
        its non-token results as numpy scalars: None, one value, or a tuple of several."""
        loaded = self.device.load(self) if self.device.is_open else None
        executor = make_executor(
            self.module,
            self.device.provider,
            self.out,
            loaded,
            compiled=not self.interpret_host,
            host=self._host,
        )
        if executor.compiled:
            self._host = executor.program  # type: ignore[attr-defined]  # the next call's
        if name not in executor.functions:
            raise KeyError(f"the program has no function @{name}")
        func = executor.function(name)
        values = convert_args(func, scalar_params(func), args, self.device)
        results = executor.run_main(values, name)
        converted = tuple(to_numpy(value, type_) for value, type_ in results)
        if not converted:
            return None
        return converted[0] if len(converted) == 1 else converted


class Kernel:
    """A kernel of a program: `kernel(n_groups, n_items, *args, smem_bytes=, stream=)`.

    What does not change between launches is prepared once, here: one converter per parameter
    (a buffer's pointer is kept for the next launch with the same buffer), the default shared
    memory size; the device keeps the loaded module and the provider its prepared kernel (the
    `cpu` provider: the argument buffer it fills in place). A launch allocates no device
    memory and keeps nothing (`tests/test_launch_allocations.py`, `benchmarks/launch.py`)."""

    def __init__(self, program: Program, func: FuncOp):
        self.program = program
        self.func = func
        self.name = func.sym_name.data
        inputs = func.function_type.inputs.data
        self.takes_smem = smem_param(inputs) is not None
        self.params: tuple[Attribute, ...] = kernel_arguments(inputs)
        self._convert = _converters(func, self.params, program.device)
        self._default_smem = self._smem_bytes(None) if not self._dynamic_smem() else None
        self._launcher: tuple[int, Callable[..., None] | None] = (-1, None)
        """The provider's launcher of this kernel (`CpuProvider.launcher`) and the device's
        session it is of, made at the first launch of a session on the default stream."""

    def __repr__(self) -> str:
        return f"Kernel(@{self.name}, ({', '.join(map(str, self.params))}))"

    def __call__(
        self,
        n_groups: int,
        n_items: int,
        *args: object,
        smem_bytes: int | None = None,
        stream: Stream | None = None,
    ) -> None:
        """Launch on a 1-D grid of `n_groups` x `n_items`. Buffers pass as pointers; numbers
        as the parameter's type; a struct as a tuple (or numpy structured scalar) of its
        fields. `smem_bytes`: the dynamic shared memory (default: the size of a static shared
        pointee)."""
        session, launch = self._launcher
        device = self.program.device
        if launch is not None and stream is None and smem_bytes is None:
            if session == device.session and launch(n_groups, n_items, args):
                return
        if len(args) != len(self.params):
            _wrong_arity(self.func, self.params, args)
        values = [convert(arg) for convert, arg in zip(self._convert, args, strict=True)]
        smem = self._default_smem
        if smem_bytes is not None or smem is None:
            smem = self._smem_bytes(smem_bytes)
        provider = device.provider
        if session != device.session and provider.is_open and smem is not None:
            make = getattr(provider, "launcher", None)
            launch = None
            if make is not None and self._default_smem is not None:
                loaded = device.load(self.program)
                launch = make(loaded, self.name, self.params, self._convert, self._default_smem)
            self._launcher = (device.session, launch)
        provider.launch(
            device.load(self.program),
            self.name,
            int(n_groups),
            int(n_items),
            smem,
            stream if stream is not None else provider.default_stream(),
            list(zip(values, self.params, strict=True)),
        )

    def _dynamic_smem(self) -> bool:
        pointee = smem_param(self.func.function_type.inputs.data)
        return isinstance(pointee, PtrType) and (
            isinstance(pointee.pointee, ArrayType) and pointee.pointee.is_dynamic
        )

    def _smem_bytes(self, requested: int | None) -> int:
        if not self.takes_smem:
            if requested:
                raise TypeError(f"@{self.name} takes no shared memory, got smem_bytes={requested}")
            return 0
        pointee = smem_param(self.func.function_type.inputs.data)
        assert pointee is not None
        if requested is not None:
            return int(requested)
        if isinstance(pointee.pointee, ArrayType) and pointee.pointee.is_dynamic:
            raise TypeError(f"@{self.name} takes dynamic shared memory: pass smem_bytes=")
        return size_of(pointee.pointee)


# --- compiling -----------------------------------------------------------------------------------


def compile(  # noqa: A001  # gpuir.compile, as the issue names it
    source: str | Path | ModuleOp,
    provider: str | Provider | Device = "interp",
    *,
    pipeline: str | None = None,
    out: IO[str] | None = None,
    interpret_host: bool = False,
) -> Program:
    """Parse (text, a path, or a module, which is copied), verify and run the default pipeline
    (or `pipeline`); a `Program` on `provider` (a name, a provider, or a `Device` to share).
    `out` receives `printf` and `buffer.print` output (default: `sys.stdout`). On the `cpu`
    and `cuda` providers `main` runs the host code as machine code (compiled on its first
    call); `interpret_host=True` runs it on the host interpreter instead."""
    device = provider if isinstance(provider, Device) else Device(provider)
    parsed = _parse(source)
    from gpuir.dialects import make_context
    from gpuir.ir.source import format_diagnostic
    from gpuir.ir.verifier import verify_input, verify_ops

    try:
        ctx = make_context()
        verify_ops(parsed.module)
        verify_input(parsed.module)
        _pipeline(pipeline).run(ctx, parsed.module)
        parsed.module.verify()
    except DiagnosticException as e:
        raise CompileError(format_diagnostic(e, parsed)) from e
    return Program(parsed.module, device, out, interpret_host)


def _pipeline(pipeline: str | None):
    """The default pipeline (`gpu-pipeline`), or the one `pipeline` names."""
    from gpuir.ir.pass_manager import PipelineError
    from gpuir.ir.plugins import PluginError, load_plugins
    from gpuir.tools.pass_flags import pipeline_from

    if pipeline is not None:
        try:
            load_plugins()  # installed ones and $GPUIR_PLUGINS (each loads once)
        except PluginError as e:
            raise CompileError(str(e)) from e
    try:
        return pipeline_from(pipeline)
    except PipelineError as e:
        raise CompileError(f"bad pass pipeline '{pipeline}': {e}") from e


def _parse(source: str | Path | ModuleOp):
    from gpuir.ir.reader import parse_program
    from gpuir.ir.source import ParsedChunk, SourceError

    if isinstance(source, ModuleOp):
        return ParsedChunk(source.clone(), "<module>", None, 0, {})
    name = "<string>"
    if isinstance(source, Path):
        name, source = str(source), source.read_text()
    try:
        return parse_program(source, name)
    except SourceError as e:
        raise CompileError(str(e)) from e
