"""`printf` in kernels on the compiled providers (`gpuir.lowering.llvm.device_printf`,
`gpuir.runtime.device_print`): cpu prints what interp prints, byte for byte and in the same
order, for every scalar type, from kernels and the device functions they call; a launch that
prints more than the print buffer holds is cut, with a warning at the launch; the print
buffer's records decode as the host formats.
"""

from __future__ import annotations

import struct
import subprocess
import warnings

import numpy as np
import pytest
from kernels import kernel, launching_main
from xdsl.dialects.builtin import IndexType, f16, f32, f64, i1, i8, i64

import gpuir
from gpuir.ir.diagnostics import OpWarning
from gpuir.runtime import device_print
from gpuir.runtime.native.build import compiler
from gpuir.tools.gpu_run import main as gpu_run

TYPES = (
    """
func.func @show(%m1: !mem.M<1>, %a: i1, %b: i8, %c: i16, %d: i64, %e: index, %f: f16, %g: f64)
    -> !mem.M<1> {
  printf.print_format "{} {} {} {} {} {} {}\\n", %a : i1, %b : i8, %c : i16, %d : i64, %e : index, %f : f16, %g : f64
  func.return %m1 : !mem.M<1>
}

"""
    + kernel(
        "k",
        "%group: index, %item: index, %x: f32",
        """
  %ii = arith.index_cast %item : index to i64
  %c1 = arith.constant 1 : index
  %odd = arith.andi %item, %c1 : index
  %zero = arith.constant 0 : index
  %a = arith.cmpi ne, %odd, %zero : index
  %b = arith.trunci %ii : i64 to i8
  %k = arith.constant -3000 : i16
  %big = arith.constant -9223372036854775808 : i64
  %d = arith.addi %big, %ii : i64
  %fi = arith.sitofp %ii : i64 to f32
  %y = arith.divf %x, %fi : f32
  %h = arith.truncf %y : f32 to f16
  %g = arith.extf %y : f32 to f64
  %t = func.call @show(%m1, %a, %b, %k, %d, %group, %h, %g)
      : (!mem.M<1>, i1, i8, i16, i64, index, f16, f64) -> !mem.M<1>""",
        "%t, %m3, %m4, %m5",
        marked=False,
    )
    + launching_main(
        "%groups, %items",
        """
  %groups = arith.constant 5 : index
  %items = arith.constant 4 : index
  %x = arith.constant 1.0 : f32""",
        "\n      args(%x) : (f32)",
    )
)


def run(text: str, provider: str, tmp_path, capsys) -> tuple[int, str, str]:
    path = tmp_path / f"{provider}.mlir"
    path.write_text(text)
    status = gpu_run([str(path), "--provider", provider])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cpu_prints_what_interp_prints_for_every_scalar_type(tmp_path, capsys):
    expected = run(TYPES, "interp", tmp_path, capsys)
    assert expected[0] == 0 and expected[2] == ""
    assert run(TYPES, "cpu", tmp_path, capsys) == expected
    lines = expected[1].splitlines()
    assert len(lines) == 20
    assert lines[0] == "0 0 -3000 -9223372036854775808 0 inf inf"  # 1 / 0
    assert lines[7] == "1 3 -3000 -9223372036854775805 1 0.3333 0.3333333432674408"


FLOOD = kernel(
    "k",
    "%group: index, %item: index, %n: index",
    """
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %j = %zero to %n step %one {
    printf.print_format "{}\\n", %j : index
  }""",
    marked=False,
) + launching_main(
    "%one, %items",
    """
  %one = arith.constant 1 : index
  %items = arith.constant 8 : index""",
    "\n      args(%n) : (index)",
    ", %n: index",
)


def test_a_launch_that_prints_more_than_the_buffer_holds_is_cut_with_a_warning(capsys):
    program = gpuir.compile(FLOOD, provider="cpu")
    records = device_print.CAPACITY // 16  # a header and one value each
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        program.main(10_000)  # 8 items x 10,000 records of 16 bytes: 1.28 MB
    out = capsys.readouterr().out
    assert out.count("\n") == records
    assert out.splitlines()[:3] == ["0", "1", "2"]  # item 0's, in order
    assert [str(w.message) for w in caught] == [
        "cpu: the printf output of @k was cut: "
        f"{8 * 10_000 * 16 - records * 16} bytes of records did not fit the "
        f"{device_print.CAPACITY}-byte print buffer"
    ]
    assert isinstance(caught[0].message, OpWarning)
    program.main(3)  # the next launch starts with an empty buffer
    assert capsys.readouterr().out == "0\n1\n2\n" * 8


def test_records_decode_as_the_host_formats():
    formats = [
        device_print.Format("a={} b={} c={}\n", "format", (i1, i8, IndexType())),
        device_print.Format("{}", "char", (i8,)),
        device_print.Format("{} {} {}", "format", (f16, f32, f64)),
        device_print.Format("{}", "int", (i64,)),
    ]

    def record(ident: int, *slots: bytes) -> bytes:
        return struct.pack("<q", ((ident + 1) << 32) | len(slots)) + b"".join(slots)

    q, d = struct.Struct("<q").pack, struct.Struct("<d").pack
    data = b"".join(
        [
            record(0, q(1), q(-56), q(-1)),
            record(1, q(65)),
            record(2, d(float(np.float16(0.1))), d(float(np.float32(0.1))), d(0.1)),
            record(3, q(-(2**63))),
        ]
    )
    output = device_print.text(data + bytes(64), len(data) + 40, len(data) + 64, formats)
    assert output.text == "a=1 b=-56 c=-1\nA0.1 0.1 0.1-9223372036854775808"
    assert output.lost == 0
    cut = device_print.text(data, len(data) + 100, len(data), formats)
    assert (cut.text, cut.lost) == (output.text, 100)


