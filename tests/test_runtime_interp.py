"""The provider interface, the registry and the `interp` provider: memory, streams, launches,
races, barriers and collectives."""

from __future__ import annotations

import functools
import io
import resource
import subprocess
import sys

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType, f32, i32
from xdsl.parser import Parser

from gpuir import runtime
from gpuir.dialects import make_context
from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.runtime import memory
from gpuir.runtime.interp import InterpProvider, left_scan, tree_reduce
from gpuir.runtime.memory import Allocation, Pointer
from gpuir.runtime.provider import Provider, ProviderError, Stream

TOKENS = "%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index"
RESULTS = "(!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>)"


def kernel(name: str, params: str, body: str, returns: str = "%m1, %m3, %m4, %m5") -> str:
    """A kernel function: the tokens and ids, then `params`; `body` ends before the return."""
    params = f", {params}" if params else ""
    return f"""
    func.func @{name}({TOKENS}{params}) -> {RESULTS} attributes {{gpu.kernel}} {{
      {body}
      func.return {returns} : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }}"""


def checked_cpu(out: io.StringIO) -> Provider:
    from gpuir.runtime.cpu import CpuProvider

    return CpuProvider(check=True, out=out)


CHECKERS = {"interp": InterpProvider, "cpu --check": checked_cpu}
"""The providers that find planted bugs, in interp's words: the tests of races, bounds and
divergence run on both."""


class Device:
    """An open provider (interp, or another of `CHECKERS`) with a device module loaded."""

    def __init__(self, *kernels: str, extra: str = "", provider: str = "interp"):
        text = ("\n".join(kernels) + extra) or "builtin.module {}"
        module = Parser(make_context(), text, "kernels.mlir").parse_module()
        module.verify()
        self.out = io.StringIO()
        self.provider = CHECKERS[provider](self.out)
        self.provider.open()
        self.loaded = self.provider.load_module(module)

    def array(self, values, type_=i32, dtype=np.int32) -> Pointer:
        values = np.asarray(values, dtype)
        array = ArrayType(len(values), type_)
        ptr = self.provider.alloc(values.nbytes, array)
        host = Pointer(Allocation(0, values.nbytes, array), 0, array)
        host.allocation.data[:] = values.view(np.uint8)
        self.provider.copy_to_device(ptr, host, values.nbytes)
        return ptr

    def read(self, ptr: Pointer, dtype=np.int32) -> np.ndarray:
        nbytes = ptr.extent_bytes()
        host = Pointer(Allocation(0, nbytes, ptr.pointee), 0, ptr.pointee)
        self.provider.copy_to_host(host, ptr, nbytes)
        return host.allocation.data.view(dtype)

    def launch(self, name: str, groups: int, items: int, *args, smem: int = 0) -> None:
        self.provider.launch(
            self.loaded, name, groups, items, smem, self.provider.default_stream(), list(args)
        )


# --- the interface and the registry ------------------------------------------------------------


def test_the_provider_interface_is_these_methods():
    assert Provider.__abstractmethods__ == {
        "open",
        "close",
        "alloc",
        "free",
        "copy_to_device",
        "copy_to_host",
        "create_stream",
        "sync_stream",
        "destroy_stream",
        "synchronize",
        "load_module",
        "launch",
    }
    assert InterpProvider.name == "interp" and InterpProvider.host_visible


def test_registry():
    assert runtime.provider_names() == ["auto", "interp", "cpu", "cuda"]
    assert isinstance(runtime.get_provider("interp"), InterpProvider)
    with pytest.raises(runtime.ProviderUnavailable, match="unknown provider 'gpu'"):
        runtime.get_provider("gpu")


def test_auto_falls_back_to_the_first_available(monkeypatch):
    monkeypatch.setattr(
        runtime, "unavailable_reason", lambda name: None if name == "interp" else "missing"
    )
    assert runtime.resolve("auto") == "interp"
    monkeypatch.setattr(runtime, "unavailable_reason", lambda name: None)
    assert runtime.resolve("auto") == "cuda"


def test_a_missing_provider_module_says_so(monkeypatch):
    monkeypatch.setitem(runtime.PROVIDERS, "later", "gpuir.runtime.not_written_yet:Later")
    reason = runtime.unavailable_reason("later")
    assert (
        reason
        == "the later provider is not available yet (gpuir.runtime.not_written_yet does not exist)"
    )


