"""`buffer.print` prints a float as C's `printf("%.2f", (double)v)`: the text of glibc's
`snprintf` for every f16, f32 and f64 value (any magnitude, subnormals, halfway cases, `-0.00`,
`inf`, `-inf`, `nan`, `-nan`), through `buffer-lower-ptr`'s IR (what gpu-run runs) and through
the host executor's own `buffer.print` (`format_fixed2`)."""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import random
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type

import gpuir
from gpuir.runtime.scalars import format_fixed2
from gpuir.tools import gpu_run

LIBC = ctypes.CDLL(ctypes.util.find_library("c"))
FLOATS = {"f16": (np.float16, 16), "f32": (np.float32, 32), "f64": (np.float64, 64)}
TYPES = {"f16": Float16Type(), "f32": Float32Type(), "f64": Float64Type()}


def glibc(value: np.floating) -> str:
    """What C prints for `printf("%.2f", (double)value)`."""
    text = ctypes.create_string_buffer(400)
    LIBC.snprintf(text, len(text), b"%.2f", ctypes.c_double(float(value)))
    return text.value.decode()


def from_bits(bits: int, ftype: str) -> np.floating:
    dtype, width = FLOATS[ftype]
    return np.array([bits], dtype=f"u{width // 8}").view(dtype)[0]


def bits_of(value: float, ftype: str) -> int:
    dtype, width = FLOATS[ftype]
    with np.errstate(all="ignore"):
        return int(np.array([value], dtype=dtype).view(f"u{width // 8}")[0])


EDGES = [
    0.0, -0.0, 0.001, -0.001, 0.004, 0.005, 0.006, 0.015, 0.025, 0.125, 0.375, -0.125, 0.5, 1.5,
    2.5, 2.675, 1.005, 0.995, 9.995, 99.995, 123.456, 60.0, -60.0, 65504.0, 1e15 + 0.5, 2.0**52,
    2.0**52 + 0.5, 2.0**53 / 100, 2.0**53 - 1, 2.0**53, 2.0**53 + 2, 2.0**63, 2.0**64,
    float(np.nextafter(2.0**64, 0.0)), float(np.nextafter(2.0**64, np.inf)), 1e18, 1e19, 1e20,
    1e36, 1e37, 3.4028234663852886e38, 1e100, 1e300, 1.7976931348623157e308, 5e-324,
    2.2250738585072014e-308, float("inf"), float("-inf"),
]  # fmt: skip


def edge_bits(ftype: str) -> list[int]:
    """The edge values in `ftype` (rounded to it), both signs, and NaNs with both signs."""
    _, width = FLOATS[ftype]
    sign, quiet = 1 << (width - 1), {16: 0x7E00, 32: 0x7FC00000, 64: 0x7FF8 << 48}[width]
    bits = [bits_of(v, ftype) for v in EDGES]
    bits += [b ^ sign for b in bits]
    return [*bits, quiet, quiet | sign, quiet | 1, quiet | 1 | sign, sign | 1, 1]


def random_bits(ftype: str, count: int, seed: int) -> list[int]:
    """Random bit patterns: any pattern, and as many subnormals (a zero exponent)."""
    _, width = FLOATS[ftype]
    mantissa = {16: 10, 32: 23, 64: 52}[width]
    rng = random.Random(seed)
    subnormals = [rng.getrandbits(mantissa) | rng.getrandbits(1) << (width - 1) for _ in range(50)]
    return [rng.getrandbits(width) for _ in range(count)] + subnormals


def program(bits: list[int], ftype: str) -> str:
    """A program that prints the floats of `bits`, one per line: a `buffer.init` of the bit
    patterns as integers, bitcast into a float buffer."""
    _, width = FLOATS[ftype]
    data = ", ".join(str(b - (1 << width) if b >> (width - 1) else b) for b in bits)
    n, it = len(bits), f"i{width}"
    return f"""func.func @main(%m: !mem.M<0>) -> !mem.M<0> {{
      %m1, %bits = buffer.init %m dense<[{data}]> : tensor<{n}x{it}>
      %m2, %f = buffer.alloc %m1 : !buffer.buf<{n}x1x{ftype}>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant {n} : index
      %m3 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %m2) -> (!mem.M<0>) {{
        %t1, %v = buffer.read %t, %bits[%i] : !buffer.buf<{n}x{it}>
        %x = arith.bitcast %v : {it} to {ftype}
        %t2, %g = buffer.write %t1, %f[%i, %c0], %x : !buffer.buf<{n}x1x{ftype}>
        scf.yield %t2 : !mem.M<0>
      }}
      %m4 = buffer.print %m3, %f : !buffer.buf<{n}x1x{ftype}>
      func.return %m4 : !mem.M<0>
    }}"""


