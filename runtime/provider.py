"""The provider interface: what every runtime (`interp`, `cpu`, `cuda`) implements.

A provider is one device: it opens and closes a session, owns device memory (address space 1),
copies between host and device, keeps streams, loads the device module and launches kernels.
The host executor (`gpuir.runtime.host`) and the Python API (`gpuir.api`) drive a provider only
through the methods of `Provider`; nothing else about a provider is public.

Values that cross the interface (see `gpuir.runtime.memory` and `gpuir.runtime.scalars`):
- a pointer is a `memory.Pointer` (allocation, byte offset, pointee type); device allocations are
  `memory.Allocation`s in space 1 that the provider makes (a host-visible provider gives them
  numpy bytes; a CUDA provider gives them `data=None` and the device address);
- a scalar is a Python `int` (iN, index: two's complement, canonical signed, `i1` as 0/1) or a
  numpy `float16`/`float32`/`float64`;
- a stream is a `Stream` handle (an int; `0` is the default stream).

Ordering. Stream-ordered operations (`stream=` given) keep their order per stream; work on
different streams is unordered until a sync. `stream=None` means blocking: the call returns once
the operation is done. A provider may run stream-ordered work eagerly, in the order of the calls
(`interp` does: that is one valid order of every stream), as long as the order per stream holds.

Errors. Every failure is a `ProviderError`: an `OpError` (so `gpu-run` prints it at the op that
caused it, when the caller passed `op=`), with `name`, the provider's own name for the error
(`"CUDA_ERROR_ILLEGAL_ADDRESS"`, `"out of bounds"`, …), and `related`, other ops the message
refers to (the other access of a race), printed as notes.

Writing a provider (`runtime/<name>.py`, then its `module:Class` in `gpuir.runtime.PROVIDERS`):
- subclass `Provider`, set `name` (and `host_visible`), implement the abstract methods, and
  `unavailable_reason()` when it needs something that may be missing (PyCUDA, a device);
- device memory: return `Pointer(Allocation(GLOBAL, nbytes, pointee, extent, …), 0, pointee)`
  from `alloc`: `host_visible=False, address=<device address>` for memory the host cannot
  address, or numpy bytes with `real_address=True` for memory compiled host code can use;
  `memory.free` does the checks of a free, `memory.check_access` those of a copy, and a host
  pointer's bytes are `memory.host_bytes(ptr.allocation)[ptr.offset:…]`;
- `load_module` gets the device module as IR (`@device` after the default pipeline; any module
  with kernels marked `gpu.kernel` or launched): compile it with `gpuir.lowering` and keep what
  `launch` needs in `LoadedModule.payload` (`LoadedModule.of(module, payload)` finds the
  kernels);
- `launch`: `check_launch(name, Launch(...))` does the checks every provider makes, then pass
  the values of `args` in order (pointers as `ptr.address`), plus the dynamic shared memory
  size.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects.gpu import KERNEL_FIXED, KNOWN_SIZES_ATTR, smem_param
from gpuir.ir.diagnostics import OpError, describe_op, item_ranges

if TYPE_CHECKING:
    from gpuir.runtime.memory import Pointer


class ProviderError(OpError):
    """A failure in a provider (or in the host executor), at `op` when it is known.

    `name` is the provider's own name for the error; `related` lists `(op, note)` pairs that
    the message refers to."""

    def __init__(
        self,
        op: Operation | None,
        message: str,
        name: str = "error",
        related: Sequence[tuple[Operation, str]] = (),
    ):
        super().__init__(op, message)  # type: ignore[arg-type]  # op may be None
        self.name = name
        self.related = list(related)


def warp_divergence_message(
    group: int, same: Sequence[int], where: str, rest: Sequence[int], other: str, lo: int, hi: int
) -> str:
    """Barrier divergence at a warp operation, in the words of both `interp` and `cpu`."""
    return (
        f"barrier divergence in group {group}: work-item(s) {item_ranges(same)} wait at {where} "
        f"(a warp operation), but work-item(s) {item_ranges(rest)} of the same warp (work-items "
        f"{lo}-{hi}) {other}; every lane of a warp must reach a warp operation together"
    )


@dataclass(frozen=True)
class Stream:
    """A stream handle. Stored in host memory (`!gpu.stream`) as its 8-byte `handle`."""

    handle: int

    def __repr__(self) -> str:
        return "Stream(default)" if self.handle == 0 else f"Stream({self.handle})"


DEFAULT_STREAM = Stream(0)


@dataclass
class LoadedModule:
    """A device module loaded by a provider: its kernels by name (functions marked
    `gpu.kernel`, or launched, when the module was not split), and whatever the provider
    needs to launch them (`payload`: a CUDA module, a compiled library, …)."""

    module: ModuleOp
    kernels: Mapping[str, FuncOp]
    payload: object = None
    functions: Mapping[str, FuncOp] = field(default_factory=dict[str, FuncOp])

    @classmethod
    def of(cls, module: ModuleOp, payload: object) -> LoadedModule:
        """`module` loaded with the provider's `payload`, its kernels and functions as
        `kernels_of` finds them."""
        kernels, functions = kernels_of(module)
        return cls(module, kernels, payload, functions)

    def kernel(self, name: str, op: Operation | None = None) -> FuncOp:
        """The kernel `name`; a miss is a `ProviderError` listing the kernels there are."""
        if name in self.kernels:
            return self.kernels[name]
        known = ", ".join(f"@{k}" for k in sorted(self.kernels)) or "none"
        raise ProviderError(
            op, f"no kernel named @{name} in the device module (kernels: {known})", "not found"
        )


def kernels_of(module: ModuleOp) -> tuple[dict[str, FuncOp], dict[str, FuncOp]]:
    """The kernels and all functions of a device module.

    In a module marked `gpu.device` (after `split-apply`) the kernels are the functions marked
    `gpu.kernel`; in any other module, also those that a `gpu.launch` names."""
    from gpuir.passes.device_code import functions, kernels

    funcs = functions(module)
    names = kernels(module)
    return {name: funcs[name] for name in sorted(names) if name in funcs}, funcs


class Provider(ABC):
    """One device. See the module docstring for values, ordering and errors.

    Every method takes `op=`, the op on whose behalf it runs (for diagnostics), or None.
    Subclasses call `super().__init__()`; `open()`/`close()` may be used as a context manager.
    """

    name: ClassVar[str]
    """The name `get_provider` and `gpu-run --provider` know it by."""

    host_visible: ClassVar[bool] = False
    """Whether device allocations hold host-addressable numpy bytes (`Allocation.data`), so
    that the Python API can expose them through `__array_interface__`."""

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why this provider cannot run here (no PyCUDA, no device, …), or None when it can."""
        return None

    def __init__(self) -> None:
        self.is_open = False

    def __enter__(self) -> Provider:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.is_open:
            self.close()

    def check_open(self, op: Operation | None) -> None:
        if not self.is_open:
            what = f"{describe_op(op)} needs" if op is not None else "this needs"
            raise ProviderError(
                op, f"{self.name}: {what} an open device (gpu.init first)", "device not open"
            )

    # --- the session ----------------------------------------------------------------------

    @abstractmethod
    def open(self, *, op: Operation | None = None) -> None:
        """Open the device (`gpu.init`); sets `is_open`."""

    @abstractmethod
    def close(self, *, op: Operation | None = None) -> None:
        """Finish all pending work, destroy the streams, release the device (`gpu.deinit`);
        clears `is_open`. Loaded modules are invalid afterwards."""

    # --- global memory --------------------------------------------------------------------

    @abstractmethod
    def alloc(
        self,
        nbytes: int,
        pointee: Attribute,
        extent: int | None = None,
        *,
        stream: Stream | None = None,
        op: Operation | None = None,
    ) -> Pointer:
        """Allocate `nbytes` of global memory for a `pointee` (`extent`: the run-time extent of
        a `!mem.array<? x …>`); return a pointer to its start. Stream-ordered on `stream`."""

    @abstractmethod
    def free(
        self, ptr: Pointer, *, stream: Stream | None = None, op: Operation | None = None
    ) -> None:
        """Free the allocation `ptr` points to the start of (a second free is a
        `use after free`). Stream-ordered on `stream`."""

    @abstractmethod
    def copy_to_device(
        self,
        dst: Pointer,
        src: Pointer,
        nbytes: int,
        *,
        stream: Stream | None = None,
        op: Operation | None = None,
    ) -> None:
        """Copy `nbytes` from host memory at `src` to global memory at `dst`."""

    @abstractmethod
    def copy_to_host(
        self,
        dst: Pointer,
        src: Pointer,
        nbytes: int,
        *,
        stream: Stream | None = None,
        op: Operation | None = None,
    ) -> None:
        """Copy `nbytes` from global memory at `src` to host memory at `dst`."""

    # --- streams --------------------------------------------------------------------------

    def default_stream(self) -> Stream:
        """The default stream (`gpu.default_stream`)."""
        return DEFAULT_STREAM

    @abstractmethod
    def create_stream(self, *, op: Operation | None = None) -> Stream:
        """A new stream (`gpu.stream_init`)."""

    @abstractmethod
    def sync_stream(self, stream: Stream, *, op: Operation | None = None) -> None:
        """Wait for all work on `stream` (`gpu.stream_sync`)."""

    @abstractmethod
    def destroy_stream(self, stream: Stream, *, op: Operation | None = None) -> None:
        """Finish the work on `stream`, then destroy it (`gpu.stream_deinit`)."""

    @abstractmethod
    def synchronize(self, *, op: Operation | None = None) -> None:
        """Wait for all work on every stream."""

    def abandon_streams(self) -> None:
        """Forget the streams' unfinished work, without waiting for it: after a failure, before
        `close` (a kernel may wait forever for work the host never put on a stream). None by
        default: a provider whose streams never wait for each other."""
        return

    # --- code -----------------------------------------------------------------------------

    @abstractmethod
    def load_module(self, module: ModuleOp, *, op: Operation | None = None) -> LoadedModule:
        """Load (compile, if the provider needs to) the device module; valid until `close`."""

    @abstractmethod
    def launch(
        self,
        module: LoadedModule,
        kernel: str,
        n_groups: int,
        n_items: int,
        smem_bytes: int,
        stream: Stream,
        args: Sequence[tuple[object, Attribute]],
        *,
        op: Operation | None = None,
    ) -> None:
        """Launch `kernel` of `module` on a 1-D grid of `n_groups` work-groups of `n_items`
        work-items, stream-ordered on `stream`.

        `smem_bytes` is the size of the dynamic shared memory (0 when the kernel takes no
        shared pointer). `args` are the launch's arguments in order, each as `(value, type)`:
        the kernel's parameters after the four tokens, the two ids and the shared pointer.
        """


