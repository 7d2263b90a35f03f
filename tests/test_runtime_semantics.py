"""Run-time semantics of the standard dialects and of host code (gpuir.runtime.engine, .host):
exact integers, rounded floats, diagnostics for undefined behaviour, output order."""

from __future__ import annotations

import io

import numpy as np
import pytest
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.runtime.host import HostExecutor
from gpuir.runtime.interp import InterpProvider
from gpuir.runtime.provider import ProviderError


def run(text: str, *args: object, out: io.StringIO | None = None) -> list[object]:
    """Run `@main` of a host-only program (no pipeline); its non-token results."""
    module = Parser(make_context(), text, "test.mlir").parse_module()
    module.verify()
    executor = HostExecutor(module, InterpProvider(), out or io.StringIO())
    return [value for value, _ in executor.run_main(list(args))]


def unary(op: str, in_type: str, out_type: str, value: object) -> object:
    (result,) = run(
        f"""func.func @main(%m: !mem.M<0>, %x: {in_type}) -> (!mem.M<0>, {out_type}) {{
          %r = {op} %x : {in_type} to {out_type}
          func.return %m, %r : !mem.M<0>, {out_type}
        }}""",
        value,
    )
    return result


def binary(op: str, type_: str, a: object, b: object, result_type: str | None = None) -> object:
    result_type = result_type or type_
    (result,) = run(
        f"""func.func @main(%m: !mem.M<0>, %a: {type_}, %b: {type_}) -> (!mem.M<0>, {result_type}) {{
          %r = {op} %a, %b : {type_}
          func.return %m, %r : !mem.M<0>, {result_type}
        }}""",
        a,
        b,
    )
    return result


@pytest.mark.parametrize(
    ("op", "type_", "a", "b", "expected"),
    [
        ("arith.addi", "i32", 2**31 - 1, 1, -(2**31)),
        ("arith.muli", "i8", 16, 16, 0),
        ("arith.subi", "i64", -(2**63), 1, 2**63 - 1),
        ("arith.divui", "i32", -1, 2, 2**31 - 1),
        ("arith.divsi", "i32", -7, 2, -3),
        ("arith.remsi", "i32", -7, 2, -1),
        ("arith.remui", "i8", -1, 10, 5),
        ("arith.floordivsi", "i32", -7, 2, -4),
        ("arith.ceildivsi", "i32", 7, 2, 4),
        ("arith.ceildivui", "i32", 7, 2, 4),
        ("arith.shrui", "i32", -8, 1, 2**31 - 4),
        ("arith.shrsi", "i32", -8, 1, -4),
        ("arith.shli", "i8", 0x41, 1, -126),
        ("arith.maxui", "i32", -1, 1, -1),
        ("arith.maxsi", "i32", -1, 1, 1),
        ("arith.minui", "index", -1, 3, 3),
        ("arith.xori", "i1", 1, 1, 0),
    ],
)
def test_integer_ops_wrap_exactly(op, type_, a, b, expected):
    assert binary(op, type_, a, b) == expected


@pytest.mark.parametrize(
    ("op", "a", "b", "message"),
    [
        ("arith.divsi", 1, 0, "division by zero"),
        ("arith.remui", 1, 0, "division by zero"),
        ("arith.divsi", -(2**31), -1, r"signed division overflow \(-2147483648 / -1 in i32\)"),
        ("arith.shli", 1, 32, "shift by 32, not less than the bit width 32 \\(poison\\)"),
    ],
)
def test_undefined_integer_ops_are_diagnosed(op, a, b, message):
    with pytest.raises(ProviderError, match=message) as e:
        binary(op, "i32", a, b)
    assert e.value.op is not None and e.value.op.name == op


def test_cmpi_reads_signed_or_unsigned():
    text = """func.func @main(%m: !mem.M<0>, %a: i32, %b: i32) -> (!mem.M<0>, i1, i1) {
      %s = arith.cmpi slt, %a, %b : i32
      %u = arith.cmpi ult, %a, %b : i32
      func.return %m, %s, %u : !mem.M<0>, i1, i1
    }"""
    assert run(text, -1, 1) == [1, 0]


def test_float_ops_round_to_their_type():
    assert binary("arith.addf", "f32", np.float32(2**24), np.float32(1)) == np.float32(2**24)
    assert binary("arith.addf", "f64", np.float64(2**24), np.float64(1)) == 2**24 + 1
    third = binary("arith.divf", "f32", np.float32(1), np.float32(3))
    assert type(third) is np.float32 and third == np.float32(1) / np.float32(3)
    half = binary("arith.mulf", "f16", np.float16(0.1), np.float16(0.1))
    assert type(half) is np.float16 and half == np.float16(0.1) * np.float16(0.1)
    inf = binary("arith.divf", "f32", np.float32(1), np.float32(0))
    assert np.isinf(inf)


def test_minimumf_and_maxnumf_on_nan_and_zeros():
    nan, zero = np.float32("nan"), np.float32(0.0)
    assert np.isnan(binary("arith.minimumf", "f32", nan, zero))
    assert binary("arith.maxnumf", "f32", nan, zero) == 0
    assert np.signbit(binary("arith.minimumf", "f32", zero, -zero))
    assert not np.signbit(binary("arith.maximumf", "f32", -zero, zero))