# --- memory and streams --------------------------------------------------------------------------


def test_alloc_copy_free_round_trip():
    device = Device()
    ptr = device.array([1, 2, 3])
    assert list(device.read(ptr)) == [1, 2, 3]
    device.provider.free(ptr)
    with pytest.raises(
        ProviderError, match="use after free: reads 12 bytes from a 12-byte global allocation"
    ) as e:
        device.read(ptr)
    assert e.value.name == "use after free"
    with pytest.raises(ProviderError, match="use after free: frees .* a second time"):
        device.provider.free(ptr)


def test_copies_check_spaces_and_bounds():
    device = Device()
    ptr = device.array([1, 2, 3, 4])
    host = Pointer(Allocation(0, 8, ArrayType(2, i32)), 0, ArrayType(2, i32))
    with pytest.raises(
        ProviderError,
        match="out of bounds: writes 16 bytes to byte offset 0 of a 8-byte host allocation",
    ):
        device.provider.copy_to_host(host, ptr, 16)
    with pytest.raises(
        ProviderError, match="the copy's source is host memory, expected global memory"
    ):
        device.provider.copy_to_host(host, host, 8)


def test_closing_the_device_frees_its_memory():
    device = Device()
    ptr = device.array([7])
    device.provider.close()
    assert not device.provider.is_open
    with pytest.raises(ProviderError, match="needs an open device"):
        device.provider.alloc(4, i32)
    assert ptr.allocation.freed


def test_streams():
    provider = InterpProvider()
    with provider:
        stream = provider.create_stream()
        assert stream == Stream(1) and provider.default_stream() == Stream(0)
        provider.sync_stream(stream)
        provider.alloc(4, i32, stream=stream)
        provider.destroy_stream(stream)
        with pytest.raises(ProviderError, match="Stream\\(1\\) does not exist") as e:
            provider.sync_stream(stream)
        assert e.value.name == "invalid stream"
        with pytest.raises(ProviderError, match="the default stream cannot be destroyed"):
            provider.destroy_stream(Stream(0))
    assert not provider.is_open


# --- launches ------------------------------------------------------------------------------------


ARRAY16 = "!mem.ptr<!mem.array<16 x i32>, 1>"
IOTA = kernel(
    "iota",
    f"%n: index, %out: {ARRAY16}",
    f"""%base = arith.muli %g, %n : index
      %flat = arith.addi %base, %i : index
      %p = mem.lea %out, %flat : {ARRAY16}
      %v = arith.index_cast %flat : index to i32
      %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>""",
    "%a1, %m3, %m4, %m5",
)


def test_launch_runs_every_item_of_every_group():
    device = Device(IOTA)
    out = device.array(np.zeros(16))
    device.launch("iota", 4, 4, (4, IndexType()), (out, PtrType(ArrayType(16, i32), 1)))
    assert list(device.read(out)) == list(range(16))


def test_launch_checks_its_configuration_and_arguments():
    device = Device(IOTA)
    out = device.array(np.zeros(16))
    args = [(4, IndexType()), (out, PtrType(ArrayType(16, i32), 1))]
    with pytest.raises(
        ProviderError,
        match=r"invalid launch configuration of @iota: 1 work-group\(s\) of 1025 work-item\(s\)",
    ):
        device.launch("iota", 1, 1025, *args)
    with pytest.raises(ProviderError, match="invalid launch configuration"):
        device.launch("iota", 0, 4, *args)
    with pytest.raises(ProviderError, match="argument 0 of @iota is index, the launch passes i32"):
        device.launch("iota", 1, 4, (4, i32), args[1])
    with pytest.raises(ProviderError, match="takes 2 argument"):
        device.launch("iota", 1, 4, args[0])
    with pytest.raises(
        ProviderError, match=r"no kernel named @iot in the device module \(kernels: @iota\)"
    ):
        device.launch("iot", 1, 4, *args)


def _races(
    body: str,
    groups: int,
    items: int,
    params: str = f"%out: {ARRAY16}",
    n: int = 16,
    provider: str = "interp",
):
    device = Device(kernel("k", params, body, "%r1, %r3, %m4, %m5"), provider=provider)
    out = device.array(np.zeros(n))
    device.launch("k", groups, items, (out, PtrType(ArrayType(n, i32), 1)))
    return device.read(out)