@dataclass(frozen=True)
class Launch:
    """One launch as a provider checks and runs it: the arguments of `Provider.launch` but
    the stream, passed on together (to `check_launch`, to interp's `run_launch`)."""

    module: LoadedModule
    kernel: str
    n_groups: int
    n_items: int
    smem_bytes: int
    args: Sequence[tuple[object, Attribute]]
    op: Operation | None


def check_launch(provider: str, launch: Launch, max_items: int = 1024) -> tuple[FuncOp, bool]:
    """Checks every provider makes before a launch: the kernel exists, the configuration is
    valid (as CUDA's: at least one group of 1 to `max_items` items), the arguments match its
    parameters. Returns the kernel and whether it takes the shared-memory pointer."""
    kernel, args, op = launch.kernel, launch.args, launch.op
    func = launch.module.kernel(kernel, op)
    check_known_sizes(provider, kernel, args, op)
    if launch.n_groups < 1 or not 1 <= launch.n_items <= max_items:
        raise ProviderError(
            op,
            f"{provider}: invalid launch configuration of @{kernel}: {launch.n_groups} "
            f"work-group(s) of {launch.n_items} work-item(s) (at least 1 group of 1 to "
            f"{max_items} items)",
            "invalid launch configuration",
        )
    params = func.function_type.inputs.data
    takes_smem = smem_param(params) is not None
    fixed = KERNEL_FIXED + takes_smem
    if len(params) - fixed != len(args):
        raise ProviderError(
            op,
            f"{provider}: @{kernel} takes {len(params) - fixed} argument(s) after the tokens, "
            f"the ids{' and the shared pointer' if takes_smem else ''}; the launch passes "
            f"{len(args)}",
            "invalid kernel arguments",
        )
    for i, ((_, type_), param) in enumerate(zip(args, params[fixed:], strict=True)):
        if type_ != param:
            raise ProviderError(
                op,
                f"{provider}: argument {i} of @{kernel} is {param}, the launch passes {type_}",
                "invalid kernel arguments",
            )
    return func, takes_smem


def check_known_sizes(
    provider: str, kernel: str, args: Sequence[tuple[object, Attribute]], op: Operation | None
) -> None:
    """A launch that carries `KNOWN_SIZES_ATTR` (a kernel imported with MLIR's
    `known_grid_size` / `known_block_size`): its first six arguments, the grid's and the
    block's sizes, are the known ones. The importer also makes such a launch's work-group count
    0 where they differ, so that every provider comes here before it runs anything."""
    known = op.attributes.get(KNOWN_SIZES_ATTR) if op is not None else None
    if not isinstance(known, DictionaryAttr):
        return
    for offset, kind in ((0, "grid"), (3, "block")):
        sizes = known.data.get(kind)
        if not isinstance(sizes, DenseArrayBase):
            continue
        expected = tuple(int(v) for v in sizes.get_values())
        found = tuple(int(value) for value, _ in args[offset : offset + 3])  # type: ignore[call-overload]
        if found != expected:
            raise ProviderError(
                op,
                f"{provider}: @{kernel} has known_{kind}_size {'x'.join(map(str, expected))}, "
                f"the launch's {kind} size is {'x'.join(map(str, found))}",
                "invalid launch configuration",
            )
