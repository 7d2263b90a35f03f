"""A faulted launch's error on the cpu provider: a fault (`gpuir.runtime.cpu.faults`) in CUDA's
words, located next to the device allocations; a barrier or warp divergence in `interp`'s words,
at its op."""

from __future__ import annotations

import ctypes
import signal
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation

from gpuir.dialects.gpu import WARP
from gpuir.ir.diagnostics import item_ranges
from gpuir.runtime import memory
from gpuir.runtime.cpu import arena, faults
from gpuir.runtime.provider import ProviderError, warp_divergence_message

if TYPE_CHECKING:
    from gpuir.runtime.cpu.compiled import CompiledKernel

SIGNAL_WORDS = {
    signal.SIGSEGV: "an illegal memory access",
    signal.SIGBUS: "an illegal memory access (bus error)",
    signal.SIGFPE: "an integer division by zero",
}


def read_stops(
    fault: faults.Fault, code: CompiledKernel, shared: int, n_items: int
) -> faults.Fault:
    """`fault`, with the items' stops read from the group's shared memory at `shared` when
    it is a barrier divergence (before the next group on this thread overwrites them)."""
    if fault.signal == faults.DIVERGENCE and code.resume_state is not None:
        fault.stops = tuple((ctypes.c_int32 * n_items).from_address(shared + code.resume_state))
    return fault


def pool_error(
    faulted: list[tuple[int, faults.Fault]],
    code: CompiledKernel,
    shared: list[int],
    n_items: int,
    source: ModuleOp | None,
    op: Operation | None,
) -> ProviderError:
    """The error of a launch on the pool whose threads faulted (`faulted`: thread and fault):
    the fault of the lowest work-group, the stops of a divergence read from its thread's
    shared memory (`shared[w]`)."""
    w, fault = min(faulted, key=lambda found: found[1].group)
    return fault_error(read_stops(fault, code, shared[w], n_items), code, source, op)


def fault_error(
    fault: faults.Fault, code: CompiledKernel, source: ModuleOp | None, op: Operation | None
) -> ProviderError:
    """A kernel's fault as the launch's error, in CUDA's words: what, where (the address
    and the nearest device allocation), the work-group; or its barrier divergence, in
    `interp`'s words."""
    if fault.signal == faults.DIVERGENCE:
        return divergence_error(fault, code, source, op)
    kernel = code.name
    words = SIGNAL_WORDS.get(fault.signal, f"signal {fault.signal}")
    where = ""
    if fault.signal != signal.SIGFPE:
        where = f" at address {fault.address:#x}{describe_address(fault.address)}"
    message = f"cpu: {words} in @{kernel}{where}, in work-group {fault.group}"
    name = "integer division by zero" if fault.signal == signal.SIGFPE else "illegal address"
    return ProviderError(op, message, name)


def divergence_error(
    fault: faults.Fault, code: CompiledKernel, source: ModuleOp | None, op: Operation | None
) -> ProviderError:
    """The work-items of group `fault.group` stopped at different places (`fault.stops`: 0 at
    the end of the kernel, `b` at barrier `b`), in `interp`'s words, at the barrier's op of
    `source` (else at the launch)."""
    stops = fault.stops
    warp = warp_divergence(fault, code, source)
    if warp is not None:
        return warp
    waiting = [i for i, s in enumerate(stops) if s != 0]
    returned = [i for i, s in enumerate(stops) if s == 0]
    group, passed = fault.group, fault.address
    first = stops[waiting[0]] if waiting else 0
    barrier, where = barrier_op(code, first, source), describe_barrier(code, first)
    if returned and waiting:
        message = (
            f"barrier divergence in group {group}: work-item(s) {item_ranges(waiting)} wait at "
            f"{where} (barrier {passed + 1} of the group), but work-item(s) "
            f"{item_ranges(returned)} returned from the kernel after {passed} barrier(s), "
            "without reaching it"
        )
        return ProviderError(barrier or op, message, "barrier divergence")
    other = next((s for s in stops if s != first), first)
    other_item = stops.index(other)
    same = [i for i, s in enumerate(stops) if s == first]
    rest = [i for i, s in enumerate(stops) if s == other]
    other_op = barrier_op(code, other, source)
    suffix = ""
    if barrier is not None and barrier is other_op:  # two barriers made from one op
        scope = barrier.name == "gpu.synced_scope"
        suffix = (
            " (the entry and the exit of one synced scope)"
            if scope
            else " (reached through different calls)"
        )
    message = (
        f"barrier divergence in group {group}: work-item(s) {item_ranges(same)} wait at "
        f"{where}, but work-item(s) {item_ranges(rest)} wait at "
        f"{describe_barrier(code, other)}{suffix}; every work-item of a group must reach the "
        "same barriers"
    )
    related = [(other_op, f"where work-item {other_item} waits")] if other_op is not None else []
    return ProviderError(barrier or op, message, "barrier divergence", related)


