"""interp's group scheduler: each work-item of a kernel with barriers a coroutine of its own
(`ItemCoroutine`, a greenlet), resumed one at a time by its group's `GroupScheduler`, which
checks the barriers and warp operations and hands out the collectives' and warp operations'
results."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from greenlet import greenlet
from xdsl.ir import Operation

from gpuir.dialects import gpu
from gpuir.dialects.gpu import shuffle_source
from gpuir.dialects.traits import is_warp_op
from gpuir.ir.diagnostics import describe_op, item_ranges
from gpuir.runtime.interp.collectives import left_scan, tree_reduce
from gpuir.runtime.interp.mma import mma_results
from gpuir.runtime.provider import ProviderError, warp_divergence_message
from gpuir.runtime.scalars import signed, wrap

if TYPE_CHECKING:
    from gpuir.runtime.interp.items import GroupState, ItemMachine
    from gpuir.runtime.interp.provider import KernelRun


class _Abort(BaseException):
    """Unwinds a work-item's coroutine when the run ends early (not an error of the program)."""


class OutOfStacks(Exception):
    """A work-item's coroutine could not keep its stack; the launch reports it at its op."""


class ItemCoroutine:
    """A work-item as a coroutine: a greenlet of the thread that runs its group, run only when
    the group's scheduler resumes it, until it reaches a barrier or returns. A switch costs
    about a microsecond, where handing control between threads cost a hundred."""

    def __init__(self, machine: ItemMachine, scheduler: GroupScheduler):
        self.machine = machine
        self.scheduler = scheduler
        self.coroutine: greenlet | None = None
        self.state = "new"
        self.key: tuple[Operation, int, tuple[Operation, ...]] | None = None
        self.op: Operation | None = None
        self.value: object = None
        self.result: object = None
        self.error: BaseException | None = None
        machine.coroutine = self

    def _main(self) -> None:
        try:
            with np.errstate(all="ignore"):
                self.machine.run.run_item(self.machine)
            self.state = "done"
        except _Abort:
            self.state = "aborted"
        except BaseException as e:  # handed to the scheduler, which raises it
            self.error = e
            self.state = "error"

    def resume(self) -> None:
        """Run this item until it reaches a barrier or ends (called by the scheduler; the
        coroutine's parent is the scheduler's, which it switches back to)."""
        self.state = "running"
        if self.coroutine is None:
            self.coroutine = greenlet(self._main)
        try:
            self.coroutine.switch()
        except MemoryError as e:  # no memory to keep the stacks of the suspended items
            raise OutOfStacks(
                f"out of memory: cannot keep the stacks of the group's "
                f"{len(self.scheduler.items)} work-items"
            ) from e

    def arrive(self, op: Operation, key: tuple, value: object) -> object:
        """At a barrier (in this item's coroutine): hand control back, wait to be resumed."""
        self.state, self.op, self.key, self.value = "barrier", op, key, value
        assert self.coroutine is not None and self.coroutine.parent is not None
        self.coroutine.parent.switch()
        if self.scheduler.aborting:
            raise _Abort
        return self.result

    def abort(self) -> None:
        """Unwind an item waiting at a barrier (the run ends early)."""
        if self.state == "barrier" and self.coroutine is not None:
            self.coroutine.switch()


