"""The NVPTX collectives' LLVM IR (what `gpu-opt -t llvm` makes of `gpu.workgroup_reduce` /
`gpu.workgroup_scan`), run on this CPU without a GPU: one OS thread per work-item.

The NVPTX-specific parts of the IR are replaced by host equivalents, textually: the shared
scratch (`addrspace(3)`) becomes an ordinary global, `%tid.x` / `%ntid.x` calls of functions
that return the calling thread's item id and the group size, and `bar.sync 0` a call of a
`threading.Barrier` of the group. Everything else, the index schedule, the loops, the combining
ops, is the lowering's own IR, compiled by LLVM for the host. Each collective's results must be
bit-identical to interp's reference (`tree_reduce`, `left_scan`) for groups of many sizes.
This checks the lowering's logic, not NVPTX's code generation (ptxas tests and the cuda lit
tests do that).
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType

from gpuir.runtime.interp import left_scan, tree_reduce

GPU_OPT = Path(sys.executable).parent / "gpu-opt"
SIZES = (1, 2, 3, 5, 7, 11, 32, 33, 64, 100, 127, 130)
TYPES = {
    "i32": (ctypes.c_int32, np.int32, IntegerType(32)),
    "i64": (ctypes.c_int64, np.int64, IntegerType(64)),
    "f32": (ctypes.c_float, np.float32, Float32Type()),
    "f64": (ctypes.c_double, np.float64, Float64Type()),
}
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
    ):
        text = text.replace(old, new)
    assert "nvvm" not in text, "an NVVM intrinsic without a host stand-in"
    return text


class Group:
    """The host stand-ins: the calling thread's item id, the group size, the barrier."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.n = 1
        self.barrier = threading.Barrier(1)
        self.item_id = ctypes.CFUNCTYPE(ctypes.c_int32)(lambda: self.local.item)
        self.n_items = ctypes.CFUNCTYPE(ctypes.c_int32)(lambda: self.n)
        self.sync = ctypes.CFUNCTYPE(None, ctypes.c_int32)(lambda _: self.wait())

    def wait(self) -> None:
        self.barrier.wait(timeout=30)

    def run(self, function: Callable[[object], object], values: list[object]) -> list[object]:
        """`function(values[i])` on item `i` of a group of `len(values)` threads."""
        self.n = len(values)
        self.barrier = threading.Barrier(self.n)
        results: list[object] = [None] * self.n
        errors: list[BaseException] = []

        def item(i: int) -> None:
            self.local.item = i
            try:
                results[i] = function(values[i])
            except BaseException as e:  # noqa: BLE001
                errors.append(e)
                self.barrier.abort()

        threads = [threading.Thread(target=item, args=(i,)) for i in range(self.n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        return results


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory):
    from llvmlite import binding

    from gpuir.lowering.cpu_llvm import new_host_machine

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
    magnitudes = rng.choice([1e-3, 1.0, 1e3, 1e7], size=n)
    values = [dtype(x) for x in rng.standard_normal(n) * magnitudes]
    if n > 3:
        values[1], values[2] = dtype(-0.0), dtype(0.0)
    return values


@pytest.mark.parametrize(("collective", "kind", "t"), CASES)
def test_collective_matches_interp(compiled, collective: str, kind: str, t: str) -> None:
    engine, group = compiled
    c_type, dtype, type_ = TYPES[t]
    address = engine.get_function_address(f"__gpuir_workgroup_{collective}_{kind}_{t}")
    function = ctypes.CFUNCTYPE(c_type, c_type)(address)
    rng = np.random.default_rng(zlib.crc32(f"{collective} {kind} {t}".encode()))
    for n in SIZES:
        values = sample(t, n, rng)
        got = [dtype(x) for x in group.run(function, values)]
        raw = [x.item() for x in values]
        if collective == "reduce":
            want = [dtype(tree_reduce(kind, raw, type_))] * n
        else:
            want = [dtype(x) for x in left_scan(kind, raw, type_)]
        bits = f"u{np.dtype(dtype).itemsize}"
        assert (
            np.array(got, dtype).view(bits).tolist() == np.array(want, dtype).view(bits).tolist()
        ), f"n={n}: {got} != {want}"
