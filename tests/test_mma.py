"""The matrix ops on interp and the cpu provider (`lowering/cpu/mma.py`): random tiles through
`gpu.mma_load`, `gpu.mma_compute` and `gpu.mma_store` give the same bits on both providers, and
numpy's product where every sum is exact (small integers): 16x16 tiles of f16 (f32 or f16
accumulators) and the f64 tiles (m8n8k4)."""

from __future__ import annotations

import numpy as np
import pytest
from kernels import kernel

from gpuir.api import Device

PARAMS = (
    "%group: index, %item: index, %a: !mem.ptr<!mem.array<? x IN>, 1>, "
    "%b: !mem.ptr<!mem.array<? x IN>, 1>, %c: !mem.ptr<!mem.array<? x ACC>, 1>"
)
BODY = """
  %c0 = arith.constant 0 : index
  %x1, %x3, %fa = gpu.mma_load %m1, %m3, %a[%c0] {lead = K : i64} : !mem.ptr<!mem.array<? x IN>, 1> -> !gpu.fragment<MxKxIN, "a">
  %y1, %y3, %fb = gpu.mma_load %x1, %x3, %b[%c0] {lead = N : i64} : !mem.ptr<!mem.array<? x IN>, 1> -> !gpu.fragment<KxNxIN, "b">
  %z1, %z3, %fc = gpu.mma_load %y1, %y3, %c[%c0] {lead = N : i64} : !mem.ptr<!mem.array<? x ACC>, 1> -> !gpu.fragment<MxNxACC, "c">
  %w1, %w3, %fd = gpu.mma_compute %z1, %z3, %fa, %fb, %fc : !gpu.fragment<MxKxIN, "a">, !gpu.fragment<KxNxIN, "b">, !gpu.fragment<MxNxACC, "c"> -> !gpu.fragment<MxNxACC, "c">
  %e1, %e3 = gpu.mma_store %w1, %w3, %fd, %c[%c0] {lead = N : i64} : !gpu.fragment<MxNxACC, "c">, !mem.ptr<!mem.array<? x ACC>, 1>
"""
"""`c = a · b + c` for one warp's tiles: an MxK `a` and a KxN `b` of type IN, an accumulator of
type ACC."""
F64_SHAPES = ((8, 4), (4, 8), (8, 8))
"""The f64 tiles of `a`, `b` and `c` (m8n8k4)."""


def run(provider: str, acc: str, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`c` after `BODY` ran on one warp with `a` and `b` (f16, or f64 where `acc` is) and `c`."""
    (m, k), (_, n) = a.shape, b.shape
    words = {"IN": "f64" if acc == "f64" else "f16", "ACC": acc, "M": m, "N": n, "K": k}
    params, body = PARAMS, BODY
    for word, value in words.items():
        params, body = params.replace(word, str(value)), body.replace(word, str(value))
    source = kernel("k", params, body, "%e1, %e3, %m4, %m5")
    with Device(provider) as device:
        buffers = [device.upload(x.reshape(-1)) for x in (a, b, c)]
        device.compile(source).kernel("k")(1, 32, *buffers)
        return buffers[2].download().reshape(c.shape)


def tiles(rng: np.random.Generator, acc: type, integers: bool) -> list[np.ndarray]:
    if integers:
        return [rng.integers(-8, 9, (16, 16)).astype(t) for t in (np.float16, np.float16, acc)]
    return [rng.standard_normal((16, 16)).astype(t) for t in (np.float16, np.float16, acc)]


@pytest.mark.parametrize("acc", [np.float32, np.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("seed", [0, 1])
def test_small_integers_give_numpys_product_on_both_providers(acc: type, seed: int):
    a, b, c = tiles(np.random.default_rng(seed), acc, integers=True)
    name = "f32" if acc is np.float32 else "f16"
    expected = (a.astype(np.float32) @ b.astype(np.float32) + c.astype(np.float32)).astype(acc)
    for provider in ("interp", "cpu"):
        found = run(provider, name, a, b, c)
        assert found.tobytes() == expected.tobytes(), provider


@pytest.mark.parametrize("acc", [np.float32, np.float16], ids=["f32", "f16"])
def test_rounded_sums_are_bit_identical_on_both_providers(acc: type):
    a, b, c = tiles(np.random.default_rng(7), acc, integers=False)
    name = "f32" if acc is np.float32 else "f16"
    on_interp, on_cpu = (run(p, name, a, b, c) for p in ("interp", "cpu"))
    assert on_cpu.tobytes() == on_interp.tobytes()
    wide = a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64)
    assert np.allclose(on_cpu, wide, rtol=1e-2, atol=1e-2)


def test_f64_small_integers_give_numpys_product_on_both_providers():
    rng = np.random.default_rng(3)
    a, b, c = (rng.integers(-50, 51, shape).astype(np.float64) for shape in F64_SHAPES)
    expected = a @ b + c
    for provider in ("interp", "cpu"):
        assert run(provider, "f64", a, b, c).tobytes() == expected.tobytes(), provider


def test_f64_rounded_sums_are_bit_identical_on_both_providers():
    a, b, c = (np.random.default_rng(11).standard_normal(shape) for shape in F64_SHAPES)
    on_interp, on_cpu = (run(p, "f64", a, b, c) for p in ("interp", "cpu"))
    assert on_cpu.tobytes() == on_interp.tobytes()
    assert np.allclose(on_cpu, a @ b + c, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("acc", "depth"), [("f32", 16), ("f16", 16), ("f64", 4)])
def test_the_cpu_product_is_one_vector_multiply_add_per_k(acc: str, depth: int):
    """`expand_mma` makes a lane's outputs at once: per k one `llvm.fmul` and one `llvm.fadd`
    of vectors, no scalar `arith.mulf` per output (16x16 tiles: 256 before)."""
    from xdsl.dialects.builtin import VectorType
    from xdsl.parser import Parser

    from gpuir.dialects import make_context
    from gpuir.lowering.cpu.mma import expand_mma

    m, k, n = (8, 4, 8) if acc == "f64" else (16, 16, 16)
    words = {"IN": "f64" if acc == "f64" else "f16", "ACC": acc, "M": m, "N": n, "K": k}
    params, body = PARAMS, BODY
    for word, value in words.items():
        params, body = params.replace(word, str(value)), body.replace(word, str(value))
    module = Parser(make_context(), kernel("k", params, body, "%e1, %e3, %m4, %m5")).parse_module()
    expand_mma(module)
    names = [op.name for op in module.walk()]
    assert names.count("llvm.fmul") == names.count("llvm.fadd") == depth
    assert "arith.mulf" not in names and "arith.addf" not in names
    products = [op for op in module.walk() if op.name == "llvm.fmul"]
    assert all(isinstance(op.results[0].type, VectorType) for op in products)