def _race_error(
    body: str, groups: int, items: int, match: str, provider: str = "interp"
) -> ProviderError:
    """The error that ends `_races(body, groups, items)`, whose text `match` (a regex) finds."""
    with pytest.raises(ProviderError, match=match) as caught:
        _races(body, groups, items, provider=provider)
    return caught.value


SAME_WORD = f"""%zero = arith.constant 0 : index
      %p = mem.lea %out, %zero : {ARRAY16}"""


@pytest.mark.parametrize("provider", CHECKERS)
def test_writes_of_the_same_value_are_benign(provider: str):
    body = f"""{SAME_WORD}
      %v = arith.constant 42 : i32
      %r1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
      %r3 = mem.remem %m3 : !mem.M<3>"""
    assert _races(body, 4, 8, provider=provider)[0] == 42


@pytest.mark.parametrize("provider", CHECKERS)
def test_writes_of_different_values_race_across_groups(provider: str):
    body = f"""{SAME_WORD}
      %v = arith.index_cast %g : index to i32
      %r1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
      %r3 = mem.remem %m3 : !mem.M<3>"""
    match = r"race on global memory: work-item \(group 1, item 0\) writes byte 0 .* which work-item \(group 0, item 0\) wrote a different value to .*; work-items of different groups are never ordered"
    error = _race_error(body, 2, 2, match, provider)
    assert error.name == "race" and error.related[0][1].startswith("the other access")


@pytest.mark.parametrize("provider", CHECKERS)
def test_a_write_and_a_later_groups_read_race(provider: str):
    body = f"""{SAME_WORD}
      %zero_i = arith.constant 0 : index
      %first = arith.cmpi eq, %g, %zero_i : index
      %r1 = scf.if %first -> (!mem.M<1>) {{
        %v = arith.constant 1 : i32
        %s = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
        scf.yield %s : !mem.M<1>
      }} else {{
        %s, %x = mem.load %m1, %p : !mem.ptr<i32, 1>
        scf.yield %s : !mem.M<1>
      }}
      %r3 = mem.remem %m3 : !mem.M<3>"""
    match = (
        r"work-item \(group 1, item 0\) reads byte 0 .* which work-item \(group 0, item 0\) wrote"
    )
    _race_error(body, 2, 1, match, provider)


def test_the_race_state_of_a_byte_does_not_grow_with_its_readers(monkeypatch):
    """256 items read one word, then the last writes it: the race is found (with the first
    reader, as before), and the byte's record keeps two readers, not 256."""
    from gpuir.runtime import interp

    kept: list[object] = []
    original = interp.RaceTracker.write

    def write(self, who, op, allocation, offset, data):
        kept.extend(self.allocations[allocation.serial][offset].readers)
        return original(self, who, op, allocation, offset, data)

    monkeypatch.setattr(interp.RaceTracker, "write", write)
    body = f"""{SAME_WORD}
      %s1, %x = mem.load %m1, %p : !mem.ptr<i32, 1>
      %last = arith.constant 255 : index
      %is_last = arith.cmpi eq, %i, %last : index
      %r1 = scf.if %is_last -> (!mem.M<1>) {{
        %t = mem.store %s1, %p, %x : !mem.ptr<i32, 1>
        scf.yield %t : !mem.M<1>
      }} else {{
        scf.yield %s1 : !mem.M<1>
      }}
      %r3 = mem.remem %m3 : !mem.M<3>"""
    match = (
        r"work-item \(group 0, item 255\) writes byte 0 .* which work-item \(group 0, item 0\) read"
    )
    _race_error(body, 1, 256, match)
    assert [record[1] for record in kept] == [0, 1]


@pytest.mark.parametrize("provider", CHECKERS)
def test_a_barrier_orders_the_items_of_a_group(provider: str):
    # Each item writes its own word, syncs, then reads its neighbour's: no race.
    body = f"""%p = mem.lea %out, %i : {ARRAY16}
      %v = arith.index_cast %i : index to i32
      %a1 = mem.store %m1, %p, %v : !mem.ptr<i32, 1>
      %a3 = mem.remem %m3 : !mem.M<3>
      %b1, %b3 = gpu.sync_work_items %a1, %a3
      %one = arith.constant 1 : index
      %four = arith.constant 4 : index
      %next = arith.addi %i, %one : index
      %j = arith.remui %next, %four : index
      %q = mem.lea %out, %j : {ARRAY16}
      %c1, %x = mem.load %b1, %q : !mem.ptr<i32, 1>
      %r1, %r3 = gpu.sync_work_items %c1, %b3"""
    assert list(_races(body, 1, 4, provider=provider)[:4]) == [0, 1, 2, 3]


