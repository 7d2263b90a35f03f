"""The `cpu` provider against `interp`: every example prints the same, collectives are
bit-identical, barriers run as work-item loops (inside uniform loops and branches, with per-item
values and local slots across them), barriers that only some items reach are compile errors
that leave the provider usable, and the resident-buffer API works on compiled kernels."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from example_args import EXAMPLE_ARGS
from kernels import SAXPY, constants, if_then, item_load, kernel

import gpuir
from gpuir.api import Device
from gpuir.runtime import resolve, unavailable_reason
from gpuir.runtime.cpu import compile_module
from gpuir.runtime.interp import tree_reduce
from gpuir.runtime.provider import ProviderError
from gpuir.tools import gpu_run

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
LIT_RUN = Path(__file__).parent / "lit" / "run"

ARGS = {
    **EXAMPLE_ARGS,
    "invalid-token-argument": ["1"],
    "invalid-main-takes-device-token": ["1"],
    "invalid-main-returns-device-token": ["1"],
}
PROGRAMS = sorted(EXAMPLES.glob("*.mlir")) + [
    LIT_RUN / "collectives.mlir",
    LIT_RUN / "cpu-barriers.mlir",
    LIT_RUN / "arguments.mlir",
    LIT_RUN / "atomics.mlir",
    LIT_RUN / "cpu-barriers-cf.mlir",
    LIT_RUN / "cpu-barrier-in-function.mlir",
    LIT_RUN / "warp-ops.mlir",
    LIT_RUN / "warp-shuffle-types.mlir",
]
ARGS["arguments"] = "127 -1 0x10 16777216 1 0.1 0.2 0.1".split()
ARGS["cpu-barrier-in-function"] = ["0"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = gpu_run.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_cpu_prints_what_interp_prints(path: Path, capsys: pytest.CaptureFixture[str]):
    args = ARGS.get(path.stem, [])
    expected = run([str(path), "--provider", "interp", *args], capsys)
    found = run([str(path), "--provider", "cpu", *args], capsys)
    assert found == expected
    if not path.stem.startswith("invalid"):
        assert found[0] == 0 and found[2] == ""


def test_auto_picks_cpu_without_cuda(capsys: pytest.CaptureFixture[str]):
    if unavailable_reason("cuda") is None:
        pytest.skip("a CUDA device is present: auto picks cuda")
    assert resolve("auto") == "cpu"
    status, out, err = run([str(EXAMPLES / "array.mlir"), "--time"], capsys)
    assert (status, out) == (0, "60\n")
    assert "(cpu)" in err


# --- collectives -----------------------------------------------------------------------------------


def collective_kernels(type_: str, kind: str) -> str:
    return kernel(
        "collect",
        f"%group: index, %item: index, %n: index, %x: !mem.ptr<!mem.array<? x {type_}>, 1>,"
        f" %sums: !mem.ptr<!mem.array<? x {type_}>, 1>,"
        f" %scans: !mem.ptr<!mem.array<? x {type_}>, 1>",
        item_load("%a1, %v", "%x", type_)
        + f"""
  %b1, %b3, %r = gpu.workgroup_reduce "{kind}" %a1, %m3, %v : {type_}
  %c1, %c3, %s = gpu.workgroup_scan "{kind}" %b1, %b3, %v : {type_}
  %ps = mem.lea %scans, %i : !mem.ptr<!mem.array<? x {type_}>, 1>
  %d1 = mem.store %c1, %ps, %s : !mem.ptr<{type_}, 1>
  %pr = mem.lea %sums, %i : !mem.ptr<!mem.array<? x {type_}>, 1>
  %e1 = mem.store %d1, %pr, %r : !mem.ptr<{type_}, 1>""",
        "%e1, %c3, %m4, %m5",
    )


def run_collectives(provider: str, type_: str, kind: str, x: np.ndarray, groups: int, items: int):
    with Device(provider) as device:
        program = device.compile(collective_kernels(type_, kind))
        xs = device.upload(x)
        sums = device.empty(x.size, x.dtype)
        scans = device.empty(x.size, x.dtype)
        program.kernel("collect")(groups, items, items, xs, sums, scans)
        return sums.download(), scans.download()


def random_values(dtype: type, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        top = 4 if np.dtype(dtype).itemsize == 2 else 8  # f16 ends at 65504
        values = rng.standard_normal(n) * 10.0 ** rng.integers(-3, top, n)
        return values.astype(dtype)
    return rng.integers(-1000, 1000, n).astype(dtype)


@pytest.mark.parametrize(
    ("type_", "dtype", "kind"),
    [
        ("f32", np.float32, "add"),
        ("f32", np.float32, "mul"),
        ("f32", np.float32, "min"),
        ("f64", np.float64, "max"),
        ("f16", np.float16, "add"),
        ("i32", np.int32, "add"),
        ("i32", np.int32, "min"),
        ("i64", np.int64, "mul"),
        ("i16", np.int16, "xor"),
        ("index", np.int64, "or"),
        ("i8", np.int8, "and"),
    ],
)
def test_collectives_are_bit_identical_to_interp(type_: str, dtype: type, kind: str):
    for items in (1, 2, 3, 7, 13):
        groups = 2
        x = random_values(dtype, groups * items, items)
        expected = run_collectives("interp", type_, kind, x, groups, items)
        found = run_collectives("cpu", type_, kind, x, groups, items)
        for e, f in zip(expected, found, strict=True):
            assert e.tobytes() == f.tobytes(), (items, e, f)


def test_float_sums_follow_the_fixed_tree_on_big_groups():
    from xdsl.dialects.builtin import f32

    for items in (33, 100, 257, 1000, 1024):
        x = random_values(np.float32, 3 * items, items)
        sums, scans = run_collectives("cpu", "f32", "add", x, 3, items)
        for g in range(3):
            values = [np.float32(v) for v in x[g * items : (g + 1) * items]]
            assert sums[g * items] == tree_reduce("add", values, f32)
            assert np.all(sums[g * items : (g + 1) * items] == sums[g * items])
            assert (
                scans[g * items : (g + 1) * items].tobytes()
                == np.cumsum(x[g * items : (g + 1) * items], dtype=np.float32).tobytes()
            )


def test_nan_and_signed_zeros_in_min_and_max():
    x = np.array([0.0, -0.0, 1.0, np.nan, -0.0, 0.0, 2.0, 3.0], np.float32)
    for kind in ("min", "max"):
        expected = run_collectives("interp", "f32", kind, x, 2, 4)
        found = run_collectives("cpu", "f32", kind, x, 2, 4)
        for e, f in zip(expected, found, strict=True):
            assert np.array_equal(e, f, equal_nan=True)
            assert np.array_equal(np.signbit(e), np.signbit(f))


# --- barriers --------------------------------------------------------------------------------------

TREE_SUM = kernel(
    "tree_sum",
    "%group: index, %item: index, %smem: !mem.ptr<!mem.array<? x f32>, 3>, %n: index,"
    " %rounds: index, %x: !mem.ptr<!mem.array<? x f32>, 1>,"
    " %out: !mem.ptr<!mem.array<? x f32>, 1>",
    constants(c0=0, c1=1, c2=2)
    + item_load("%a1, %v", "%x", "f32")
    + """
  %mine = mem.lea %smem, %item : !mem.ptr<!mem.array<? x f32>, 3>
  %a3 = mem.store %m3, %mine, %v : !mem.ptr<f32, 3>
  %s1, %s3 = gpu.sync_work_items %a1, %a3
  %half = arith.divui %n, %c2 : index
  %r1, %r3, %st = scf.for %k = %c0 to %rounds step %c1
      iter_args(%t1 = %s1, %t3 = %s3, %stride = %half) -> (!mem.M<1>, !mem.M<3>, index) {
    %active = arith.cmpi ult, %item, %stride : index
"""
    + if_then(
        "%u3",
        "%active",
        """
      %j = arith.addi %item, %stride : index
      %pj = mem.lea %smem, %j : !mem.ptr<!mem.array<? x f32>, 3>
      %b3, %a = mem.load %t3, %mine : !mem.ptr<f32, 3>
      %c3, %b = mem.load %b3, %pj : !mem.ptr<f32, 3>
      %sum = arith.addf %a, %b : f32
      %d3 = mem.store %c3, %mine, %sum : !mem.ptr<f32, 3>""",
        "%d3",
        "%t3",
        space=3,
    )
    + """
    %y1, %y3 = gpu.sync_work_items %t1, %u3
    %next = arith.divui %stride, %c2 : index
    scf.yield %y1, %y3, %next : !mem.M<1>, !mem.M<3>, index
  }
  %first = arith.cmpi eq, %item, %c0 : index
