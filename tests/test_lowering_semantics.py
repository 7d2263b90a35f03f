"""What the device lowering computes: device functions (not kernels) lowered by
`device-to-llvm`, translated by `gpuir.lowering.llvm.llvm_ir`, then run on the host CPU with LLVM's
JIT and compared with Python. This checks the arithmetic expansions, casts, control flow
(`scf.for`, `scf.if`, `scf.while`, `scf.index_switch`) and multi-result calls without a GPU."""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Callable

import pytest
from llvmlite import binding
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.lowering.llvm.llvm_ir import translate
from gpuir.lowering.nvptx.device_to_llvm import DeviceToLlvmPass

ENGINES: list[object] = []  # keep the JIT engines (and their code) alive


def jit(source: str, name: str, restype: type, *argtypes: type) -> Callable[..., object]:
    """Lower the device module `source`, JIT it for the host and return `@name`."""
    ctx = make_context()
    module = Parser(
        ctx, f"builtin.module attributes {{gpu.device}} {{\n{source}\n}}"
    ).parse_module()
    DeviceToLlvmPass().apply(ctx, module)
    text = str(translate(module))
    text = re.sub(
        r'target triple = ".*"', f'target triple = "{binding.get_default_triple()}"', text
    )
    text = re.sub(r'target datalayout = ".*"', "", text)
    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    parsed = binding.parse_assembly(text)
    for function in parsed.functions:
        if not function.is_declaration:
            function.linkage = "external"
    machine = binding.Target.from_default_triple().create_target_machine()
    engine = binding.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    ENGINES.append(engine)
    return ctypes.CFUNCTYPE(restype, *argtypes)(engine.get_function_address(name))


INTS = [-7, -6, -5, -1, 0, 1, 2, 3, 5, 6, 7, 100, -100, 2**31 - 1, -(2**31)]


def wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def test_division_expansions():
    f = jit(
        """
        func.func @ceildivsi(%a: i32, %b: i32) -> i32 {
          %r = arith.ceildivsi %a, %b : i32
          func.return %r : i32
        }
        func.func @floordivsi(%a: i32, %b: i32) -> i32 {
          %r = arith.floordivsi %a, %b : i32
          func.return %r : i32
        }
        func.func @ceildivui(%a: i32, %b: i32) -> i32 {
          %r = arith.ceildivui %a, %b : i32
          func.return %r : i32
        }""",
        "ceildivsi",
        ctypes.c_int32,
        ctypes.c_int32,
        ctypes.c_int32,
    )
    floor = jit_same_module_function(f, "floordivsi")
    ceil_u = jit_same_module_function(f, "ceildivui")
    for a in INTS:
        for b in INTS:
            if b == 0 or (a == -(2**31) and b == -1):
                continue
            assert f(a, b) == -((-a) // b), (a, b)
            assert floor(a, b) == a // b, (a, b)
            ua, ub = a % 2**32, b % 2**32
            assert ceil_u(a, b) % 2**32 == -(-ua // ub), (a, b)


def jit_same_module_function(first: Callable[..., object], name: str) -> Callable[..., object]:
    engine = ENGINES[-1]
    return type(first)(engine.get_function_address(name))  # type: ignore[attr-defined]


def test_index_casts_and_min_max():
    f = jit(
        """
        func.func @f(%a: i32, %b: i64) -> i32 {
          %i = arith.index_cast %a : i32 to index
          %j = arith.index_cast %b : i64 to index
          %s = arith.addi %i, %j : index
          %m = arith.maxsi %s, %j : index
          %t = arith.index_cast %m : index to i32
          %u = arith.minui %t, %a : i32
          func.return %u : i32
        }""",
        "f",
        ctypes.c_int32,
        ctypes.c_int32,
        ctypes.c_int64,
    )
    for a in INTS:
        for b in (-5, 0, 3, 2**40 + 1):
            expected = wrap32(max(a + b, b))
            assert f(a, b) == wrap32(min(expected % 2**32, a % 2**32)), (a, b)


def test_float_casts():
    f = jit(
        """
        func.func @f(%x: f32, %u: i32) -> f64 {
          %i = arith.fptosi %x : f32 to i32
          %fi = arith.sitofp %i : i32 to f64
          %fu = arith.uitofp %u : i32 to f64
          %m = arith.maximumf %fi, %fu : f64
          %n = arith.negf %m : f64
          func.return %n : f64
        }""",
        "f",
        ctypes.c_double,
        ctypes.c_float,
        ctypes.c_uint32,
    )
    for x in (-3.75, 0.5, 1e6):
        for u in (0, 7, 2**32 - 1):
            assert f(x, u) == -max(float(math.trunc(x)), float(u)), (x, u)


def test_loops_branches_and_multiple_results():
    steps = jit(
        """
        func.func @step(%x: index) -> (index, i1) {
          %two = arith.constant 2 : index
          %one = arith.constant 1 : index
          %three = arith.constant 3 : index
          %r = arith.remui %x, %two : index
          %odd = arith.cmpi eq, %r, %one : index
          %next = scf.if %odd -> (index) {
            %t = arith.muli %x, %three : index
            %u = arith.addi %t, %one : index
            scf.yield %u : index
          } else {
            %h = arith.divui %x, %two : index
            scf.yield %h : index
          }
          func.return %next, %odd : index, i1
        }
        func.func @collatz(%n: index) -> i64 {
          %zero = arith.constant 0 : i64
          %one = arith.constant 1 : index
          %one64 = arith.constant 1 : i64
          %count, %odds, %last = scf.while (%c = %zero, %o = %zero, %x = %n) : (i64, i64, index) -> (i64, i64, index) {
            %going = arith.cmpi ne, %x, %one : index
            scf.condition(%going) %c, %o, %x : i64, i64, index
          } do {
          ^bb0(%c2: i64, %o2: i64, %x2: index):
            %y, %odd = func.call @step(%x2) : (index) -> (index, i1)
            %oddi = arith.extui %odd : i1 to i64
            %o3 = arith.addi %o2, %oddi : i64
            %c3 = arith.addi %c2, %one64 : i64
            scf.yield %c3, %o3, %y : i64, i64, index
          }
          %thousand = arith.constant 1000 : i64
          %scaled = arith.muli %count, %thousand : i64
          %r = arith.addi %scaled, %odds : i64
          func.return %r : i64
        }""",
        "collatz",
        ctypes.c_int64,
        ctypes.c_int64,
    )

    def reference(n: int) -> int:
        count = odds = 0
        while n != 1:
            odds += n % 2
            n = 3 * n + 1 if n % 2 else n // 2
            count += 1
        return count * 1000 + odds

    for n in (1, 2, 3, 7, 27, 97):
        assert steps(n) == reference(n), n


def test_for_loop_and_switch():
    f = jit(
        """
        func.func @f(%n: index, %k: index) -> f32 {
          %zero = arith.constant 0 : index
          %one = arith.constant 1 : index
          %f0 = arith.constant 0.0 : f32
          %sum = scf.for %i = %zero to %n step %one iter_args(%acc = %f0) -> (f32) {
            %ii = arith.index_cast %i : index to i32
            %x = arith.sitofp %ii : i32 to f32
            %y = scf.index_switch %k -> f32
            case 0 {
              scf.yield %x : f32
            }
            case 2 {
              %sq = arith.mulf %x, %x : f32
              scf.yield %sq : f32
            }
            default {
              %neg = arith.negf %x : f32
              scf.yield %neg : f32
            }
            %acc2 = arith.addf %acc, %y : f32
            scf.yield %acc2 : f32
          }
          func.return %sum : f32
        }""",
        "f",
        ctypes.c_float,
        ctypes.c_int64,
        ctypes.c_int64,
    )
    for n in (0, 1, 5, 10):
        assert f(n, 0) == sum(range(n))
        assert f(n, 2) == sum(i * i for i in range(n))
        assert f(n, 1) == -sum(range(n))
        assert f(n, 7) == -sum(range(n))


@pytest.mark.parametrize("value", [0.25, 3.0])
def test_intrinsic_math(value: float):
    f = jit(
        """
        func.func @f(%x: f64) -> f64 {
          %s = math.sqrt %x : f64
          %a = math.absf %s : f64
          %c = math.ceil %a : f64
          %m = math.fma %c, %s, %x : f64
          func.return %m : f64
        }""",
        "f",
        ctypes.c_double,
        ctypes.c_double,
    )
    s = math.sqrt(value)
    assert f(value) == pytest.approx(math.ceil(abs(s)) * s + value)
