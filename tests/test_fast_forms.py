"""interp's fast forms (`gpuir.runtime.engine`, compiled once per function) against the impls they
stand for: every fast form, bit for bit and error for error, on edge and random values."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    f16,
    f32,
    f64,
)
from xdsl.ir import Operation
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.dialects.mem import ArrayType
from gpuir.runtime.engine import STANDARD_FUNCTIONS, make_machine
from gpuir.runtime.engine.closures import FAST, Compiler, internal_error
from gpuir.runtime.host import HostMachine
from gpuir.runtime.memory import Allocation, Pointer, size_of
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import TOKEN

SEED = 29


# --- interp's fast forms against the impls -------------------------------------------------------

INT_WIDTHS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
FLOAT_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
VALUE_TYPES = [*INT_WIDTHS, *FLOAT_DTYPES]
CMPI_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CONTROL_FLOW = {"scf.for", "scf.if", "scf.yield", "func.return", "cf.br", "cf.cond_br"}
"""Fast forms that move values between blocks and regions: run by every lit test, not here."""
MEMORY_OPS = {"mem.lea", "mem.load", "mem.store"}


def canonical(value: int, width: int) -> int:
    """An integer as interp holds it: signed, `i1` as 0 or 1 (`runtime/scalars.py`)."""
    value &= (1 << width) - 1
    if width == 1:
        return value
    return value - (1 << width) if value >> (width - 1) else value


def int_values(width: int, rng: random.Random) -> list[int]:
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    edges = [0, 1, -1, 2, 3, 7, low, high, low + 1, high - 1, width - 1, width, width + 1]
    edges += [rng.getrandbits(width) for _ in range(3)]
    return sorted({canonical(v, width) for v in edges})


def float_values(dtype: type[np.floating], rng: random.Random) -> list[np.floating]:
    info = np.finfo(dtype)
    bits = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[dtype]
    width = np.dtype(dtype).itemsize * 8
    quiet_payload = bits(((1 << (info.nexp + 1)) - 1) << info.nmant | 5)  # a NaN with a payload
    values = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.nan, -np.nan, np.inf, -np.inf]
    values += [info.max, -info.max, info.tiny, -info.tiny]
    values += [info.smallest_subnormal, -info.smallest_subnormal]
    out = [dtype(v) for v in values]
    out.append(dtype(info.tiny) - dtype(info.smallest_subnormal))  # the largest subnormal
    out.append(np.array(quiet_payload).view(dtype)[()])
    out += [np.array(bits(rng.getrandbits(width))).view(dtype)[()] for _ in range(3)]
    return out


def values_of(type_name: str, rng: random.Random) -> list[Any]:
    if type_name in INT_WIDTHS:
        return int_values(INT_WIDTHS[type_name], rng)
    return float_values(FLOAT_DTYPES[type_name], rng)


def same(a: Any, b: Any) -> bool:
    """One value, bit for bit: the same Python type, floats by their bits (NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.floating):
        return a.tobytes() == b.tobytes()
    return bool(a == b)


def error_of(e: ProviderError) -> tuple:
    return ("error", e.name, str(e), id(e.op), [(id(op), note) for op, note in e.related])


def same_outcome(a: tuple, b: tuple) -> bool:
    if a[0] != b[0] or len(a) != len(b):
        return False
    if a[0] == "error":
        return a == b
    return len(a[1]) == len(b[1]) and all(map(same, a[1], b[1]))


def function_body(module: ModuleOp) -> list[Operation]:
    """The ops of the first function of `module`."""
    function = module.body.block.first_op
    assert function is not None
    return list(function.regions[0].blocks[0].ops)


def ops_that_verify(
    template: str, types: list[tuple[str, ...]]
) -> dict[tuple[str, ...], Operation]:
    """The first op of `template.format(*types)` (a function body of one op, arguments `%a`,
    `%b`: the first types, `%c: i1`) for each `types` that parses and verifies."""
    found = {}
    for names in types:
        a, b = names[0], names[-1]
        text = (
            f"func.func @f(%a: {a}, %b: {b}, %c: i1) {{\n"
            f"  {template.format(*names)}\n  func.return\n}}"
        )
        try:
            module = Parser(make_context(), text).parse_module()
            module.verify()
        except Exception:  # noqa: BLE001  # an op that does not take these types
            continue
        found[names] = function_body(module)[0]
    return found


@dataclass
class Case:
    op: Operation
    inputs: list[tuple[Any, ...]]