def test_kernel_printf_is_in_order_with_the_host_output(capsys):
    text = FLOOD.replace(
        "  %e = gpu.deinit",
        '  printf.print_format "host\\n"\n  %e = gpu.deinit',
    )
    gpuir.compile(text, provider="cpu").main(1)
    assert capsys.readouterr().out == "0\n" * 8 + "host\n"


@pytest.mark.parametrize("provider", ["cpu", "interp"])
def test_printing_kernels_run_from_the_api(provider, capsys):
    gpuir.compile(FLOOD, provider=provider).main(2)
    assert capsys.readouterr().out == "0\n1\n" * 8


# --- gpu.printf's C conversions, against C's printf -----------------------------------------------

INT_SPECS = (
    "d", "5d", "-5d", "+d", " d", "05d", ".3d", "8.3d", "-08.3d", ".0d", "i", "-+6i", "u", "x",
    "X", "#x", "#X", "08x", "-#10x", "o", "#o", "#.0o", "lld", "llx", "llu", "ld", "zu", "hd",
    "hu", "hhd", "hhx", "c", "3c", "-3c",
)  # fmt: skip
FLOAT_SPECS = (
    "f", "-8.3f", "+e", "E", "g", "G", "#g", ".0f", "#.0f", "010.2f", "- 12.4e", "F", "lf",
    ".10g", "+08.1f", "-+9.2E",
)  # fmt: skip
INT_VALUES = {  # upstream type: (C type, values)
    "i32": ("int32_t", (0, 65, -1, 2147483647, -123456)),
    "i8": ("int8_t", (-1, 127, -128, 48)),
    "i16": ("int16_t", (-3000, 97)),
    "i64": ("int64_t", (-1, 2**40 + 7, 66)),
    "index": ("int64_t", (3, -70000)),
}
FLOAT_VALUES = {  # upstream type: (C type, values as MLIR writes them, as C does)
    "f32": ("float", (("3.25", "3.25f"), ("-0.0", "-0.0f"), ("1.0e+20", "1e20f"),
                      ("0x7F800000", "INFINITY"), ("0x7FC00000", "NAN"))),
    "f64": ("double", (("0.1", "0.1"), ("-2.5e-07", "-2.5e-7"), ("0xFFF0000000000000", "-INFINITY"),
                       ("0xFFF8000000000000", "-NAN"), ("123456789.125", "123456789.125"))),
    "f16": ("float", (("1.5", "1.5f"), ("-65504.0", "-65504.0f"))),
}  # fmt: skip
C_ARGUMENT = {"": "int", "ll": "long long", "l": "long", "z": "size_t", "h": "int", "hh": "int"}


def printf_cases() -> list[tuple[str, str, str, str, str]]:
    """(spec, upstream type, MLIR value, C type, C value) for every spec and value it prints."""
    cases = []
    for spec in INT_SPECS:
        for type_, (c_type, values) in INT_VALUES.items():
            for value in values:
                if spec.endswith("c") and not 32 <= value < 127:
                    continue  # C prints a byte, gpu-run its character (the same below 0x80)
                cases.append((spec, type_, str(value), c_type, str(value)))
    for spec in FLOAT_SPECS:
        for type_, (c_type, pairs) in FLOAT_VALUES.items():
            cases.extend((spec, type_, mlir, c_type, c) for mlir, c in pairs)
    return cases


def printf_program(cases) -> str:
    lines = []
    for k, (spec, type_, value, _, _) in enumerate(cases):
        lines.append(f"      %v{k} = arith.constant {value} : {type_}")
        lines.append(f'      gpu.printf "%{spec}|\\n", %v{k} : {type_}')
    body = "\n".join(lines)
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @show() kernel {{
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@show blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }}
}}
"""


def c_program(cases) -> str:
    """The same prints in C: each value of its C type, passed as the argument its conversion
    reads (an integer cast to the length modifier's type, signed or unsigned; a float promoted
    to double; `-NAN` a NaN with its sign bit)."""
    lines = []
    for spec, _, _, c_type, value in cases:
        conversion, length = spec[-1], spec[:-1].lstrip("-+ #0123456789.")
        if conversion in "fFeEgG":
            argument = f"(double)({c_type})({value})"
        else:
            cast = C_ARGUMENT[length]
            cast = f"unsigned {cast}" if conversion in "ouxX" and cast != "size_t" else cast
            argument = f"({cast})({c_type})({value}LL)"
        lines.append(f'    printf("%{spec}|\\n", {argument});')
    body = "\n".join(lines)
    return f"#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {{\n{body}\n    return 0;\n}}\n"


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
def test_gpu_printf_conversions_print_what_c_printf_prints(tmp_path, capsys):
    """Widths, flags, precisions, length modifiers, every conversion of an integer and a float
    (`%c`, `%x`, `%o`, `%u`, `%e`, `%G`, …) on interp, cpu and a native executable: C's printf
    of the same values, compiled by cc, byte for byte."""
    cases = printf_cases()
    source = tmp_path / "printf.c"
    source.write_text(c_program(cases))
    subprocess.run([compiler(), str(source), "-o", str(tmp_path / "c"), "-lm"], check=True)
    expected = subprocess.run([str(tmp_path / "c")], capture_output=True, check=True).stdout
    text = printf_program(cases)
    for provider in ("interp", "cpu"):
        assert run(text, provider, tmp_path, capsys) == (0, expected.decode(), "")
    program, exe = tmp_path / "native.mlir", tmp_path / "native"
    program.write_text(text)
    assert gpu_run([str(program), "--provider", "cpu", "--emit-executable", str(exe)]) == 0
    capsys.readouterr()
    assert subprocess.run([str(exe)], capture_output=True, check=True).stdout == expected