def expected(bits: list[int], ftype: str) -> list[str]:
    return [f"{glibc(from_bits(b, ftype))}, " for b in bits]


def printed(text: str, pipeline: str) -> list[str]:
    out = io.StringIO()
    gpuir.compile(text, "interp", pipeline=pipeline, out=out).main()
    return out.getvalue().splitlines()


def mismatches(bits: list[int], ftype: str, lines: list[str]) -> list[str]:
    want = expected(bits, ftype)
    assert len(lines) == len(want)
    return [
        f"{from_bits(b, ftype)!r} ({b:#x}): printed {got!r}, glibc {ok!r}"
        for b, got, ok in zip(bits, lines, want, strict=True)
        if got != ok
    ]


# 'buffer-lower-ptr' is the IR every gpu-run pipeline prints with; '' leaves buffer.print to
# the host executor.
@pytest.mark.parametrize("pipeline", ["buffer-lower-ptr", ""])
@pytest.mark.parametrize(("ftype", "count"), [("f16", 1500), ("f32", 1500), ("f64", 1500)])
def test_buffer_print_matches_glibc(ftype: str, count: int, pipeline: str):
    bits = edge_bits(ftype) + random_bits(ftype, count, seed=count + len(ftype))
    assert mismatches(bits, ftype, printed(program(bits, ftype), pipeline)) == []


def test_the_random_values_reach_every_path():
    """The f64 values above print through each branch of the lowered IR: NaN, inf, huge
    integers (from 2^53, up to 309 digits, limbs with leading zeros), fractions."""
    values = [from_bits(b, "f64") for b in edge_bits("f64") + random_bits("f64", 1500, 1503)]
    finite = [abs(float(v)) for v in values if np.isfinite(v)]
    assert any(np.isnan(v) and np.signbit(v) for v in values)
    assert any(np.isinf(v) for v in values)
    assert sum(v >= 2.0**53 for v in finite) > 500 and sum(v < 2.0**53 for v in finite) > 500
    assert max(len(glibc(np.float64(v))) for v in finite) == 309 + 3
    assert any("000000" in glibc(np.float64(v))[1:] for v in finite if v >= 2.0**64)


@pytest.mark.parametrize("provider", ["interp", "cpu"])
@pytest.mark.parametrize(
    "pipeline", [None, "btensor-lower-map-reduce,buffer-lower-ptr"], ids=["default", "cpu-path"]
)
def test_gpu_run_prints_glibc_text(tmp_path: Path, capsys, provider: str, pipeline: str | None):
    bits = edge_bits("f64") + random_bits("f64", 200, seed=7)
    source = tmp_path / "print.mlir"
    source.write_text(program(bits, "f64"))
    argv = [str(source), "--provider", provider, *(["-p", pipeline] if pipeline else [])]
    status = gpu_run.main(argv)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert mismatches(bits, "f64", captured.out.splitlines()) == []


@pytest.mark.parametrize("ftype", ["f16", "f32", "f64"])
def test_format_fixed2_is_glibc(ftype: str):
    for bits in edge_bits(ftype) + random_bits(ftype, 20000, seed=3):
        value = from_bits(bits, ftype)
        assert format_fixed2(value, TYPES[ftype]) == glibc(value), f"{value!r} ({bits:#x})"


def test_glibc_keeps_the_sign_of_a_nan_and_rounds_exact_ties_to_even():
    """What the tests compare with: C's own text, which Python's `.2f` does not give for a
    NaN with its sign bit set."""
    negative_nan = from_bits(0xFFF8 << 48, "f64")
    assert glibc(negative_nan) == "-nan" and f"{float(negative_nan):.2f}" == "nan"
    assert [glibc(np.float64(v)) for v in (0.125, 0.375, -0.0, 2.675)] == [
        "0.12",
        "0.38",
        "-0.00",
        "2.67",
    ]