"""
    + if_then(
        "%f1",
        "%first",
        """
    %p0 = mem.lea %smem, %c0 : !mem.ptr<!mem.array<? x f32>, 3>
    %e3, %total = mem.load %r3, %p0 : !mem.ptr<f32, 3>
    %po = mem.lea %out, %group : !mem.ptr<!mem.array<? x f32>, 1>
    %e1 = mem.store %r1, %po, %total : !mem.ptr<f32, 1>""",
        "%e1",
        "%r1",
    ),
    "%f1, %r3, %m4, %m5",
)


def tree_sum(provider: str, x: np.ndarray, groups: int, items: int) -> np.ndarray:
    with Device(provider) as device:
        program = device.compile(TREE_SUM)
        out = device.empty(groups, np.float32)
        rounds = int(math.log2(items))
        program.kernel("tree_sum")(
            groups, items, items, rounds, device.upload(x), out, smem_bytes=4 * items
        )
        return out.download()


def expected_tree_sum(x: np.ndarray, groups: int, items: int) -> np.ndarray:
    blocks = x.reshape(groups, items).copy()
    stride = items // 2
    while stride:
        blocks[:, :stride] = blocks[:, :stride] + blocks[:, stride : 2 * stride]
        stride //= 2
    return blocks[:, 0]


def test_shared_memory_and_barriers_inside_a_uniform_loop():
    x = random_values(np.float32, 4 * 16, 1)
    found = tree_sum("cpu", x, 4, 16)
    assert found.tobytes() == tree_sum("interp", x, 4, 16).tobytes()
    assert found.tobytes() == expected_tree_sum(x, 4, 16).tobytes()


def test_many_groups_run_in_parallel_with_a_shared_buffer_each():
    groups, items = 1000, 64
    x = random_values(np.float32, groups * items, 2)
    found = tree_sum("cpu", x, groups, items)
    assert found.tobytes() == expected_tree_sum(x, groups, items).tobytes()


DIVERGENT = kernel(
    "divergent",
    "%group: index, %item: index",
    """
  %two = arith.constant 2 : index
  %low = arith.cmpi ult, %item, %two : index
  %r1, %r3 = scf.if %low -> (!mem.M<1>, !mem.M<3>) {
    %a3 = mem.remem %m3 : !mem.M<3>
    %s1, %s3 = gpu.sync_work_items %m1, %a3
    scf.yield %s1, %s3 : !mem.M<1>, !mem.M<3>
  } else {
    scf.yield %m1, %m3 : !mem.M<1>, !mem.M<3>
  }""",
    "%r1, %r3, %m4, %m5",
) + kernel(
    "fill",
    "%group: index, %item: index, %out: !mem.ptr<!mem.array<? x index>, 1>",
    """
  %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x index>, 1>
  %a1 = mem.store %m1, %p, %item : !mem.ptr<index, 1>""",
    "%a1, %m3, %m4, %m5",
)


def test_a_divergent_barrier_is_an_error_at_the_barrier_when_it_happens_and_the_rest_runs():
    """The resumable form runs a barrier under a condition on the item id; only a launch in
    which some items miss it fails, in interp's words, and the provider stays usable."""
    with Device("cpu") as device:
        program = device.compile(DIVERGENT)
        program.kernel("divergent")(3, 2)  # items 0 and 1 of each group: all of them wait
        with pytest.raises(ProviderError) as caught:
            program.kernel("divergent")(1, 4)
        error = caught.value
        assert error.name == "barrier divergence"
        assert error.op is not None and error.op.name == "gpu.sync_work_items"
        assert "barrier divergence in group 0: work-item(s) 0-1 wait at" in str(error)
        assert "but work-item(s) 2-3 returned from the kernel after 0 barrier(s)" in str(error)
        out = device.empty(4, np.int64)
        program.kernel("fill")(1, 4, out)
        assert out.download().tolist() == [0, 1, 2, 3]
        with pytest.raises(ProviderError, match="barrier divergence in group 0"):
            program.kernel("divergent")(1, 4)