WARP_OP_NAMES = ("gpu.shuffle", "gpu.ballot")


def warp_divergence(
    fault: faults.Fault, code: CompiledKernel, source: ModuleOp | None
) -> ProviderError | None:
    """The first warp some of whose lanes stopped at a warp operation and others elsewhere, in
    `interp`'s words (None when there is none: the divergence is the group's)."""
    stops = fault.stops
    at_warp_op = {
        number for number, entry in enumerate(code.barriers, 1) if entry[0] in WARP_OP_NAMES
    }
    for start in range(0, len(stops), WARP):
        lanes = range(start, min(start + WARP, len(stops)))
        first = next((i for i in lanes if stops[i] in at_warp_op), None)
        if first is None:
            continue
        other = next((i for i in lanes if stops[i] != stops[first]), None)
        if other is None:
            continue
        same = [i for i in lanes if stops[i] == stops[first]]
        rest = [i for i in lanes if stops[i] == stops[other]]
        if stops[other] == 0:
            where = "returned from the kernel"
        else:
            where = f"wait at {describe_barrier(code, stops[other])}"
        message = warp_divergence_message(
            fault.group,
            same,
            describe_barrier(code, stops[first]),
            rest,
            where,
            lanes[0],
            lanes[-1],
        )
        op = barrier_op(code, stops[first], source)
        return ProviderError(op, message, "barrier divergence")
    return None


def barrier_op(code: CompiledKernel, number: int, source: ModuleOp | None) -> Operation | None:
    """The op of `source` at barrier `number`'s location (a `gpu.synced_scope` for the
    barriers it expands into)."""
    if source is None or not 1 <= number <= len(code.barriers):
        return None
    name, file, line, column = code.barriers[number - 1]
    if not file:
        return None
    found = None
    for candidate in source.walk():
        loc = candidate.location
        if (
            isinstance(loc, FileLineColLoc)
            and loc.line.data == line
            and loc.column.data == column
            and loc.filename.data == file
        ):
            if candidate.name == name:
                return candidate
            found = found or candidate
    return found


def describe_barrier(code: CompiledKernel, number: int) -> str:
    """`'gpu.sync_work_items' at file:line:col`, as `interp` describes a barrier."""
    if not 1 <= number <= len(code.barriers):
        return "(unknown op)"
    name, file, line, column = code.barriers[number - 1]
    return f"'{name}' at {file}:{line}:{column}" if file else f"'{name}'"


NEAR = 1 << 16
"""An address at most this far outside an allocation is described next to it."""


def describe_address(address: int) -> str:
    """Where `address` is, next to the device allocations: `(12 bytes past the end of a
    4000-byte global allocation (by …))`, `(in no device allocation)`."""
    if address == 0:  # what the kernel reports for an address no mapping can have, too
        return " (a null pointer, or an address outside the address space)"
    found = arena.arena()
    if found is None or not found.contains(address):
        return " (outside device memory)"
    before, after = found.near(address)
    candidates = []
    if before is not None and address >= before.data + before.nbytes:
        candidates.append((address - (before.data + before.nbytes), "past the end of", before))
    if after is not None and address < after.data:
        candidates.append((after.data - address, "before the start of", after))
    if not candidates or min(c[0] for c in candidates) > NEAR:
        return " (in no device allocation)"
    distance, relation, block = min(candidates, key=lambda c: c[0])
    allocation, _ = memory.ADDRESSES.resolve(block.data)
    if allocation is None or allocation.freed or allocation.address != block.data:
        what = "a work-group's shared memory"  # the arena's only other blocks
    else:
        what = allocation.describe()
    return f" ({distance} bytes {relation} {what})"