def fast_form_cases(op_type: type[Operation], rng: random.Random) -> list[Case]:
    """Ops of `op_type` on every value type they take, with inputs for each."""
    name = op_type.name
    singles = [(t,) for t in VALUE_TYPES]
    pairs = [(s, t) for s in VALUE_TYPES for t in VALUE_TYPES if s != t]
    cases = []
    if name == "arith.cmpi":
        for predicate in CMPI_PREDICATES:
            for (t,), op in ops_that_verify(
                f"%r = {name} {predicate}, %a, %b : {{0}}", singles
            ).items():
                values = values_of(t, rng)
                cases.append(Case(op, [(x, y) for x in values for y in values]))
        return cases
    if name == "arith.select":
        for (t,), op in ops_that_verify(f"%r = {name} %c, %a, %b : {{0}}", singles).items():
            values = values_of(t, rng)
            ys = rng.sample(values, len(values))
            cases.append(
                Case(op, [(c, x, y) for c in (0, 1) for x, y in zip(values, ys, strict=True)])
            )
        return cases
    binary = ops_that_verify(f"%r = {name} %a, %b : {{0}}", singles)
    for (t,), op in binary.items():
        values = values_of(t, rng)
        cases.append(Case(op, [(x, y) for x in values for y in values]))
    casts = ops_that_verify(f"%r = {name} %a : {{0}} to {{1}}", pairs)
    for (s, _), op in casts.items():
        cases.append(Case(op, [(x,) for x in values_of(s, rng)]))
    return cases


@pytest.fixture(scope="module")
def machine() -> Any:
    """A host machine (memory in space 0), its impls the standard ones (`Machine._run_op`)."""
    return make_machine(HostMachine, ModuleOp([]), STANDARD_FUNCTIONS)


def compile_fast(machine: Any, op: Operation) -> tuple[Any, Compiler]:
    """The op's fast form, compiled alone (the step `Compiler.step` would make, unwrapped)."""
    compiler = Compiler(machine.code)
    step = FAST[type(op)](compiler, op)
    assert step is not None, f"the fast form of {op} declines it: the test runs the impl twice"
    return step, compiler


def run_fast(machine: Any, op: Operation, step: Any, compiler: Compiler, args: tuple) -> tuple:
    """The outcome of the compiled step, as `CompiledRegion.run` reports it, under the float
    state `Machine.call` runs functions in."""
    frame: list[Any] = [None] * len(compiler.slots)
    for value, arg in zip(op.operands, args, strict=True):
        frame[compiler.slots[value]] = arg
    try:
        with np.errstate(all="ignore"):
            step(machine, frame)
    except ProviderError as e:
        return error_of(e)
    except Exception as e:  # noqa: BLE001  # what CompiledRegion.run makes of it
        return error_of(internal_error(machine, op, e))
    return ("value", tuple(frame[compiler.slots[r]] for r in op.results))


def run_impl(machine: Any, op: Operation, args: tuple) -> tuple:
    try:
        return ("value", tuple(machine._run_op(op, args).values))
    except ProviderError as e:
        return error_of(e)


def fast_form_names() -> list[str]:
    return sorted(t.name for t in FAST if t.name not in CONTROL_FLOW | MEMORY_OPS)


def test_every_fast_form_is_compared_here():
    """Every fast form but control flow is compared with its impl below: the value ops by
    `fast_form_names` (a new one too), the memory ops each by a test of its own."""
    assert "arith.addi" in fast_form_names() and "arith.constant" in fast_form_names()
    assert MEMORY_OPS <= {t.name for t in FAST}


@pytest.mark.parametrize("name", [n for n in fast_form_names() if n != "arith.constant"])
def test_fast_form_computes_what_the_impl_computes(name: str, machine: Any):
    (op_type,) = [t for t in FAST if t.name == name]
    rng = random.Random(f"{SEED}{name}")
    cases = fast_form_cases(op_type, rng)
    assert cases, f"no op of {name} could be built to compare its fast form with its impl"
    mismatches = []
    for case in cases:
        step, compiler = compile_fast(machine, case.op)
        for args in case.inputs:
            fast_outcome = run_fast(machine, case.op, step, compiler, args)
            impl_outcome = run_impl(machine, case.op, args)
            if not same_outcome(fast_outcome, impl_outcome):
                mismatches.append((str(case.op), args, fast_outcome, impl_outcome))
    assert not mismatches[:5], f"{len(mismatches)} inputs differ"


def constants(rng: random.Random) -> list[Operation]:
    ops: list[Operation] = []
    for t, width in INT_WIDTHS.items():
        type_ = IndexType() if t == "index" else IntegerType(width)
        values = set(int_values(width, rng)) | ({(1 << width) - 1} if width > 1 else {-1})
        ops += [arith.ConstantOp(IntegerAttr(v, type_)) for v in sorted(values)]
    for t, dtype in FLOAT_DTYPES.items():
        type_ = {"f16": f16, "f32": f32, "f64": f64}[t]
        ops += [arith.ConstantOp(FloatAttr(float(v), type_)) for v in float_values(dtype, rng)]
    return ops