def test_casts():
    assert unary("arith.extsi", "i1", "i32", 1) == -1
    assert unary("arith.extui", "i1", "i32", 1) == 1
    assert unary("arith.trunci", "i32", "i8", 0x1FF) == -1
    assert unary("arith.index_cast", "i32", "index", -5) == -5
    assert unary("arith.index_cast", "index", "i8", 300) == 44
    assert unary("arith.sitofp", "i64", "f32", 2**60 + 2**36 + 1) == np.float32(2**60 + 2**37)
    assert unary("arith.uitofp", "i32", "f64", -1) == 2**32 - 1
    assert unary("arith.fptosi", "f32", "i32", np.float32(-2.75)) == -2
    assert unary("arith.fptoui", "f64", "i8", np.float64(255.9)) == -1
    assert unary("arith.extf", "f16", "f64", np.float16(0.1)) == float(np.float16(0.1))
    assert unary("arith.truncf", "f64", "f32", np.float64(0.1)) == np.float32(0.1)
    assert unary("arith.bitcast", "f32", "i32", np.float32(-1.0)) == -0x40800000
    assert unary("arith.bitcast", "i64", "f64", 0x3FF0000000000000) == 1.0


def test_fptosi_out_of_range_is_poison():
    with pytest.raises(ProviderError, match=r"3e\+09 does not fit in a signed i32 \(poison\)"):
        unary("arith.fptosi", "f32", "i32", np.float32(3e9))
    with pytest.raises(ProviderError, match="nan does not fit"):
        unary("arith.fptoui", "f32", "i32", np.float32("nan"))


def test_math_fma_is_exact():
    text = """func.func @main(%m: !mem.M<0>, %a: f32, %b: f32, %c: f32) -> (!mem.M<0>, f32) {
      %r = math.fma %a, %b, %c : f32
      func.return %m, %r : !mem.M<0>, f32
    }"""
    a = np.float32(1 + 2**-12)
    # a * a = 1 + 2**-11 + 2**-24 exactly; minus (1 + 2**-11) leaves 2**-24, which a rounded
    # product would lose.
    (result,) = run(text, a, a, np.float32(-(1 + 2**-11)))
    assert result == np.float32(2**-24)


def test_scf_loops_and_calls():
    text = """
    func.func @twice(%x: i32) -> i32 {
      %r = arith.addi %x, %x : i32
      func.return %r : i32
    }
    func.func @main(%m: !mem.M<0>, %n: index) -> (!mem.M<0>, i32) {
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %init = arith.constant 1 : i32
      %r = scf.for %i = %zero to %n step %one iter_args(%acc = %init) -> (i32) {
        %d = func.call @twice(%acc) : (i32) -> i32
        scf.yield %d : i32
      }
      func.return %m, %r : !mem.M<0>, i32
    }"""
    assert run(text, 10) == [1024]
    assert run(text, 32) == [0]  # 2**32 wraps


def test_printf_and_buffer_print_share_one_stream_in_program_order():
    out = io.StringIO()
    text = """func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
      printf.print_format "before\\n"
      %m1, %b = buffer.init %m dense<[[1.5, -2.0], [0.125, 3.0]]> : tensor<2x2xf32>
      %m2 = buffer.print %m1, %b : !buffer.buf<2x2xf32>
      %x = arith.constant 0.1 : f32
      printf.print_format "after {}\\n", %x : f32
      func.return %m2 : !mem.M<0>
    }"""
    run(text, out=out)
    assert out.getvalue() == "before\n1.50, -2.00, \n0.12, 3.00, \nafter 0.1\n"


HOST_ERRORS = {
    # host memory is checked, and a slot dies with its function
    "slot-after-return": (
        """
    func.func @leak(%m: !mem.M<0>) -> (!mem.M<0>, !mem.ptr<i32, 0>) {
      %a, %p = mem.slot %m : !mem.ptr<i32, 0>
      func.return %a, %p : !mem.M<0>, !mem.ptr<i32, 0>
    }
    func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
      %a, %p = func.call @leak(%m) : (!mem.M<0>) -> (!mem.M<0>, !mem.ptr<i32, 0>)
      %b, %v = mem.load %a, %p : !mem.ptr<i32, 0>
      func.return %b, %v : !mem.M<0>, i32
    }""",
        "use after free: host code loads 4 bytes from a 4-byte host slot",
    ),
    "device-memory": (
        """func.func @main(%m: !mem.M<0>) -> (!mem.M<0>, i32) {
      %m0, %m1, %m4 = gpu.init %m
      %a1, %d = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
      %b1, %v = mem.load %a1, %d : !mem.ptr<i32, 1>
      %done = gpu.deinit %m0, %b1, %m4
      func.return %done, %v : !mem.M<0>, i32
    }""",
        "host code loads from global memory, which it cannot access directly",
    ),
    "op-without-semantics": (
        """func.func @main(%m: !mem.M<0>, %m1: !mem.M<1>, %m3: !mem.M<3>) -> !mem.M<0> {
      %a, %b = gpu.sync_work_items %m1, %m3
      func.return %m : !mem.M<0>
    }""",
        "'gpu.sync_work_items' cannot run here: host code has no semantics for it",
    ),
}


@pytest.mark.parametrize("case", list(HOST_ERRORS))
def test_host_code_errors_are_diagnostics(case: str):
    """A slot used after its function returned, device memory loaded by host code, and an op
    that host code cannot run: each a diagnostic, in these words."""
    text, message = HOST_ERRORS[case]
    with pytest.raises(ProviderError, match=message):
        run(text)
