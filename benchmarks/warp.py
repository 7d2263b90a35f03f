"""`make bench`, the cpu provider's warp code (lowering/cpu/warp_vectors.py and warps.py), each
row checked first:

- `@warp_sum` (examples/warp-reduce.mlir: five "down" shuffles and an atomic per warp) on
  16M items, against `np.sum(v * v)` and the same sum as a C loop (`gcc -O3 -fopenmp`,
  `reduction(+)`); integers, so all three agree exactly (mod 2^64); and against the same
  kernel in `Fission`'s form (a barrier at its end keeps the warp-vector form away: the form
  it had before that one), in the same race;
- a block reduction over 16M f32 read from memory (`BLOCK_SUM`: each item adds `PER_ITEM`
  values, its warp sums them with "down" shuffles in an `scf.for` over the offsets, lane 0
  puts the warp's sum in shared memory, a barrier, then each warp reduces the 8 partial sums
  the same way), against `np.sum`; and as CUDA writes it, the second round in the first warp
  only (`if (item < 32)`: once per warp, lowering/cpu/warps.py), beside the same kernel under a
  condition the lowering cannot prove warp-uniform (the resumable form), in the same run;
- a stream compaction with ballots (`COMPACT`: per warp, `ballot(x > t)`, a count per warp,
  their running sum in numpy, then each item writes at its warp's offset plus the ballot's
  bits below its lane), against `x[x > t]`; equal element for element, in order; and
  against both kernels in `Fission`'s form, in the same race.

    python benchmarks/warp.py                  # the rows, 16M elements, best of 5
    python benchmarks/warp.py --only @warp_sum --repeats 9
"""

from __future__ import annotations

import argparse
import ctypes
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from cpu_rows import Numba, check_sum, race, sum_launches
from ir_text import constants, item_load
from kernels import TOKENS, group_sum
from table import Row

ITEMS = 256
PER_ITEM = 64
"""Values each item of the block reduction adds before the warps' shuffles."""

SHUFFLE_DOWN = """
  %r1{s}, %r3{s}, %sum{s}, %o{s} = scf.for %k{s} = %c0 to %c5 step %c1
      iter_args(%t1{s} = {m1}, %t3{s} = {m3}, %acc{s} = {value}, %offset{s} = %sixteen)
      -> (!mem.M<1>, !mem.M<3>, f32, i32) {{
    %s1{s}, %s3{s}, %got{s}, %ok{s} = gpu.shuffle "down" %t1{s}, %t3{s}, %acc{s}, %offset{s},
        %w32 : f32
    %plus{s} = arith.addf %acc{s}, %got{s} : f32
    %next{s} = arith.select %ok{s}, %plus{s}, %acc{s} : f32
    %half{s} = arith.shrui %offset{s}, %one : i32
    scf.yield %s1{s}, %s3{s}, %next{s}, %half{s} : !mem.M<1>, !mem.M<3>, f32, i32
  }}"""

BLOCK_SUM = group_sum(
    "block_sum",
    constants(c5=5, c32=32)
    + constants("i32", one=1, w32=32, sixteen=16)
    + """
  %a3, %partial = mem.slot %m3 : !mem.ptr<!mem.array<32 x f32>, 3>"""
    + SHUFFLE_DOWN.format(s="", m1="%a1", m3="%a3", value="%own")
    + """
  %lane = gpu.lane_id
  %warp = arith.divui %item, %c32 : index
  %lead = arith.cmpi eq, %lane, %c0 : index
  %b3 = scf.if %lead -> (!mem.M<3>) {
    %p = mem.lea %partial, %warp : !mem.ptr<!mem.array<32 x f32>, 3>
    %t3 = mem.store %r3, %p, %sum : !mem.ptr<f32, 3>
    scf.yield %t3 : !mem.M<3>
  } else {
    scf.yield %r3 : !mem.M<3>
  }
  %e1, %e3 = gpu.sync_work_items %r1, %b3
  %n_warps = arith.divui %n_items, %c32 : index
  %have = arith.cmpi ult, %lane, %n_warps : index
  %g3, %w = scf.if %have -> (!mem.M<3>, f32) {
    %p = mem.lea %partial, %lane : !mem.ptr<!mem.array<32 x f32>, 3>
    %t3, %y = mem.load %e3, %p : !mem.ptr<f32, 3>
    scf.yield %t3, %y : !mem.M<3>, f32
  } else {
    scf.yield %e3, %zero : !mem.M<3>, f32
  }"""
    + SHUFFLE_DOWN.format(s="_2", m1="%e1", m3="%g3", value="%w"),
    total="%sum_2",
    global_token="%r1_2",
    shared_token="%r3_2",
)
"""Each group sums `n_items * per_item` values (`n_items` a multiple of 32, at most 1024) into
`sums[group]`: all its warps take both rounds of shuffles, so that the whole group reaches each
(the cpu provider's fast form for warps)."""