def test_fast_constant_is_the_impls(machine: Any):
    for op in constants(random.Random(SEED)):
        step, compiler = compile_fast(machine, op)
        fast_outcome = run_fast(machine, op, step, compiler, ())
        assert same_outcome(fast_outcome, run_impl(machine, op, ())), str(op)


MEMORY_TYPES = ["i1", "i8", "i32", "i64", "index", "f16", "f32", "f64"]


def memory_ops(t: str) -> dict[str, Operation]:
    text = f"""
    func.func @f(%m: !mem.M<0>, %d: !mem.ptr<!mem.array<? x {t}>, 0>,
                 %s: !mem.ptr<!mem.array<3 x !mem.array<2 x {t}>>, 0>, %i: index,
                 %q: !mem.ptr<{t}, 0>, %v: {t}) {{
      %e = mem.lea %d, %i : !mem.ptr<!mem.array<? x {t}>, 0>
      %row = mem.lea %s, %i : !mem.ptr<!mem.array<3 x !mem.array<2 x {t}>>, 0>
      %m1, %x = mem.load %m, %q : !mem.ptr<{t}, 0>
      %m2 = mem.store %m, %q, %v : !mem.ptr<{t}, 0>
      func.return
    }}"""
    module = Parser(make_context(), text).parse_module()
    module.verify()
    body = function_body(module)
    return {op.name + ("" if op.name != "mem.lea" else f" {i}"): op for i, op in enumerate(body)}


def element_pointers(t: str, rng: random.Random) -> tuple[Allocation, list[Pointer]]:
    """Pointers to `t`s in a host allocation of four of them with random bytes: each element,
    the ones just outside, a misaligned one, one into a freed allocation and a null one."""
    type_ = memory_ops(t)["mem.load"].results[1].type
    size = size_of(type_)
    allocation = Allocation(0, 4 * size, ArrayType(4, type_))
    allocation.data[:] = np.frombuffer(rng.randbytes(4 * size), np.uint8)
    if t == "i1":
        allocation.data[:] &= 1  # an i1 in memory is a byte, 0 or 1
    freed = Allocation(0, 4 * size, ArrayType(4, type_))
    freed.mark_freed(None)
    pointers = [Pointer(allocation, k * size, type_) for k in range(-1, 5)]
    pointers += [Pointer(allocation, 1, type_), Pointer(freed, 0, type_), Pointer(None, 0, type_)]
    return allocation, pointers


@pytest.mark.parametrize("t", MEMORY_TYPES)
def test_fast_load_and_store_are_the_impls(t: str, machine: Any):
    rng = random.Random(f"{SEED}{t}")
    ops = memory_ops(t)
    allocation, pointers = element_pointers(t, rng)
    load, store = ops["mem.load"], ops["mem.store"]
    load_step, load_compiler = compile_fast(machine, load)
    store_step, store_compiler = compile_fast(machine, store)
    start = allocation.data.copy()
    for ptr in pointers:
        args = (TOKEN, ptr)
        assert same_outcome(
            run_fast(machine, load, load_step, load_compiler, args),
            run_impl(machine, load, args),
        ), (t, ptr)
        for value in values_of(t, rng):
            args = (TOKEN, ptr, value)
            fast_outcome = run_fast(machine, store, store_step, store_compiler, args)
            fast_bytes = allocation.data.copy()
            allocation.data[:] = start
            impl_outcome = run_impl(machine, store, args)
            impl_bytes = allocation.data.copy()
            allocation.data[:] = start
            assert same_outcome(fast_outcome, impl_outcome), (t, ptr, value)
            assert fast_bytes.tobytes() == impl_bytes.tobytes(), (t, ptr, value)


@pytest.mark.parametrize("t", MEMORY_TYPES)
def test_fast_lea_is_the_impls(t: str, machine: Any):
    """One step for every pointer, in random order: the fast form's stride, kept from the last
    pointee it saw, must follow the pointee of each pointer (a `?` array, a static one, an
    array of arrays, and a pointer to no array, which both report)."""
    rng = random.Random(f"{SEED}{t}")
    ops = memory_ops(t)
    element = ops["mem.load"].results[1].type
    dynamic = ArrayType(DYNAMIC_INDEX, element)
    nested = ArrayType(3, ArrayType(2, element))
    allocation = Allocation(0, 6 * size_of(element), nested)
    pointees = [dynamic, ArrayType(5, element), nested, ArrayType(2, element), element]
    indices = int_values(64, rng)
    inputs = [
        (Pointer(allocation, rng.randrange(0, 8), pointee), i)
        for pointee in pointees
        for i in indices
    ]
    rng.shuffle(inputs)
    for name in ("mem.lea 0", "mem.lea 1"):
        op = ops[name]
        step, compiler = compile_fast(machine, op)
        for args in inputs:
            fast_outcome = run_fast(machine, op, step, compiler, args)
            assert same_outcome(fast_outcome, run_impl(machine, op, args)), (name, args)