@pytest.mark.parametrize("provider", CHECKERS)
def test_an_item_that_writes_two_values_races_with_one_that_writes_either(provider: str):
    body = f"""{SAME_WORD}
      %five = arith.constant 5 : i32
      %seven = arith.constant 7 : i32
      %zero_i = arith.constant 0 : index
      %first = arith.cmpi eq, %i, %zero_i : index
      %r1 = scf.if %first -> (!mem.M<1>) {{
        %s = mem.store %m1, %p, %five : !mem.ptr<i32, 1>
        %t = mem.store %s, %p, %seven : !mem.ptr<i32, 1>
        scf.yield %t : !mem.M<1>
      }} else {{
        %s = mem.store %m1, %p, %seven : !mem.ptr<i32, 1>
        scf.yield %s : !mem.M<1>
      }}
      %r3 = mem.remem %m3 : !mem.M<3>"""
    match = r"work-item \(group 0, item 1\) writes byte 0 .* item 0\) wrote a different value"
    _race_error(body, 1, 2, match, provider)


@pytest.mark.parametrize("provider", CHECKERS)
def test_an_item_may_read_and_write_its_own_bytes(provider: str):
    body = f"""%p = mem.lea %out, %i : {ARRAY16}
      %a1, %x = mem.load %m1, %p : !mem.ptr<i32, 1>
      %one = arith.constant 1 : i32
      %y = arith.addi %x, %one : i32
      %r1 = mem.store %a1, %p, %y : !mem.ptr<i32, 1>
      %r3 = mem.remem %m3 : !mem.M<3>"""
    assert list(_races(body, 1, 16, provider=provider)) == [1] * 16


@pytest.mark.parametrize("provider", CHECKERS)
def test_the_same_barrier_through_different_calls_diverges(provider: str):
    helper = """
    func.func @wait(%m1: !mem.M<1>, %m3: !mem.M<3>) -> (!mem.M<1>, !mem.M<3>) {
      %a1, %a3 = gpu.sync_work_items %m1, %m3
      func.return %a1, %a3 : !mem.M<1>, !mem.M<3>
    }"""
    body = """%two = arith.constant 2 : index
      %zero = arith.constant 0 : index
      %parity = arith.remui %i, %two : index
      %even = arith.cmpi eq, %parity, %zero : index
      %x3 = mem.remem %m3 : !mem.M<3>
      %r1, %r3 = scf.if %even -> (!mem.M<1>, !mem.M<3>) {
        %a1, %a3 = func.call @wait(%m1, %x3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
        scf.yield %a1, %a3 : !mem.M<1>, !mem.M<3>
      } else {
        %a1, %a3 = func.call @wait(%m1, %x3) : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
        scf.yield %a1, %a3 : !mem.M<1>, !mem.M<3>
      }"""
    device = Device(kernel("k", "", body, "%r1, %r3, %m4, %m5"), extra=helper, provider=provider)
    with pytest.raises(
        ProviderError,
        match=r"barrier divergence in group 0: work-item\(s\) 0, 2 wait at .* but work-item\(s\) 1, 3 wait at .*\(reached through different calls\)",
    ):
        device.launch("k", 1, 4)


@pytest.mark.parametrize("provider", CHECKERS)
def test_an_error_in_one_item_ends_the_launch_cleanly(provider: str):
    body = f"""%p = mem.lea %out, %i : {ARRAY16}
      %a3 = mem.remem %m3 : !mem.M<3>
      %b1, %b3 = gpu.sync_work_items %m1, %a3
      %big = arith.constant 100 : index
      %q = mem.lea %out, %big : {ARRAY16}
      %v = arith.constant 1 : i32
      %r1 = mem.store %b1, %q, %v : !mem.ptr<i32, 1>
      %r3 = mem.remem %b3 : !mem.M<3>"""
    match = r"out of bounds: work-item \(group 0, item 0\) stores 4 bytes to byte offset 400"
    _race_error(body, 2, 8, match, provider)