_HEAD, _REST = BLOCK_SUM.split("  %n_warps = arith.divui")
_SECOND, _TAIL = ("  %n_warps = arith.divui" + _REST).split("  func.return")


def first_warp_sum(condition: str) -> str:
    """`BLOCK_SUM` with its second round as CUDA writes it: only the first warp, under
    `condition` (`%first`, true for items 0..31), reduces the partial sums."""
    return (
        _HEAD
        + condition
        + "\n  %f1, %f3 = scf.if %first -> (!mem.M<1>, !mem.M<3>) {\n"
        + _SECOND
        + "  scf.yield %h1, %r3_2 : !mem.M<1>, !mem.M<3>\n  } else {\n"
        + "  scf.yield %e1, %e3 : !mem.M<1>, !mem.M<3>\n  }\n"
        + "  func.return %f1, %f3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>\n}\n"
    )


FIRST_WARP = first_warp_sum("  %first = arith.cmpi ult, %item, %c32 : index")
"""`if (item < 32)`: the same for each warp's lanes, so the cpu provider runs the branch once
per warp in its fast form (lowering/cpu/warps.py)."""
FIRST_WARP_RESUMABLE = first_warp_sum(
    "  %c8 = arith.constant 8 : index\n  %eighth = arith.divui %n_items, %c8 : index\n"
    "  %first = arith.cmpi ult, %item, %eighth : index"
)
"""`if (item < n_items / 8)`: the same for 256 items, but not provably a multiple of 32: the
resumable form, for comparison."""


def ballot_kernel(name: str, arrays: str, setup: str, condition: str, then: str) -> str:
    """A kernel of `COMPACT` (its arguments `n_items`, `t`, `x`, then `arrays`): item i of the
    grid loads `%v = x[i]` and takes its warp's ballot `%mask` of `%keep = x[i] > t` (the
    tokens then `%b1`, `%b3`); after `setup` (lines of MLIR), where `condition`, it runs `then`
    (lines of MLIR storing through `%b1`, its last token `%s1`)."""
    return f"""
func.func @{name}(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
    %group: index, %item: index, %n_items: index, %t: f32,
    %x: !mem.ptr<!mem.array<? x f32>, 1>, {arrays})
    -> ({TOKENS}) attributes {{gpu.kernel}} {{
{item_load("%a1, %v", "%x", "f32", n="%n_items")}
  %keep = arith.cmpf ogt, %v, %t : f32
  %b1, %b3, %mask = gpu.ballot %a1, %m3, %keep
{setup.strip(chr(10))}
  %r1 = scf.if {condition} -> (!mem.M<1>) {{
{then.strip(chr(10))}
    scf.yield %s1 : !mem.M<1>
  }} else {{
    scf.yield %b1 : !mem.M<1>
  }}
  func.return %r1, %b3, %m4, %m5 : {TOKENS}
}}
"""


COMPACT = ballot_kernel(
    "count",
    "%counts: !mem.ptr<!mem.array<? x i32>, 1>",
    """
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %lane = gpu.lane_id
  %lead = arith.cmpi eq, %lane, %c0 : index""",
    "%lead",
    """
    %n = math.ctpop %mask : i32
    %warp = arith.divui %i, %c32 : index
    %q = mem.lea %counts, %warp : !mem.ptr<!mem.array<? x i32>, 1>
    %s1 = mem.store %b1, %q, %n : !mem.ptr<i32, 1>""",
) + ballot_kernel(
    "scatter",
    "%offsets: !mem.ptr<!mem.array<? x i32>, 1>, %out: !mem.ptr<!mem.array<? x f32>, 1>",
    """
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32""",
    "%keep",
    """
    %lane = gpu.lane_id
    %lane32 = arith.index_cast %lane : index to i32
    %bit = arith.shli %one, %lane32 : i32
    %below = arith.subi %bit, %one : i32
    %before = arith.andi %mask, %below : i32
    %rank = math.ctpop %before : i32
    %warp = arith.divui %i, %c32 : index
    %q = mem.lea %offsets, %warp : !mem.ptr<!mem.array<? x i32>, 1>
    %c1, %start = mem.load %b1, %q : !mem.ptr<i32, 1>
    %at32 = arith.addi %start, %rank : i32
    %at = arith.index_cast %at32 : i32 to index
    %o = mem.lea %out, %at : !mem.ptr<!mem.array<? x f32>, 1>
    %s1 = mem.store %c1, %o, %v : !mem.ptr<f32, 1>""",
)
"""Item i of the grid: its warp's ballot of x[i] > t (`ballot_kernel`, the same in both
kernels). `@count` writes each warp's count of set bits to counts[warp]; `@scatter` writes
x[i], where set, to out[offsets[warp] + the set bits below its lane]."""

