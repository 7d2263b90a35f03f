"""The NVPTX collectives' LLVM IR (what `gpu-opt -t llvm` makes of `gpu.workgroup_reduce` /
`gpu.workgroup_scan`), run on this CPU without a GPU: one coroutine (a greenlet) per work-item.

The NVPTX-specific parts of the IR are replaced by host equivalents, textually: the shared
scratch (`addrspace(3)`) becomes an ordinary global, `%tid.x` / `%ntid.x` calls of functions
that return the running item's id and the group size, `bar.sync 0` a call of the group's
`Barrier`, and `shfl.sync.down` / `.up` a call of `Warp.shuffle`, which does what PTX says
among the items of the caller's warp (items `32w .. 32w + 31` that exist):
it checks the member mask is the warp's lanes, waits for all of them, returns the value of lane
`lane ± offset` (its own past the clamp's bound) and a recognisable garbage value for a lane
outside the mask. Everything else, the index schedule, the loops, the combining ops, is the
lowering's own IR, compiled by LLVM for the host. Each collective's results must be
bit-identical to interp's reference (`tree_reduce`, `left_scan`) for groups of many sizes:
reduce for every power of two up to 1024 (the warp-shuffle path) and sizes that are not (the
shared-memory tree), integer scans up to 1024 (warp scans, the last warp partial or not).
`f16` goes through an `i16` wrapper (ctypes has no half). This checks the lowering's logic, not
NVPTX's code generation (ptxas tests and the cuda lit tests do that).
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from greenlet import greenlet
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType

from gpuir.runtime.interp import left_scan, tree_reduce

GPU_OPT = Path(sys.executable).parent / "gpu-opt"
SIZES = (1, 2, 3, 5, 7, 11, 32, 33, 64, 100, 127, 130)
REDUCE_SIZES = sorted({*SIZES, *(1 << k for k in range(11))})  # 1 .. 1024: the shuffle path
INT_SCAN_SIZES = (*SIZES, 1000, 1024)  # warp scans (the last warp partial or not), 32 totals
TYPES = {
    "i8": (ctypes.c_int8, np.int8, IntegerType(8)),
    "i32": (ctypes.c_int32, np.int32, IntegerType(32)),
    "i64": (ctypes.c_int64, np.int64, IntegerType(64)),
    "f16": (ctypes.c_uint16, np.float16, Float16Type()),  # through host_f16_<name>(i16)
    "f32": (ctypes.c_float, np.float32, Float32Type()),
    "f64": (ctypes.c_double, np.float64, Float64Type()),
}
WARP = 32
GARBAGE = 0x7F7F1234  # what a shuffle returns from a lane outside the mask (PTX: undefined)
INT_KINDS = ("add", "mul", "min", "max", "and", "or", "xor")
FLOAT_KINDS = ("add", "mul", "min", "max")
CASES = [
    (collective, kind, t)
    for t in TYPES
    for kind in (FLOAT_KINDS if t.startswith("f") else INT_KINDS)
    for collective in ("reduce", "scan")
]


def device_module() -> str:
    """One kernel that uses every collective of `CASES`."""
    args = ", ".join(f"%v_{t}: {t}" for t in TYPES)
    lines, m1, m3 = [], "%m1", "%m3"
    for n, (collective, kind, t) in enumerate(CASES):
        lines.append(
            f'    %a{n}, %b{n}, %r{n} = gpu.workgroup_{collective} "{kind}" {m1}, {m3}, %v_{t} : {t}'
        )
        m1, m3 = f"%a{n}", f"%b{n}"
    body = "\n".join(lines)
    return f"""builtin.module attributes {{gpu.device}} {{
  func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
               %group: index, %item: index, {args})
      -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {{gpu.kernel}} {{
{body}
    func.return {m1}, {m3}, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
  }}
}}
"""


def host_ir(nvptx_ir: str) -> str:
    """The NVPTX module's IR with host stand-ins for what only a GPU has."""
    kept = [
        line
        for line in nvptx_ir.splitlines()
        if not line.startswith(("target datalayout", "target triple"))
    ]
    text = "\n".join(kept)
    for old, new in (
        ("addrspace(3) ", ""),
        ("ptx_kernel ", ""),
        ("define internal ", "define "),
        ("@llvm.nvvm.read.ptx.sreg.tid.x", "@host_item_id"),
        ("@llvm.nvvm.read.ptx.sreg.ntid.x", "@host_n_items"),
        ("@llvm.nvvm.barrier.cta.sync.aligned.all", "@host_barrier"),
        ("@llvm.nvvm.shfl.sync.down.i32", "@host_shuffle_i32"),
        ("@llvm.nvvm.shfl.sync.down.f32", "@host_shuffle_f32"),
        ("@llvm.nvvm.shfl.sync.up.i32", "@host_shuffle_up_i32"),
    ):
        text = text.replace(old, new)
    assert "nvvm" not in text, "an NVVM intrinsic without a host stand-in"
    for collective, kind, t in CASES:  # ctypes has no half: an i16 wrapper
        if t == "f16":
            name = f"__gpuir_workgroup_{collective}_{kind}_f16"
            text += (
                f"\ndefine i16 @host_f16_{name}(i16 %x) {{\n"
                f"  %h = bitcast i16 %x to half\n  %r = call half @{name}(half %h)\n"
                f"  %b = bitcast half %r to i16\n  ret i16 %b\n}}\n"
            )
    return text