# --- shared memory, the device heap, printf ----------------------------------------------------


@pytest.mark.parametrize("provider", CHECKERS)
def test_dynamic_shared_memory_is_one_array_per_group(provider: str):
    smem = "!mem.ptr<!mem.array<? x i32>, 3>"
    text = f"""
    func.func @k({TOKENS}, %s: {smem}, %out: {ARRAY16}) -> {RESULTS} attributes {{gpu.kernel}} {{
      %zero = arith.constant 0 : index
      %p = mem.lea %s, %i : {smem}
      %v = arith.index_cast %g : index to i32
      %a3 = mem.store %m3, %p, %v : !mem.ptr<i32, 3>
      %b1, %b3 = gpu.sync_work_items %m1, %a3
      %q = mem.lea %s, %zero : {smem}
      %c3, %x = mem.load %b3, %q : !mem.ptr<i32, 3>
      %four = arith.constant 4 : index
      %base = arith.muli %g, %four : index
      %flat = arith.addi %base, %i : index
      %o = mem.lea %out, %flat : {ARRAY16}
      %c1 = mem.store %b1, %o, %x : !mem.ptr<i32, 1>
      func.return %c1, %c3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
    }}"""
    device = Device(text, provider=provider)
    out = device.array(np.zeros(16))
    device.launch("k", 4, 4, (out, PtrType(ArrayType(16, i32), 1)), smem=16)
    assert list(device.read(out)) == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    with pytest.raises(
        ProviderError, match="byte offset 12 of a 12-byte dynamic shared memory of group 0"
    ):
        device.launch("k", 1, 4, (out, PtrType(ArrayType(16, i32), 1)), smem=12)


def test_device_heap_allocations_outlive_the_kernel_until_freed():
    text = kernel(
        "k",
        "%out: !mem.ptr<!mem.ptr<i32, 1>, 1>",
        """%a1, %p = mem.alloc %m1 : !mem.ptr<i32, 1>
      %v = arith.constant 9 : i32
      %b1 = mem.store %a1, %p, %v : !mem.ptr<i32, 1>
      %c1 = mem.store %b1, %out, %p : !mem.ptr<!mem.ptr<i32, 1>, 1>""",
        "%c1, %m3, %m4, %m5",
    )
    device = Device(text)
    slot_type = PtrType(PtrType(i32, 1), 1)
    out = device.provider.alloc(8, PtrType(i32, 1))
    device.launch("k", 1, 1, (out, slot_type))
    host = Pointer(Allocation(0, 8, PtrType(i32, 1)), 0, PtrType(i32, 1))
    device.provider.copy_to_host(host, out, 8)
    heap = memory.load(host)  # the pointer the kernel stored, read back from memory
    assert heap.allocation.what.startswith("device-heap allocation of work-item (group 0, item 0)")
    device.provider.free(heap)
    assert heap.allocation.freed


def test_printf_in_kernels_runs_in_item_order():
    text = kernel(
        "k",
        "",
        """printf.print_format "{} {}\\n", %g : index, %i : index""",
    )
    device = Device(text)
    device.launch("k", 2, 2)
    assert device.out.getvalue() == "0 0\n0 1\n1 0\n1 1\n"


# --- collectives -------------------------------------------------------------------------------


def _tree(values):
    if len(values) == 1:
        return values[0]
    mid = len(values) // 2
    return np.float32(_tree(values[:mid]) + _tree(values[mid:]))


@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 33])
def test_tree_reduce_is_the_fixed_tree(n):
    values = list(np.random.default_rng(n).standard_normal(n).astype(np.float32) * 1e4)
    assert tree_reduce("add", values, f32) == _tree(values)
    scan = left_scan("add", values, f32)
    assert scan[0] == values[0] and len(scan) == n
    running = values[0]
    for value, result in zip(values[1:], scan[1:], strict=True):
        running = np.float32(running + value)
        assert result == running


def test_collective_kinds_on_integers():
    values = [3, -1, 2, -8]
    assert tree_reduce("min", values, i32) == -8
    assert tree_reduce("max", values, i32) == 3
    assert tree_reduce("mul", [2**16, 2**16], i32) == 0
    assert tree_reduce("xor", values, i32) == 3 ^ -1 ^ 2 ^ -8
    assert left_scan("add", values, i32) == [3, 2, 4, -4]