C_SOURCE = r"""
#include <stddef.h>
#include <stdint.h>

uint64_t square_sum(ptrdiff_t n) {
  uint64_t total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (ptrdiff_t i = 0; i < n; i++)
    total += (uint64_t)i * (uint64_t)i;
  return total;
}
"""


KERNEL_RETURN = re.compile(
    r"func.return (%\w+), (%\w+), %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
)


def in_fission_form(text: str) -> str:
    """`text` with a barrier before each kernel's return: the same results, but no kernel
    takes the warp-vector form (lowering/cpu/forms.py): `Fission`'s, where the barrier at the
    end adds no loop."""
    return KERNEL_RETURN.sub(
        r"%fs1, %fs3 = gpu.sync_work_items \1, \2\n  func.return %fs1, %fs3, %m4, %m5 : "
        r"!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>",
        text,
    )


def c_square_sum():
    """`square_sum(n)` built with gcc (`openmp_peer.FLAGS`), and its name; or None and why."""
    from openmp_peer import FLAGS

    compiler = shutil.which("gcc")
    if compiler is None:
        return None, "gcc not found: no C (OpenMP) peer"
    folder = Path(tempfile.mkdtemp(prefix="gpuir-warp-"))
    source, library = folder / "warp.c", folder / "warp.so"
    source.write_text(C_SOURCE)
    built = subprocess.run(
        [compiler, *FLAGS, str(source), "-o", str(library)], capture_output=True, text=True
    )
    if built.returncode != 0:
        shutil.rmtree(folder)
        return None, f"gcc -fopenmp failed: {built.stderr.strip()[:200]}"
    version = subprocess.run(
        [compiler, "-dumpfullversion"], capture_output=True, text=True, check=False
    ).stdout.strip()
    lib = ctypes.CDLL(str(library))
    shutil.rmtree(folder)
    lib.square_sum.argtypes = [ctypes.c_ssize_t]
    lib.square_sum.restype = ctypes.c_uint64
    return lib.square_sum, f"gcc {version} -O3 -fopenmp"