class GroupScheduler:
    """Runs the work-items of one group as coroutines (docs/interp.md)."""

    def __init__(self, run: KernelRun, group: GroupState, machines: list[ItemMachine]):
        self.run = run
        self.group = group
        self.aborting = False
        self.items = [ItemCoroutine(m, self) for m in machines]

    def run_group(self) -> None:
        try:
            self._rounds()
        finally:
            self.aborting = True
            for item in self.items:
                item.abort()

    def _rounds(self) -> None:
        """Run the items to their next stops; release the warps whose lanes all wait at one
        warp operation (and run those lanes on), until every item waits at a barrier of the
        group or has returned; then check the barrier and release the group."""
        live = runnable = self.items
        while True:
            for item in runnable:
                item.resume()
                if item.state == "error":
                    assert item.error is not None
                    raise item.error
            runnable = self._warp_round()
            if runnable:
                continue
            waiting = [t for t in live if t.state == "barrier"]
            if not waiting:
                return
            returned = [t for t in live if t.state == "done"]
            if returned:
                self._returned_early(waiting, returned)
            keys = {t.key for t in waiting}
            if len(keys) > 1:
                self._different_barriers(waiting)
            self._release(waiting)
            live = runnable = waiting

    def _warp_round(self) -> list[ItemCoroutine]:
        """The lanes of every warp that waits at a warp operation, its results handed out;
        barrier divergence when a warp's lanes are not all there."""
        items = self.items
        released: list[ItemCoroutine] = []
        for start in range(0, len(items), gpu.WARP):
            lanes = items[start : start + gpu.WARP]
            at_warp_op = [t for t in lanes if t.state == "barrier" and is_warp_op(t.op)]
            if not at_warp_op:
                continue
            first = at_warp_op[0]
            other = next((t for t in lanes if t.state != "barrier" or t.key != first.key), None)
            if other is not None:
                self._warp_divergence(lanes, first, other)
            warp_results(first.op, [t.value for t in lanes], lanes)
            released += lanes
        return released

    def _warp_divergence(
        self, lanes: list[ItemCoroutine], first: ItemCoroutine, other: ItemCoroutine
    ) -> None:
        same = [t.machine.item_id for t in lanes if t.state == "barrier" and t.key == first.key]
        if other.state == "barrier":
            assert other.op is not None
            rest = [
                t.machine.item_id for t in lanes if t.state == other.state and t.key == other.key
            ]
            where = f"wait at {describe_op(other.op)}"
        else:
            rest = [t.machine.item_id for t in lanes if t.state != "barrier"]
            where = "returned from the kernel"
        assert first.op is not None
        raise ProviderError(
            first.op,
            warp_divergence_message(
                self.group.group_id,
                same,
                describe_op(first.op),
                rest,
                where,
                lanes[0].machine.item_id,
                lanes[-1].machine.item_id,
            ),
            "barrier divergence",
        )

    def _returned_early(self, waiting: list[ItemCoroutine], returned: list[ItemCoroutine]) -> None:
        op = waiting[0].op
        assert op is not None
        passed = self.group.epoch
        group = self.group.group_id
        raise ProviderError(
            op,
            f"barrier divergence in group {group}: work-item(s) "
            f"{item_ranges([t.machine.item_id for t in waiting])} wait at {describe_op(op)} "
            f"(barrier {passed + 1} of the group), but work-item(s) "
            f"{item_ranges([t.machine.item_id for t in returned])} returned from the kernel after "
            f"{passed} barrier(s), without reaching it",
            "barrier divergence",
        )

    def _different_barriers(self, waiting: list[ItemCoroutine]) -> None:
        first = waiting[0]
        other = next(t for t in waiting if t.key != first.key)
        same = [t.machine.item_id for t in waiting if t.key == first.key]
        rest = [t.machine.item_id for t in waiting if t.key == other.key]
        assert first.op is not None and other.op is not None
        assert first.key is not None and other.key is not None
        if first.op is not other.op:
            where = ""
        elif first.key[1] != other.key[1]:
            where = " (the entry and the exit of one synced scope)"
        else:
            where = " (reached through different calls)"
        raise ProviderError(
            first.op,
            f"barrier divergence in group {self.group.group_id}: work-item(s) {item_ranges(same)} "
            f"wait at {describe_op(first.op)}, but work-item(s) {item_ranges(rest)} wait at "
            f"{describe_op(other.op)}{where}; every work-item of a group must reach the same "
            "barriers",
            "barrier divergence",
            [(other.op, f"where work-item {other.machine.item_id} waits")],
        )

    def _release(self, waiting: list[ItemCoroutine]) -> None:
        op = waiting[0].op
        if isinstance(op, gpu.WorkgroupReduceOp | gpu.WorkgroupScanOp):
            kind, type_ = op.kind.data, op.value.type
            values = [t.value for t in waiting]
            if isinstance(op, gpu.WorkgroupReduceOp):
                total = tree_reduce(kind, values, type_)
                results: list[object] = [total] * len(waiting)
            else:
                results = left_scan(kind, values, type_)
            for item, result in zip(waiting, results, strict=True):
                item.result = result
        self.group.epoch += 1


def warp_results(op: Operation, values: list[object], lanes: list[ItemCoroutine]) -> None:
    """Each lane's result of the warp operation `op`, from the lanes' `values`."""
    if isinstance(op, gpu.MMA_OPS):
        mma_results(op, values, lanes)
        return
    if isinstance(op, gpu.BallotOp):
        mask = sum(1 << lane for lane, pred in enumerate(values) if pred)
        for item in lanes:
            item.result = wrap(mask, 32)
        return
    assert isinstance(op, gpu.ShuffleOp)
    for lane, item in enumerate(lanes):
        own, offset, width = item.value  # type: ignore[misc]
        source = shuffle_source(
            op.mode.data, lane, signed(offset, 32), signed(width, 32), len(lanes)
        )
        item.result = (own, 0) if source is None else (values[source][0], 1)  # type: ignore[index]