def test_a_reduction_over_seven_items_in_a_kernel():
    text = kernel(
        "k",
        f"%out: {ARRAY16}",
        f"""%one = arith.constant 1 : i32
      %id = arith.index_cast %i : index to i32
      %v = arith.shli %one, %id : i32
      %a1, %a3, %s = gpu.workgroup_reduce "add" %m1, %m3, %v : i32
      %b1, %b3, %c = gpu.workgroup_scan "or" %a1, %a3, %v : i32
      %p = mem.lea %out, %i : {ARRAY16}
      %sum = arith.addi %s, %c : i32
      %r1 = mem.store %b1, %p, %sum : !mem.ptr<i32, 1>""",
        "%r1, %b3, %m4, %m5",
    )
    device = Device(text)
    out = device.array(np.zeros(16))
    device.launch("k", 1, 7, (out, PtrType(ArrayType(16, i32), 1)))
    assert list(device.read(out)[:7]) == [127 + (2 ** (k + 1) - 1) for k in range(7)]


# --- the race tracker's words ----------------------------------------------------------------
# A word (the bytes of one aligned access) is tracked as one state until an access touches part
# of it or may race with it; then it is split into byte states. These tests drive the tracker
# directly and compare it with the same tracker run byte by byte (`words=False`).


TRACKER_OPS = """
func.func @f(%m: !mem.M<1>, %p: !mem.ptr<i32, 1>, %v: i32) -> !mem.M<1> {
  %a, %x = mem.load %m, %p : !mem.ptr<i32, 1>
  %b = mem.store %a, %p, %v : !mem.ptr<i32, 1>
  %c, %y = mem.atomic_rmw "add" %b, %p, %v : !mem.ptr<i32, 1>
  func.return %c : !mem.M<1>
}
"""


class _Group:
    def __init__(self) -> None:
        self.epoch = 0


class _Who:
    """The work-item an access comes from, as the tracker sees it."""

    def __init__(self, group: _Group, group_id: int, item_id: int):
        self.group, self.group_id, self.item_id = group, group_id, item_id
        self.who = f"work-item (group {group_id}, item {item_id})"


@functools.cache
def _tracker_ops():
    """A load, a store and an atomic, parsed once: the random replays below make thousands."""
    module = Parser(make_context(), TRACKER_OPS, "ops.mlir").parse_module()
    load, store, atomic = list(module.body.block.first_op.body.block.ops)[:3]
    return load, store, atomic


def _replay(accesses, words: bool) -> str | None:
    """Run `accesses` (kind, group, epoch, item, offset, data) through a tracker; the message
    of the race it reports (None: none)."""
    from gpuir.runtime.interp import RaceTracker

    load, store, atomic = _tracker_ops()
    tracker = RaceTracker(words=words)
    allocation = Allocation(1, 64, ArrayType(16, i32))
    groups: dict[int, _Group] = {}
    try:
        for kind, group_id, epoch, item, offset, data in accesses:
            if groups and group_id not in groups:
                tracker.end_group()  # as a launch does between its groups
            group = groups.setdefault(group_id, _Group())
            group.epoch = epoch
            who = _Who(group, group_id, item)
            if kind == "read":
                tracker.read(who, load, allocation, offset, len(data))
            elif kind == "write":
                tracker.write(who, store, allocation, offset, data)
            else:
                tracker.read(who, atomic, allocation, offset, len(data))
                tracker.write(who, atomic, allocation, offset, data)
    except ProviderError as e:
        return str(e)
    return None


def test_a_write_to_part_of_a_word_races_at_its_byte():
    word = bytes([1, 2, 3, 4])
    message = _replay([("write", 0, 0, 0, 0, word), ("write", 0, 0, 1, 2, bytes([9]))], True)
    assert message is not None and "item 1) writes byte 2 of" in message
    assert "which work-item (group 0, item 0) wrote a different value to" in message


def test_a_word_of_another_value_races_at_its_first_different_byte():
    same = bytes([1, 2, 3, 4])
    accesses = [
        ("write", 0, 0, 0, 0, same),
        ("write", 0, 0, 1, 0, same),  # the same value: no race
        ("write", 0, 0, 2, 0, bytes([1, 2, 3, 5])),
    ]
    message = _replay(accesses, True)
    assert message is not None and "item 2) writes byte 3 of" in message
    assert "which work-item (group 0, item 0) wrote a different value" in message


