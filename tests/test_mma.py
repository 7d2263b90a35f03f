"""The matrix ops on interp and the cpu provider (`lowering/cpu/mma.py`): random tiles through
`gpu.mma_load`, `gpu.mma_compute` and `gpu.mma_store` give the same bits on both providers, and
numpy's f32 product where every sum is exact (small integers)."""

from __future__ import annotations

import numpy as np
import pytest
from kernels import kernel

from gpuir.api import Device

PARAMS = (
    "%group: index, %item: index, %a: !mem.ptr<!mem.array<? x f16>, 1>, "
    "%b: !mem.ptr<!mem.array<? x f16>, 1>, %c: !mem.ptr<!mem.array<? x ACC>, 1>"
)
BODY = """
  %c0 = arith.constant 0 : index
  %x1, %x3, %fa = gpu.mma_load %m1, %m3, %a[%c0] {lead = 16 : i64} : !mem.ptr<!mem.array<? x f16>, 1> -> !gpu.fragment<16x16xf16, "a">
  %y1, %y3, %fb = gpu.mma_load %x1, %x3, %b[%c0] {lead = 16 : i64} : !mem.ptr<!mem.array<? x f16>, 1> -> !gpu.fragment<16x16xf16, "b">
  %z1, %z3, %fc = gpu.mma_load %y1, %y3, %c[%c0] {lead = 16 : i64} : !mem.ptr<!mem.array<? x ACC>, 1> -> !gpu.fragment<16x16xACC, "c">
  %w1, %w3, %fd = gpu.mma_compute %z1, %z3, %fa, %fb, %fc : !gpu.fragment<16x16xf16, "a">, !gpu.fragment<16x16xf16, "b">, !gpu.fragment<16x16xACC, "c"> -> !gpu.fragment<16x16xACC, "c">
  %e1, %e3 = gpu.mma_store %w1, %w3, %fd, %c[%c0] {lead = 16 : i64} : !gpu.fragment<16x16xACC, "c">, !mem.ptr<!mem.array<? x ACC>, 1>
"""
"""`c = a · b + c` for one warp's 16x16 tiles, with an accumulator of type ACC."""


def run(provider: str, acc: str, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    source = kernel("k", PARAMS.replace("ACC", acc), BODY.replace("ACC", acc), "%e1, %e3, %m4, %m5")
    with Device(provider) as device:
        buffers = [device.upload(x.reshape(-1)) for x in (a, b, c)]
        device.compile(source).kernel("k")(1, 32, *buffers)
        return buffers[2].download().reshape(16, 16)


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