class Barrier:
    """A barrier of `parties` coroutines of one `Group.run`: an arriving item hands control back
    to the run until the last one arrives."""

    def __init__(self, group: Group, parties: int) -> None:
        self.group = group
        self.parties = parties
        self.count = 0
        self.generation = 0

    def wait(self) -> None:
        generation = self.generation
        self.count += 1
        if self.count == self.parties:
            self.count = 0
            self.generation += 1
            self.group.progress += 1
            return
        while self.generation == generation:
            self.group.scheduler.switch()


class Warp:
    """`shfl.sync.down` / `.up` among the `lanes` items of one warp of the group."""

    def __init__(self, group: Group, lanes: int) -> None:
        self.lanes = lanes
        self.slots: list[list[object]] = [[None] * WARP, [None] * WARP]  # alternate shuffles
        self.turn = [0] * WARP
        self.barrier = Barrier(group, lanes)

    def shuffle(
        self, lane: int, up: bool, mask: int, value: object, offset: int, clamp: int
    ) -> object:
        """Each lane writes its slot, all wait, each reads its source. The next shuffle uses the
        other slots, and the one after can only write these once everyone has passed the next
        barrier, that is, has read."""
        mask &= 0xFFFFFFFF
        members = (1 << self.lanes) - 1
        assert mask == members, f"member mask {mask:#x}, the warp's lanes are {members:#x}"
        slots = self.slots[self.turn[lane]]
        self.turn[lane] ^= 1
        slots[lane] = value
        self.barrier.wait()  # every lane of the mask runs this shuffle
        segment, last = (clamp >> 8) & 31, clamp & 31
        bound = (lane & segment) | (last & ~segment)  # PTX's maxLane
        source = lane - (offset & 31) if up else lane + (offset & 31)
        if (source < bound) if up else (source > bound):
            source = lane
        return slots[source] if mask >> source & 1 else GARBAGE


class Hang(Exception):
    """Every item that has not returned waits at a barrier or shuffle that the others never
    reach."""