def test_a_byte_read_of_a_word_another_item_wrote_races():
    accesses = [("write", 0, 0, 0, 4, bytes(4)), ("read", 0, 0, 3, 5, bytes(1))]
    message = _replay(accesses, True)
    assert message is not None and "item 3) reads byte 5 of" in message


def test_words_report_every_race_as_bytes_do():
    """Random accesses (widths 1, 2, 4, 8, aligned or not, three values, reads, writes and
    atomics, four items in two groups and two epochs): the words find the same first race,
    with the same words, as byte states, or none when they find none."""
    rng = np.random.default_rng(15)
    races = 0
    for _ in range(3000):
        accesses = []
        epoch = {0: 0, 1: 0}
        for _ in range(rng.integers(2, 12)):
            group = (
                int(rng.integers(0, 2))
                if not accesses
                else max(accesses[-1][1], int(rng.integers(0, 2)))
            )
            if rng.random() < 0.15:
                epoch[group] += 1
            width = int(rng.choice([1, 2, 4, 8]))
            offset = int(rng.integers(0, 16 // width)) * width
            if rng.random() < 0.2:
                offset = int(rng.integers(0, 16 - width))
            value = int(rng.integers(0, 3))
            data = bytes([value, 0, 7, value][i % 4] for i in range(width))
            kind = str(rng.choice(["read", "write", "atomic"], p=[0.45, 0.45, 0.1]))
            accesses.append((kind, group, epoch[group], int(rng.integers(0, 4)), offset, data))
        expected = _replay(accesses, False)
        races += expected is not None
        assert _replay(accesses, True) == expected, accesses
    assert 300 < races < 2700  # both outcomes are well represented


MANY_ITEMS = """\
module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<8xi32>
    %b = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %a[%i] : memref<8xi32>
    }
    %ha = memref.cast %a : memref<8xi32> to memref<*xi32>
    %hb = memref.cast %b : memref<4xi32> to memref<*xi32>
    gpu.host_register %ha : memref<*xi32>
    gpu.host_register %hb : memref<*xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c256, %c1)
        args(%a : memref<8xi32>, %b : memref<4xi32>, %c4 : index)
    call @printMemrefI32(%hb) : (memref<*xi32>) -> ()
    return
  }
  gpu.module @kernels {
    gpu.func @twice(%a: memref<8xi32> {gpu.test_promote_workgroup, llvm.noalias},
                    %b: memref<4xi32> {llvm.align = 16 : index}, %off: index)
        workgroup(%w: memref<4xi32, #gpu.address_space<workgroup>> {llvm.align = 8 : index}) kernel {
      %t = gpu.thread_id x
      %i = arith.addi %t, %off : index
      %v = memref.load %a[%i] : memref<8xi32>
      %d = arith.addi %v, %v : i32
      memref.store %d, %w[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = memref.load %w[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %r, %b[%t] : memref<4xi32>
      gpu.return
    }
  }
}
"""
"""A group of 1024 work-items that meet at a barrier (through workgroup memory): interp runs
each as a coroutine of its own."""


def test_a_group_of_1024_waiting_items_runs_in_3_gib_of_address_space(tmp_path):
    """Each waiting item keeps only the stack it uses (a greenlet's), not a thread's 8 MiB
    stack: when items were threads, this run failed with `out of memory: cannot start a thread
    for each of the group's 1024 work-items` (the fuzzer's input 171)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    program = tmp_path / "many.mlir"
    program.write_text(MANY_ITEMS)
    command = [sys.executable, "-m", "gpuir.tools.gpu_run", str(program), "--provider", "interp"]
    done = subprocess.run(command, capture_output=True, text=True, preexec_fn=limit, timeout=300)
    assert (done.returncode, done.stderr) == (0, "")
    twice = [2 * v for v in range(4, 8)]  # b[t] = 2 a[t + 4], a[i] = i
    assert done.stdout.splitlines()[1] == "[" + ",  ".join(map(str, twice)) + "]"


# --- a warp collective's accesses are its warp's ---------------------------------------------
# A matrix load or store reads or writes the tile for its whole warp: the tracker records it for
# the warp (`agent_of`), an agent of its own. These tests drive the tracker with such accesses
# (the op only needs the `WarpCollective` trait) and compare it with every pair of accesses.

WARP_OP = """
%m1, %m3, %p = "test.op"() : () -> (!mem.M<1>, !mem.M<3>, i1)
%f1, %f3, %mask = gpu.ballot %m1, %m3, %p
"""


@functools.cache
def _warp_ops():
    """A load, a store, and a warp collective (its accesses are its warp's)."""
    load, store, _ = _tracker_ops()
    return load, store, list(Parser(make_context(), WARP_OP, "warp.mlir").parse_module().ops)[1]


def _warp_replay(accesses, words: bool) -> int | None:
    """Run `accesses` (kind, epoch, item, offset, data; kind `read`, `write`, `warp-read` or
    `warp-write`) of one group through a tracker; the index of the access it reports a race
    at (None: none)."""
    from gpuir.runtime.interp import RaceTracker

    load, store, collective = _warp_ops()
    tracker = RaceTracker(words=words)
    allocation = Allocation(1, 64, ArrayType(16, i32))
    group = _Group()
    for n, (kind, epoch, item, offset, data) in enumerate(accesses):
        group.epoch = epoch
        who = _Who(group, 0, item)
        op = collective if kind.startswith("warp") else (load if kind == "read" else store)
        try:
            if kind.endswith("read"):
                tracker.read(who, op, allocation, offset, len(data))
            else:
                tracker.write(who, op, allocation, offset, data)
        except ProviderError:
            return n
    return None


def _first_race_of_every_pair(accesses) -> int | None:
    """The first access that races with an earlier one of the same epoch: another agent (the
    item, or the warp `item // 32` for a warp's access), a byte both touch, a write, and not
    the same value written by both."""
    for n, (kind, epoch, item, offset, data) in enumerate(accesses):
        agent = ("warp", item // 32) if kind.startswith("warp") else ("item", item)
        for other_kind, other_epoch, other_item, other_offset, other_data in accesses[:n]:
            other_warp = other_kind.startswith("warp")
            other_agent = ("warp", other_item // 32) if other_warp else ("item", other_item)
            if other_epoch != epoch or other_agent == agent:
                continue
            for byte in set(range(offset, offset + len(data))) & set(
                range(other_offset, other_offset + len(other_data))
            ):
                write, other_write = kind.endswith("write"), other_kind.endswith("write")
                mine, theirs = data[byte - offset], other_data[byte - other_offset]
                if (write or other_write) and not (write and other_write and mine == theirs):
                    return n
    return None


def test_a_warps_collective_accesses_race_only_with_other_agents():
    """Random accesses of one group (two epochs; lanes 0, 1, 32 and 33 of warps 0 and 1, plain
    or through a warp collective; two values): the tracker reports a race at the first access
    that races with an earlier one, by words or by bytes, with two witnesses per kind."""
    rng = np.random.default_rng(31)
    races = 0
    for _ in range(1500):
        accesses, epoch = [], 0
        for _ in range(rng.integers(2, 10)):
            epoch += rng.random() < 0.1
            width = int(rng.choice([2, 4]))
            offset = int(rng.integers(0, 8 // width)) * width
            value = int(rng.integers(0, 2))
            kind = str(rng.choice(["read", "write", "warp-read", "warp-write"]))
            item = int(rng.choice([0, 1, 32, 33]))
            accesses.append((kind, epoch, item, offset, bytes([value]) * width))
        expected = _first_race_of_every_pair(accesses)
        races += expected is not None
        assert _warp_replay(accesses, False) == expected, accesses
        assert _warp_replay(accesses, True) == expected, accesses
    assert 300 < races < 1200  # both outcomes are well represented


def test_lanes_of_one_warp_never_race_through_its_collective_but_a_lane_plain_access_does():
    tile = bytes([1, 2, 3, 4])
    by_lanes = [("warp-read", 0, 2, 0, tile), ("warp-write", 0, 0, 0, bytes(4))]
    assert _warp_replay(by_lanes, True) is None
    plain = [("warp-write", 0, 0, 0, tile), ("read", 0, 0, 0, tile)]
    assert _warp_replay(plain, True) == 1