def test_the_lowest_diverging_group_of_a_parallel_launch_is_reported():
    """Groups run in parallel chunks; the error names the lowest group whose items diverge
    (every group here), as interp, which runs them in order, does."""
    with Device("cpu") as device:
        program = device.compile(DIVERGENT)
        with pytest.raises(ProviderError, match="barrier divergence in group 0: work-item"):
            program.kernel("divergent")(5000, 3)


# --- the resident-buffer API, arguments, memory ---------------------------------------------------


def test_resident_buffers_are_host_memory():
    n = 100_000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, np.float32)
    with Device("cpu") as device:
        saxpy = device.compile(SAXPY).kernel("saxpy")
        xs, ys = device.upload(x), device.upload(y)
        saxpy((n + 255) // 256, 256, 256, n, 2.0, xs, ys)
        device.synchronize()
        assert np.array_equal(np.asarray(ys), np.float32(2.0) * x + y)
        assert np.asarray(ys).ctypes.data % 64 == 0
        np.asarray(xs)[:] = 1.0  # the device's memory itself
        saxpy((n + 255) // 256, 256, 256, n, -1.0, xs, ys)
        assert np.array_equal(ys.download(), np.float32(2.0) * x + y - 1)


def test_a_kernel_launches_again_after_its_device_is_closed_and_opened():
    """The API's launcher of a kernel belongs to one session of its device: after a close and
    an open, the kernel's module is loaded again and the launch runs on it."""
    n = 1000
    device = Device("cpu").open()
    saxpy = device.compile(SAXPY).kernel("saxpy")
    x = device.upload(np.ones(n, np.float32))
    saxpy(4, 256, 256, n, 2.0, x, x)
    assert x.download().tolist() == [3.0] * n
    device.close()
    with pytest.raises(ProviderError, match="use after free: cpu: argument 3 of @saxpy"):
        saxpy(4, 256, 256, n, 2.0, x, x)  # the launch opens the device again; x is gone
    y = device.upload(np.ones(n, np.float32))
    saxpy(1, 256, 256, 256, 1.0, y, y)  # one group: on this thread
    saxpy(4, 256, 256, n, 1.0, y, y)  # four: on the pool
    assert y.download()[:256].tolist() == [4.0] * 256
    assert y.download()[256:].tolist() == [2.0] * (n - 256)
    device.close()
    device.open()
    z = device.upload(np.zeros(n, np.float32))
    saxpy(4, 256, 256, n, 1.0, z, z)
    assert z.download().tolist() == [0.0] * n
    with pytest.raises(ProviderError, match="invalid launch configuration of @saxpy"):
        saxpy(1, 2000, 256, n, 1.0, y, y)  # the launch's own checks and message
    device.close()


SCALARS = kernel(
    "scalars",
    "%group: index, %item: index, %b: i1, %c: i8, %s: i16, %i: i32, %l: i64, %x: index,"
    " %h: f16, %f: f32, %d: f64,"
    " %ints: !mem.ptr<!mem.array<6 x i64>, 1>, %floats: !mem.ptr<!mem.array<3 x f64>, 1>",
    constants(c0=0, c1=1, c2=2, c3=3, c4=4, c5=5)
    + """
  %b64 = arith.extui %b : i1 to i64
  %c64 = arith.extsi %c : i8 to i64
  %s64 = arith.extsi %s : i16 to i64
  %i64 = arith.extsi %i : i32 to i64
  %x64 = arith.index_cast %x : index to i64
  %p0 = mem.lea %ints, %c0 : !mem.ptr<!mem.array<6 x i64>, 1>
  %p1 = mem.lea %ints, %c1 : !mem.ptr<!mem.array<6 x i64>, 1>
  %p2 = mem.lea %ints, %c2 : !mem.ptr<!mem.array<6 x i64>, 1>
  %p3 = mem.lea %ints, %c3 : !mem.ptr<!mem.array<6 x i64>, 1>
  %p4 = mem.lea %ints, %c4 : !mem.ptr<!mem.array<6 x i64>, 1>
  %p5 = mem.lea %ints, %c5 : !mem.ptr<!mem.array<6 x i64>, 1>
  %a1 = mem.store %m1, %p0, %b64 : !mem.ptr<i64, 1>
  %b1 = mem.store %a1, %p1, %c64 : !mem.ptr<i64, 1>
  %d1 = mem.store %b1, %p2, %s64 : !mem.ptr<i64, 1>
  %e1 = mem.store %d1, %p3, %i64 : !mem.ptr<i64, 1>
  %f1 = mem.store %e1, %p4, %l : !mem.ptr<i64, 1>
  %g1 = mem.store %f1, %p5, %x64 : !mem.ptr<i64, 1>
  %h64 = arith.extf %h : f16 to f64
  %f64 = arith.extf %f : f32 to f64
  %q0 = mem.lea %floats, %c0 : !mem.ptr<!mem.array<3 x f64>, 1>
  %q1 = mem.lea %floats, %c1 : !mem.ptr<!mem.array<3 x f64>, 1>
  %q2 = mem.lea %floats, %c2 : !mem.ptr<!mem.array<3 x f64>, 1>
  %h1 = mem.store %g1, %q0, %h64 : !mem.ptr<f64, 1>
  %i1 = mem.store %h1, %q1, %f64 : !mem.ptr<f64, 1>
  %j1 = mem.store %i1, %q2, %d : !mem.ptr<f64, 1>""",
    "%j1, %m3, %m4, %m5",
)


@pytest.mark.parametrize("provider", ["cpu", "interp"])
def test_every_scalar_type_reaches_the_kernel(provider: str):
    with Device(provider) as device:
        kernel = device.compile(SCALARS).kernel("scalars")
        ints, floats = device.empty(6, np.int64), device.empty(3, np.float64)
        args = (True, -128, -2, -(2**31), -(2**63), 2**40, 65504.0, 0.1, -1e300)
        kernel(1, 1, *args, ints, floats)
        assert ints.download().tolist() == [1, -128, -2, -(2**31), -(2**63), 2**40]
        assert floats.download().tolist() == [65504.0, float(np.float32(0.1)), -1e300]


def test_pointer_arguments_must_be_live_device_memory():
    with Device("cpu") as device:
        kernel = device.compile(SAXPY).kernel("saxpy")
        xs, ys = device.upload(np.ones(4, np.float32)), device.empty(4, np.float32)
        xs.free()
        with pytest.raises(ProviderError, match="use after free: cpu: argument 3 of @saxpy"):
            kernel(1, 4, 4, 4, 1.0, xs, ys)
        host = ys.pointer.__class__(ys._host().allocation, 0, ys.pointer.pointee)
        with pytest.raises(ProviderError, match="which device code cannot access"):
            kernel(1, 4, 4, 4, 1.0, host, ys)


def test_a_module_compiles_once():
    program = gpuir.compile(SAXPY, provider="cpu")
    assert compile_module(program.device_module) is compile_module(program.device_module.clone())


MATH = kernel(
    "math",
    "%group: index, %item: index, %x: !mem.ptr<!mem.array<? x f32>, 1>,"
    " %y: !mem.ptr<!mem.array<? x f64>, 1>",
    """
  %px = mem.lea %x, %item : !mem.ptr<!mem.array<? x f32>, 1>
  %py = mem.lea %y, %item : !mem.ptr<!mem.array<? x f64>, 1>
  %a1, %u = mem.load %m1, %px : !mem.ptr<f32, 1>
  %b1, %v = mem.load %a1, %py : !mem.ptr<f64, 1>
  %e = math.exp %u : f32
  %r = math.rsqrt %e : f32
  %s = math.sqrt %r : f32
  %t = math.tanh %v : f64
  %c1 = mem.store %b1, %px, %s : !mem.ptr<f32, 1>
  %d1 = mem.store %c1, %py, %t : !mem.ptr<f64, 1>""",
    "%d1, %m3, %m4, %m5",
)


def test_math_calls_libm():
    u = np.linspace(-2, 2, 8).astype(np.float32)
    v = np.linspace(-3, 3, 8)
    with Device("cpu") as device:
        xs, ys = device.upload(u), device.upload(v)
        device.compile(MATH).kernel("math")(1, 8, xs, ys)
        assert np.allclose(xs.download(), np.sqrt(1 / np.sqrt(np.exp(u))), rtol=1e-6)
        assert np.allclose(ys.download(), np.tanh(v), rtol=1e-15)


BRANCHES = """
func.func @branches(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                    %group: index, %item: index, %out: !mem.ptr<!mem.array<? x index>, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) attributes {gpu.kernel} {
  %c2 = arith.constant 2 : index
  %p = mem.lea %out, %item : !mem.ptr<!mem.array<? x index>, 1>
  %low = arith.cmpi ult, %item, %c2 : index
  cf.cond_br %low, ^small, ^big
^small:
  %a1 = mem.store %m1, %p, %c2 : !mem.ptr<index, 1>
  func.return %a1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
^big:
  %b1 = mem.store %m1, %p, %item : !mem.ptr<index, 1>
  func.return %b1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""


def test_a_kernel_without_barriers_may_branch_freely():
    with Device("cpu") as device:
        out = device.empty(5, np.int64)
        device.compile(BRANCHES).kernel("branches")(1, 5, out)
        assert out.download().tolist() == [2, 2, 2, 3, 4]


# --- loop shapes the cpu provider specializes --------------------------------------------------


def add_if(condition: str, tokens: str, addend: str, result: str, synced: str = "") -> str:
    """`if (condition) *%p += addend` on an i32 in global memory, from the global token of
    `tokens` (`"%m1, %m3"`: global, shared) to `result`; then, unless `synced` is empty, a
    barrier of `result` and the shared token, whose tokens are `synced`."""
    token, shared = tokens.split(", ")
    added = if_then(
        result,
        condition,
        f"""
    %r1, %v = mem.load {token}, %p : !mem.ptr<i32, 1>
    %w = arith.addi %v, {addend} : i32
    %s1 = mem.store %r1, %p, %w : !mem.ptr<i32, 1>""",
        "%s1",
        token,
    )
    if not synced:
        return added
    return added + f"  {synced} = gpu.sync_work_items {result}, {shared}\n"


# `if (u + item < n)`-style guards become item-loop bounds (each predicate, either side): each
# guarded branch is alone between barriers. The last one, `item - 1 <u shift`, wraps at item 0:
# it keeps its test.
GUARDS = kernel(
    "guards",
    "%group: index, %item: index, %n_items: index, %n: index, %shift: index,"
    " %out: !mem.ptr<!mem.array<? x i32>, 1>",
    """
  %base = arith.muli %group, %n_items : index
  %i = arith.addi %item, %base : index
  %p = mem.lea %out, %i : !mem.ptr<!mem.array<? x i32>, 1>
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %four = arith.constant 4 : i32
  %eight = arith.constant 8 : i32
  %j = arith.subi %i, %shift : index
  %c1 = arith.cmpi slt, %j, %n : index
"""
    + add_if("%c1", "%m1, %m3", "%one", "%a1", "%ax1, %ax3")
    + "  %c2 = arith.cmpi uge, %n, %i : index\n"
    + add_if("%c2", "%ax1, %ax3", "%two", "%b1", "%bx1, %bx3")
    + "  %c3 = arith.cmpi sle, %item, %shift : index\n"
    + add_if("%c3", "%bx1, %bx3", "%four", "%d1", "%dx1, %dx3")
    + "  %c4 = arith.cmpi ult, %i, %n : index\n"
    + add_if("%c4", "%dx1, %dx3", "%eight", "%e1", "%ex1, %ex3")
    + """
  %minus_one = arith.constant -1 : index
  %sixteen = arith.constant 16 : i32
  %previous = arith.addi %item, %minus_one : index
  %c5 = arith.cmpi ult, %previous, %shift : index
"""
    + add_if("%c5", "%ex1, %ex3", "%sixteen", "%f1"),
    "%f1, %ex3, %m4, %m5",
)

# A loop that carries two per-item values, swapped each iteration, and a uniform one; the old
# value is read after the next one is made. It runs at group level (interchanged).
CARRY = kernel(
    "carry",
    "%group: index, %item: index, %n_items: index, %rounds: index,"
    " %x: !mem.ptr<!mem.array<? x f32>, 1>, %out: !mem.ptr<!mem.array<? x f32>, 1>",
    constants(c0=0, c1=1, half="0.5 : f32")
    + item_load("%a1, %v", "%x", "f32", n="%n_items")
    + """
  %r1, %a, %b, %u = scf.for %k = %c0 to %rounds step %c1
      iter_args(%t1 = %a1, %s = %v, %t = %half, %w = %half) -> (!mem.M<1>, f32, f32, f32) {
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %s2 = arith.mulf %s, %w : f32
    %s3 = arith.addf %s2, %kf : f32
    %old = arith.subf %s3, %t : f32
    %w2 = arith.addf %w, %half : f32
    scf.yield %t1, %old, %s, %w2 : !mem.M<1>, f32, f32, f32
  }
  %sum = arith.addf %a, %b : f32
  %total = arith.addf %sum, %u : f32
  %q = mem.lea %out, %i : !mem.ptr<!mem.array<? x f32>, 1>
  %b1 = mem.store %r1, %q, %total : !mem.ptr<f32, 1>""",
    "%b1, %m3, %m4, %m5",
)
SHAPES = GUARDS + CARRY


@pytest.mark.parametrize(
    ("groups", "items", "n", "shift"), [(3, 8, 13, 2), (4, 5, 20, 0), (2, 7, 3, 5)]
)
def test_guards_become_item_loop_bounds(groups: int, items: int, n: int, shift: int):
    found = {}
    for provider in ("cpu", "interp"):
        with Device(provider) as device:
            out = device.upload(np.zeros(groups * items, np.int32))
            device.compile(SHAPES).kernel("guards")(groups, items, items, n, shift, out)
            found[provider] = out.download()
    assert found["cpu"].tolist() == found["interp"].tolist()


@pytest.mark.parametrize(("groups", "items", "rounds"), [(2, 5, 3), (3, 16, 0), (1, 33, 7)])
def test_loops_carrying_per_item_values_run_at_group_level(groups: int, items: int, rounds: int):
    x = random_values(np.float32, groups * items, rounds)
    found = {}
    for provider in ("cpu", "interp"):
        with Device(provider) as device:
            out = device.empty(groups * items, np.float32)
            device.compile(SHAPES).kernel("carry")(
                groups, items, items, rounds, device.upload(x), out
            )
            found[provider] = out.download()
    assert found["cpu"].tobytes() == found["interp"].tobytes()


def test_engines_freed_from_the_cache_leave_the_others_working(monkeypatch):
    """Each MCJIT engine owns its target machine: one shared by all would be freed with the
    first engine that goes (this crashed the process). A cache of 3 modules here (32 in use):
    the same evictions, from 5 compilations instead of 34."""
    import gc

    from gpuir.runtime.cpu import compiled

    monkeypatch.setattr(compiled, "CACHE_SIZE", 3)
    for i in range(compiled.CACHE_SIZE + 2):
        text = BRANCHES.replace("%c2 = arith.constant 2", f"%c2 = arith.constant {i + 3}")
        compile_module(gpuir.compile(text, provider="cpu").device_module)
        gc.collect()
    with Device("cpu") as device:
        out = device.empty(5, np.int64)
        device.compile(BRANCHES).kernel("branches")(1, 5, out)
        assert out.download().tolist() == [2, 2, 2, 3, 4]