class Group:
    """The host stand-ins: the running item's id, the group size, the barrier, the shuffles.
    Each item is a coroutine (a greenlet) that `run` resumes in turn; a stand-in that waits
    switches back to `run` from inside the compiled code's call. An error in a stand-in (ctypes
    would only print it) is reported by `run`."""

    def __init__(self) -> None:
        self.n = 1
        self.current = 0
        self.progress = 0
        self.scheduler = greenlet.getcurrent()
        self.barrier = Barrier(self, 1)
        self.warps: list[Warp] = []
        self.errors: list[BaseException] = []
        self.item_id = ctypes.CFUNCTYPE(ctypes.c_int32)(lambda: self.current)
        self.n_items = ctypes.CFUNCTYPE(ctypes.c_int32)(lambda: self.n)
        self.sync = ctypes.CFUNCTYPE(None, ctypes.c_int32)(lambda _: self.wait())
        i32 = ctypes.c_int32
        self.shuffle_i32 = ctypes.CFUNCTYPE(i32, i32, i32, i32, i32)(self.shuffle)
        self.shuffle_f32 = ctypes.CFUNCTYPE(ctypes.c_float, i32, ctypes.c_float, i32, i32)(
            self.shuffle
        )
        self.shuffle_up_i32 = ctypes.CFUNCTYPE(i32, i32, i32, i32, i32)(
            lambda *args: self.shuffle(*args, up=True)
        )

    def wait(self) -> None:
        self.barrier.wait()

    def shuffle(
        self, mask: int, value: object, offset: int, clamp: int, up: bool = False
    ) -> object:
        item = self.current
        try:
            warp = self.warps[item // WARP]
            return warp.shuffle(item % WARP, up, mask, value, offset, clamp)
        except BaseException as e:  # noqa: BLE001
            self.errors.append(e)
            return GARBAGE

    def run(self, function: Callable[[object], object], values: list[object]) -> list[object]:
        """`function(values[i])` on item `i` of a group of `len(values)` coroutines."""
        self.n = len(values)
        self.scheduler = greenlet.getcurrent()
        self.barrier = Barrier(self, self.n)
        self.warps = [Warp(self, min(WARP, self.n - w)) for w in range(0, self.n, WARP)]
        self.errors = []
        results: list[object] = [None] * self.n

        def item(i: int) -> None:
            try:
                results[i] = function(values[i])
            except BaseException as e:  # noqa: BLE001
                self.errors.append(e)

        items = [greenlet(lambda i=i: item(i)) for i in range(self.n)]
        while not all(g.dead for g in items) and not self.errors:
            before = (self.progress, sum(g.dead for g in items))
            for i, g in enumerate(items):
                if not g.dead:
                    self.current = i
                    g.switch()
            if (self.progress, sum(g.dead for g in items)) == before:
                self.errors.append(Hang("the items wait at different barriers or shuffles"))
        assert not self.errors, self.errors[:3]
        return results


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory):
    from llvmlite import binding

    from gpuir.lowering.llvm.native import new_host_machine

    source = tmp_path_factory.mktemp("collectives") / "collectives.mlir"
    source.write_text(device_module())
    nvptx = subprocess.run(
        [str(GPU_OPT), str(source), "-t", "llvm"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    group = Group()
    binding.add_symbol("host_item_id", ctypes.cast(group.item_id, ctypes.c_void_p).value)
    binding.add_symbol("host_n_items", ctypes.cast(group.n_items, ctypes.c_void_p).value)
    binding.add_symbol("host_barrier", ctypes.cast(group.sync, ctypes.c_void_p).value)
    for name in ("shuffle_i32", "shuffle_f32", "shuffle_up_i32"):
        address = ctypes.cast(getattr(group, name), ctypes.c_void_p).value
        binding.add_symbol(f"host_{name}", address)
    module = binding.parse_assembly(host_ir(nvptx))
    module.verify()
    engine = binding.create_mcjit_compiler(module, new_host_machine())
    engine.finalize_object()
    return engine, group


def sample(t: str, n: int, rng: np.random.Generator) -> list[object]:
    """Values whose float sums depend on the order, with a -0.0 and a tie among the floats."""
    dtype = TYPES[t][1]
    if t.startswith("i"):
        info = np.iinfo(dtype)
        return [dtype(x) for x in rng.integers(info.min, info.max, size=n, dtype=dtype)]
    scales = [1e-3, 1.0, 1e3, 1e7] if t != "f16" else [1e-2, 1.0, 10.0, 100.0]
    magnitudes = rng.choice(scales, size=n)
    values = [dtype(x) for x in rng.standard_normal(n) * magnitudes]
    if n > 3:
        values[1], values[2] = dtype(-0.0), dtype(0.0)
    return values


@pytest.mark.parametrize(("collective", "kind", "t"), CASES)
def test_collective_matches_interp(compiled, collective: str, kind: str, t: str) -> None:
    engine, group = compiled
    c_type, dtype, type_ = TYPES[t]
    name = f"__gpuir_workgroup_{collective}_{kind}_{t}"
    address = engine.get_function_address(f"host_f16_{name}" if t == "f16" else name)
    function = ctypes.CFUNCTYPE(c_type, c_type)(address)
    bits = f"u{np.dtype(dtype).itemsize}"
    rng = np.random.default_rng(zlib.crc32(f"{collective} {kind} {t}".encode()))
    sizes = SIZES if t.startswith("f") else INT_SCAN_SIZES
    for n in REDUCE_SIZES if collective == "reduce" else sizes:
        values = sample(t, n, rng)
        if t == "f16":  # the wrapper takes and gives the bits
            raw_bits = [int(x) for x in np.array(values, dtype).view(bits)]
            got_bits = np.array(group.run(function, raw_bits), bits)
            got = [dtype(x) for x in got_bits.view(dtype)]
        else:
            got = [dtype(x) for x in group.run(function, values)]
        raw = [x.item() for x in values]
        if collective == "reduce":
            want = [dtype(tree_reduce(kind, raw, type_))] * n
        else:
            want = [dtype(x) for x in left_scan(kind, raw, type_)]
        assert (
            np.array(got, dtype).view(bits).tolist() == np.array(want, dtype).view(bits).tolist()
        ), f"n={n}: {got} != {want}"