def warp_sum(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """examples/warp-reduce.mlir's `@warp_sum` on `n` items (groups of 256)."""
    text = (Path(__file__).parent.parent / "examples" / "warp-reduce.mlir").read_text()
    n = max(ITEMS, n // ITEMS * ITEMS)
    total = device.empty(1, np.int64)
    zero = np.zeros(1, np.int64)
    v = np.arange(n, dtype=np.int64)
    exact = int(np.sum(v * v)) % 2**64

    def launcher(source: str):
        kernel = device.compile(source).kernel("warp_sum")

        def run() -> None:
            total.upload(zero)
            kernel(n // ITEMS, ITEMS, ITEMS, n, total)
            device.synchronize()

        run()
        if int(total.download()[0]) % 2**64 != exact:
            raise RuntimeError(f"gpuir's warp_sum is {total.download()[0]}, numpy's {exact}")
        return run

    ours, fission = launcher(text), launcher(in_fission_form(text))
    runs = {"ours": ours, "fission": fission, "numpy": lambda: np.sum(v * v)}
    square_sum, c_name = c_square_sum()
    if square_sum is not None:
        if square_sum(n) != exact:
            raise RuntimeError("the C peer's square sum differs from numpy's")
        runs["openmp"] = lambda: square_sum(n)
    best = race(runs, repeats)
    total.free()
    label = f"cpu @warp_sum (examples/warp-reduce.mlir), {n / 2**20:g}M items"
    numpy_name = f"numpy {np.__version__}"
    rows = [Row(f"{label} (numpy: sum(v * v))", best["ours"], best["numpy"], numpy_name, "s")]
    rows[0].goal = "<= 1.5"
    if square_sum is None:
        rows.append(Row(f"{label} (C, OpenMP)", best["ours"], None, "", "s", note=c_name))
    else:
        rows.append(Row(f"{label} (C, OpenMP)", best["ours"], best["openmp"], c_name, "s", "<= 2"))
        rows.append(
            Row(
                f"{label}, Fission's form (C, OpenMP)", best["fission"], best["openmp"], c_name, "s"
            )
        )
    rows.append(Row(f"{label} (Fission's form)", best["ours"], best["fission"], "gpuir", "s"))
    return rows


def block_sum(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`BLOCK_SUM` over `n` f32 (two launches: the groups' sums, then their sum by one group of
    `ITEMS` items), against `np.sum`; and with its second round in the first warp only
    (`FIRST_WARP`, and `FIRST_WARP_RESUMABLE` in the same run)."""
    rows = block_sum_of(device, n, repeats, BLOCK_SUM, "")
    fast = block_sum_of(device, n, repeats, FIRST_WARP, ", first warp: if (item < 32)")
    slow = block_sum_of(device, n, repeats, FIRST_WARP_RESUMABLE, ", first warp, resumable")
    resumable = Row(
        f"{slow[0].measure}, against the per-warp form", slow[0].ours, fast[0].ours, "gpuir", "s"
    )
    return [*rows, *fast, resumable]


def block_sum_of(device, n: int, repeats: int, text: str, variant: str) -> list[Row]:
    """One variant of the block reduction (`block_sum`)."""
    chunk = ITEMS * PER_ITEM
    n = max(chunk * ITEMS, n // (chunk * ITEMS) * chunk * ITEMS)
    groups = n // chunk
    x = np.random.default_rng(5).standard_normal(n).astype(np.float32)
    exact = float(np.sum(x, dtype=np.float64))
    kernel = device.compile(text).kernel("block_sum")
    xs = device.upload(x)
    ours, sums, result = sum_launches(device, kernel, xs, groups, ITEMS, PER_ITEM, ITEMS)
    ours()
    check_sum("gpuir's warp-shuffle block sum", float(result.download()[0]), exact, n)
    best = race({"ours": ours, "numpy": lambda: np.sum(x)}, repeats)
    for buffer in (xs, sums, result):
        buffer.free()
    label = f"cpu warp-shuffle block reduction{variant}, {n / 2**20:g}M f32 (numpy: sum)"
    return [Row(label, best["ours"], best["numpy"], f"numpy {np.__version__}", "s", "<= 1.5")]


def compaction(device, n: int, repeats: int, numba: Numba) -> list[Row]:
    """`COMPACT` on `n` f32 (`@count`, numpy's running sum of the warps' counts, `@scatter`),
    against `x[x > t]`."""
    n = max(ITEMS, n // ITEMS * ITEMS)
    x = np.random.default_rng(6).standard_normal(n).astype(np.float32)
    t = np.float32(0.5)
    expected = x[x > t]
    xs, counts = device.upload(x), device.empty(n // 32, np.int32)
    offsets, out = device.empty(n // 32, np.int32), device.empty(n, np.float32)
    groups = n // ITEMS

    def launcher(source: str):
        program = device.compile(source)
        count, scatter = program.kernel("count"), program.kernel("scatter")

        def run() -> int:
            count(groups, ITEMS, ITEMS, t, xs, counts)
            device.synchronize()
            per_warp = counts.download()
            starts = np.cumsum(per_warp, dtype=np.int32) - per_warp
            offsets.upload(starts)
            scatter(groups, ITEMS, ITEMS, t, xs, offsets, out)
            device.synchronize()
            return int(starts[-1] + per_warp[-1])

        kept = run()
        found = out.download()[:kept]
        if not np.array_equal(found.view(np.uint32), expected.view(np.uint32)):
            raise RuntimeError("gpuir's ballot compaction differs from numpy's x[x > t]")
        return run

    ours, fission = launcher(COMPACT), launcher(in_fission_form(COMPACT))
    best = race({"ours": ours, "fission": fission, "numpy": lambda: x[x > t]}, repeats)
    for buffer in (xs, counts, offsets, out):
        buffer.free()
    label = f"cpu ballot stream compaction, {n / 2**20:g}M f32"
    numpy_name = f"numpy {np.__version__}"
    return [
        Row(f"{label} (numpy: x[x > t])", best["ours"], best["numpy"], numpy_name, "s", "<= 2"),
        Row(f"{label} (Fission's form)", best["ours"], best["fission"], "gpuir", "s"),
    ]


MEASURES = (
    ("@warp_sum", warp_sum),
    ("warp-shuffle block reduction", block_sum),
    ("ballot compaction", compaction),
)
"""The rows of this file, for `cpu_rows.cpu_section`."""


def main() -> None:
    from cpu_rows import numba_peer
    from table import plain

    import gpuir

    names = [name for name, _ in MEASURES]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=16 * 2**20, help="elements (16M)")
    parser.add_argument("--repeats", type=int, default=5, help="rounds of the race (best of)")
    parser.add_argument("--only", choices=names, action="append", help="these measures only")
    options = parser.parse_args()
    rows: list[Row] = []
    with gpuir.Device("cpu") as device:
        for name, measure in MEASURES:
            if options.only is None or name in options.only:
                rows += measure(device, options.items, options.repeats, numba_peer())
    print(plain(rows))


if __name__ == "__main__":
    main()
