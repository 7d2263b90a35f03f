"""Contracts between two pieces of code that must agree on bytes or values, and that nothing
but this file holds together (issue 29):

- `Fast`, the checker's state in `runtime/cpu/check.c`, and the byte offsets at which the
  checker's inline fast path (`check_accesses.FAST_PATH`, LLVM IR) reads it: a C program built
  with `gcc` around the real struct prints `offsetof` / `sizeof` of every field, which must be
  the offsets of the IR's `getelementptr i8, ptr @gpuir_check_fast, i64 N`, the widths of its
  loads and stores there, the strides of its indexing through the pointer fields and the size
  of its `[N x i64]` declaration; the struct's offset comments, the access kinds and owner
  bits (C enums against the Python constants the IR is built from), and the prototypes of the
  checker functions that the IR declares, as well;
- memory layout: `size_and_align` (the lowering, `lowering/llvm/conversion.py`) and
  `size_of` / `align_of` / `alloc_size` (`runtime/memory.py`, every provider), which both ask
  `gpuir.ir.data_layout` now, on random nested types with a fixed seed; and the layout of struct
  arguments (`runtime/structs.py`) against gcc's.

interp's fast forms against the impls of the same ops: `tests/test_fast_forms.py`.

The C header `runtime/gpuir_runtime.h` against `lowering.host.host_abi.ABI` is checked by
`tests/test_compiled_host.py` (`test_the_header_is_the_abi_table`).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    i32,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.dialects.gpu import StreamType
from gpuir.dialects.mem import ArrayType, MemType, PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.cpu import check_accesses
from gpuir.lowering.llvm.conversion import size_and_align
from gpuir.runtime import structs
from gpuir.runtime.memory import LayoutError, align_of, alloc_size, size_of

ROOT = Path(__file__).resolve().parents[1]
CPU_CHECK_C = ROOT / "runtime" / "cpu" / "check.c"
SEED = 29


def gcc() -> str:
    found = shutil.which("gcc")
    if found is None:
        pytest.skip("gcc is not installed: the native layouts cannot be measured")
    return found


def run_c(program: str, folder: Path, name: str) -> str:
    """Build `program` with gcc in `folder` and run it; its stdout."""
    source, binary = folder / f"{name}.c", folder / name
    source.write_text(program)
    built = subprocess.run(
        [gcc(), "-std=gnu11", "-Wall", "-Werror", "-o", str(binary), str(source)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    return subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout


# --- the checker's `Fast` state: check.c against FAST_PATH ----------------------------------


@dataclass
class CField:
    name: str
    pointer: bool
    documented: int | None
    """The offset the struct's comment gives (None: no comment)."""
    offset: int = -1
    size: int = -1
    pointee_size: int | None = None


def fast_fields(source: str) -> list[CField]:
    """The fields of `typedef struct {…} Fast;` in `source`, in order, one declaration a line
    (`uint64_t lo, span; /* 0, 8 */`)."""
    found = re.search(r"typedef struct \{(.*?)\} Fast;", source, re.S)
    assert found, "runtime/cpu/check.c defines no `typedef struct {…} Fast;`"
    fields = []
    for line in found.group(1).splitlines():
        comment = re.search(r"/\*(.*?)\*/", line)
        documented = [int(n) for n in comment.group(1).split(",")] if comment else []
        code = re.sub(r"/\*.*?\*/", "", line).strip()
        if not code:
            continue
        declaration = re.fullmatch(r"(\w+)\s+([^;]*);", code)
        assert declaration, f"cannot read the Fast field declaration {code!r}"
        for k, declarator in enumerate(declaration.group(2).split(",")):
            declarator = declarator.strip()
            fields.append(
                CField(
                    declarator.lstrip("* "),
                    declarator.startswith("*"),
                    documented[k] if k < len(documented) else None,
                )
            )
    return fields


@dataclass
class FastLayout:
    fields: dict[str, CField]
    size: int
    enums: dict[str, int]


def measure_fast(source_path: Path, folder: Path) -> FastLayout:
    """`Fast` as gcc lays it out: check.c itself, included into a program that prints it."""
    source = source_path.read_text()
    fields = fast_fields(source)
    enums = ["READ", "WRITE", "ATOMIC", "UNKNOWN_VALUE", "BOUNDS_ONLY"]
    enums += ["OWN_READ", "OWN_WRITE", "OWN_VALUES", "OWN_SLOW", "OWN_LIVE"]
    lines = ['printf("Fast %zu\\n", sizeof(Fast));']
    for f in fields:
        member = f"((Fast *)0)->{f.name}"
        pointee = f"sizeof(*{member})" if f.pointer else "(size_t)0"
        lines.append(
            f'printf("{f.name} %zu %zu %zu\\n", offsetof(Fast, {f.name}), sizeof({member}), '
            f"{pointee});"
        )
    lines += [f'printf("{e} %d\\n", (int){e});' for e in enums]
    program = (
        "#define SLOTS 16 /* small tables: the program only prints */\n"
        f'#include "{source_path}"\n'
        "#include <stddef.h>\n#include <stdio.h>\n"
        "int main(void) {\n  " + "\n  ".join(lines) + "\n  return 0;\n}\n"
    )
    by_name = {f.name: f for f in fields}
    size, values = -1, {}
    for line in run_c(program, folder, "fast").splitlines():
        name, *numbers = line.split()
        if name == "Fast":
            size = int(numbers[0])
        elif name in by_name:
            f = by_name[name]
            f.offset, f.size = int(numbers[0]), int(numbers[1])
            f.pointee_size = int(numbers[2]) if f.pointer else None
        else:
            values[name] = int(numbers[0])
    return FastLayout(by_name, size, values)


@dataclass
class IrAccess:
    """What the IR does with one field of `@gpuir_check_fast`."""

    offset: int
    types: set[str] = field(default_factory=set)
    """The types it loads from and stores to the field."""
    element_types: set[str] = field(default_factory=set)
    """The element types of `getelementptr`s through a pointer loaded from it."""


FAST_GLOBAL = "@gpuir_check_fast"
LLVM_SIZES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "ptr": 8}
IR_FIELDS = {
    "lo": "lo",
    "span": "span",
    "shadow": "shadow",
    "now": "group_now",
    "epochs": "epochs",
    "base": "group_base",
    "launch": "launch_base",
    "log": "log",
    "count": "log_count",
    "room": "log_room",
}
"""The IR's names (`%span.at`, or a value loaded from the global's start) for the fields of
`Fast` it reads: the one fact this test takes from a reader of both files."""


def ir_accesses(ir: str) -> tuple[int, dict[str, IrAccess]]:
    """The words of the IR's `[N x i64]` declaration of the global, and its accesses by IR
    name; any use of the global or of a field's address that this does not read fails."""
    declared = re.findall(rf"{FAST_GLOBAL} = external global \[(\d+) x i64\]", ir)
    assert len(declared) == 1, f"FAST_PATH declares {FAST_GLOBAL} {len(declared)} times"
    accesses: dict[str, IrAccess] = {}
    addresses: dict[str, str] = {}  # an IR value holding a field's address -> IR name
    for line in ir.splitlines():
        line = line.split(";")[0].strip()
        if FAST_GLOBAL not in line or "external global" in line:
            continue
        if gep := re.fullmatch(
            rf"%([\w.]+) = getelementptr i8, ptr {FAST_GLOBAL}, i64 (\d+)", line
        ):
            name = gep.group(1).removesuffix(".at")
            accesses[name] = IrAccess(int(gep.group(2)))
            addresses[gep.group(1)] = name
        elif load := re.fullmatch(rf"%([\w.]+) = load (\w+), ptr {FAST_GLOBAL}", line):
            accesses[load.group(1)] = IrAccess(0, {load.group(2)})
        else:
            raise AssertionError(
                f"FAST_PATH uses {FAST_GLOBAL} in a way this test cannot read: {line}"
            )
    loaded: dict[str, str] = {}  # a pointer loaded from a field -> IR name
    for line in ir.splitlines():
        line = line.split(";")[0].strip()
        for value, name in addresses.items():
            used = re.search(rf"%{re.escape(value)}(?![\w.])", line)
            if not used or line.startswith(f"%{value} = "):
                continue
            if load := re.fullmatch(rf"%([\w.]+) = load (\w+), ptr %{re.escape(value)}", line):
                accesses[name].types.add(load.group(2))
                if load.group(2) == "ptr":
                    loaded[load.group(1)] = name
            elif store := re.fullmatch(rf"store (\w+) %[\w.]+, ptr %{re.escape(value)}", line):
                accesses[name].types.add(store.group(1))
            else:
                raise AssertionError(
                    f"FAST_PATH uses %{value} in a way this test cannot read: {line}"
                )
    for line in ir.splitlines():
        for value, name in loaded.items():
            if gep := re.search(rf"getelementptr (\w+), ptr %{re.escape(value)},", line):
                accesses[name].element_types.add(gep.group(1))
    return int(declared[0]), accesses


def check_fast_contract(c: FastLayout, ir: str) -> None:
    """Everything `FAST_PATH` assumes of `Fast` holds of the struct gcc compiled."""
    words, accesses = ir_accesses(ir)
    assert words * 8 == c.size, f"FAST_PATH declares {words} words, sizeof(Fast) is {c.size}"
    unknown = set(accesses) - set(IR_FIELDS)
    assert not unknown, f"FAST_PATH reads fields this test cannot name: {unknown} (IR_FIELDS)"
    unread = set(c.fields) - {IR_FIELDS[name] for name in accesses}
    assert not unread, f"fields of Fast that FAST_PATH does not read: {unread}"
    for name, access in accesses.items():
        f = c.fields[IR_FIELDS[name]]
        assert (name, access.offset) == (name, f.offset), f"offsetof(Fast, {f.name})"
        assert access.types, f"FAST_PATH computes the address of {f.name} and does not use it"
        for type_ in access.types:
            assert (f.name, LLVM_SIZES[type_]) == (f.name, f.size), f"{type_} for {f.name}"
        assert ("ptr" in access.types) == f.pointer, f"{f.name}: pointer or not"
        for type_ in access.element_types:
            assert (f.name, LLVM_SIZES[type_]) == (f.name, f.pointee_size), f"*{f.name}"
    for f in c.fields.values():
        if f.documented is not None:
            assert (f.name, f.documented) == (f.name, f.offset), "the offset comment of Fast"


@pytest.fixture(scope="module")
def fast_layout(tmp_path_factory: pytest.TempPathFactory) -> FastLayout:
    return measure_fast(CPU_CHECK_C, tmp_path_factory.mktemp("fast"))


def test_fast_path_reads_the_checker_state_at_its_offsets(fast_layout: FastLayout):
    check_fast_contract(fast_layout, check_accesses.FAST_PATH)


def test_fast_path_access_kinds_and_owner_bits_are_the_checkers(fast_layout: FastLayout):
    kinds = {
        "READ": check_accesses.READ,
        "WRITE": check_accesses.WRITE,
        "ATOMIC": check_accesses.ATOMIC,
        "UNKNOWN_VALUE": check_accesses.UNKNOWN_VALUE,
        "BOUNDS_ONLY": check_accesses.BOUNDS_ONLY,
    }
    owners = {
        f"OWN_{name}": getattr(check_accesses, f"_OWN_{name}") >> 48
        for name in ("READ", "WRITE", "VALUES", "SLOW", "LIVE")
    }
    assert {name: fast_layout.enums[name] for name in kinds | owners} == kinds | owners


KERNEL = """
func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %group: index,
             %item: index) -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  func.return %m1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}
"""


def c_parameters(source: str, name: str) -> list[str] | None:
    """The parameter types of the C function `name` that `source` defines (None: none)."""
    found = re.search(rf"\bvoid {name}\(([^)]*)\)\s*\{{", source)
    return None if found is None else [p.split()[0] for p in found.group(1).split(",")]


def test_checker_functions_have_the_arity_the_instrumentation_calls_them_with():
    """Each function that `cpu-check-accesses` declares for its calls, and each that FAST_PATH
    declares, is a C function of the checker with as many 64-bit integer parameters; the one
    the checker does not define, `@__gpuir_check_access`, FAST_PATH defines so."""
    module = Parser(make_context(), KERNEL).parse_module()
    check_accesses.check_accesses(module, {"k"})
    declared = {
        op.sym_name.data: [str(t) for t in op.function_type.inputs]
        for op in module.ops
        if isinstance(op, llvm.FuncOp)
    }
    ir = check_accesses.FAST_PATH
    defined = {
        name: [p.split()[0] for p in params.split(",")]
        for kind, name, params in re.findall(
            r"(declare|define) void @(__gpuir_check_\w+)\(([^)]*)\)", ir
        )
        if kind == "define"
    }
    fast_declared = {
        name: [p.strip() for p in params.split(",")]
        for name, params in re.findall(r"declare void @(__gpuir_check_\w+)\(([^)]*)\)", ir)
    }
    assert check_accesses.ACCESS in declared and check_accesses.SLOW_ACCESS in fast_declared
    source = CPU_CHECK_C.read_text()
    for name, params in {**declared, **fast_declared}.items():
        c = c_parameters(source, name)
        if c is None:
            assert name in defined, f"neither check.c nor FAST_PATH defines {name}"
            assert (name, defined[name]) == (name, params)
            continue
        assert all(p in ("int64_t", "uint64_t") for p in c), (name, c)
        assert (name, params) == (name, ["i64"] * len(c))


# --- memory layout: the lowering's against the runtime's -----------------------------------------


ANCHOR = arith.ConstantOp(IntegerAttr(0, i32))
SCALARS: list[Attribute] = [
    IntegerType(1),
    IntegerType(8),
    IntegerType(16),
    IntegerType(32),
    IntegerType(64),
    IntegerType(3),
    IntegerType(24),
    IntegerType(48),
    IntegerType(128),
    IndexType(),
    Float16Type(),
    Float32Type(),
    Float64Type(),
    StreamType(),
]


def random_leaf(rng: random.Random, depth: int) -> Attribute:
    if depth < 2 and rng.random() < 0.2:
        return PtrType(random_type(rng, depth + 1), rng.choice([0, 1, 3, 4, 5]))
    if rng.random() < 0.1:
        return IntegerType(rng.randrange(1, 300))
    return rng.choice(SCALARS)


def random_type(rng: random.Random, depth: int = 0) -> Attribute:
    if depth < 3 and rng.random() < 0.5:
        return ArrayType(rng.randrange(0, 7), random_type(rng, depth + 1))
    return random_leaf(rng, depth)


def lowering_layout(t: Attribute) -> tuple[int, int] | None:
    try:
        return size_and_align(t, ANCHOR)
    except OpError:
        return None


def runtime_layout(t: Attribute) -> tuple[int, int] | None:
    try:
        return size_of(t), align_of(t)
    except LayoutError:
        return None


def test_size_and_align_is_the_runtimes_layout_on_random_types():
    """`!mem.array<N x T>` nested up to three deep, pointers to such, integers of any width,
    `index`, `f16`/`f32`/`f64`, streams: (size, alignment) from both, with a fixed seed."""
    rng = random.Random(SEED)
    types = [random_type(rng) for _ in range(400)]
    assert all(lowering_layout(t) is not None for t in types)
    differ = [(str(t), lowering_layout(t), runtime_layout(t)) for t in types]
    assert [d for d in differ if d[1] != d[2]] == []


@pytest.mark.parametrize("t", SCALARS, ids=str)
def test_dynamic_arrays_have_the_same_allocation_size(t: Attribute):
    rng = random.Random(f"{SEED}{t}")
    for _ in range(20):
        element = rng.choice([t, ArrayType(rng.randrange(0, 5), t)])
        dynamic = ArrayType(DYNAMIC_INDEX, element)
        extent = rng.randrange(0, 1000)
        layout = lowering_layout(element)
        assert layout is not None
        assert alloc_size(dynamic, extent) == extent * layout[0]
        assert lowering_layout(dynamic) is None and runtime_layout(dynamic) is None
        assert alloc_size(element) == layout[0]


@pytest.mark.parametrize(
    "t",
    [
        MemType(1),
        ArrayType(2, MemType(3)),
        Float80Type(),
        Float128Type(),
        llvm.LLVMStructType.from_type_list([i32]),
    ],
    ids=str,
)
def test_both_layouts_refuse_the_same_types(t: Attribute):
    """A token, a float type no provider runs, a struct (laid out by `runtime/structs.py`
    only as a kernel argument, never in memory): neither layout has a size for it."""
    assert lowering_layout(t) is None and runtime_layout(t) is None


@pytest.mark.parametrize("t", [BFloat16Type(), ArrayType(3, BFloat16Type())], ids=str)
def test_bf16_has_one_layout(t: Attribute):
    """bf16 had a size in the lowering and none at run time until both asked one rule
    (`gpuir.ir.data_layout`)."""
    assert (
        lowering_layout(t) == runtime_layout(t) == (2 * (3 if isinstance(t, ArrayType) else 1), 2)
    )


def test_struct_field_layout_is_the_memory_layout():
    """`runtime.structs.layout` of a scalar or pointer field is `size_of` / `align_of`."""
    for t in [*SCALARS[:5], IndexType(), Float16Type(), Float32Type(), Float64Type()]:
        field_layout = structs.layout(t)
        assert (str(t), field_layout.size, field_layout.align) == (str(t), size_of(t), align_of(t))
    pointer = PtrType(Float32Type(), 1)
    assert (structs.layout(pointer).size, structs.layout(pointer).align) == (
        size_of(pointer),
        align_of(pointer),
    )


C_FIELD_TYPES: dict[str, Attribute] = {
    "uint8_t": IntegerType(1),
    "int8_t": IntegerType(8),
    "int16_t": IntegerType(16),
    "int32_t": IntegerType(32),
    "int64_t": IntegerType(64),
    "long": IndexType(),
    "_Float16": Float16Type(),
    "float": Float32Type(),
    "double": Float64Type(),
    "void *": PtrType(Float32Type(), 1),
}
"""The C type of each field type a struct argument may have (`i1` is a byte, `index` 64 bits;
`long` is 64 bits on the x86-64 and aarch64 Linux ABIs that LLVM's data layouts describe)."""


def random_struct(rng: random.Random, depth: int, out: list[tuple[str, str, Attribute]]) -> str:
    """A random struct argument type, nested structs first in `out` as (C name, C definition,
    llvm type); its C name."""
    fields_c, fields_ir = [], []
    for _ in range(rng.randrange(1, 6)):
        if depth < 2 and rng.random() < 0.2:
            inner = random_struct(rng, depth + 1, out)
            fields_c.append(inner)
            fields_ir.append(out[-1][2] if out[-1][0] == inner else None)
        else:
            c_type = rng.choice(list(C_FIELD_TYPES))
            fields_c.append(c_type)
            fields_ir.append(C_FIELD_TYPES[c_type])
    name = f"S{len(out)}"
    body = " ".join(f"{c} f{i};" for i, c in enumerate(fields_c))
    out.append(
        (
            name,
            f"typedef struct {{ {body} }} {name};",
            llvm.LLVMStructType.from_type_list(fields_ir),
        )
    )
    return name


def test_struct_arguments_are_laid_out_as_gcc_lays_them_out(tmp_path: Path):
    """`runtime.structs.layout` (what the cpu and cuda providers pack) is C's layout: sizeof,
    _Alignof and every field's offsetof of random nested structs, with a fixed seed."""
    rng = random.Random(SEED)
    found: list[tuple[str, str, Attribute]] = []
    for _ in range(40):
        random_struct(rng, 0, found)
    lines, want = [], []
    for name, _, type_ in found:
        shape = structs.layout(type_)
        offsets = "".join(' " %zu"' for _ in shape.offsets)
        members = "".join(f", offsetof({name}, f{i})" for i in range(len(shape.offsets)))
        lines.append(
            f'printf("{name} %zu %zu"{offsets} "\\n", sizeof({name}), _Alignof({name}){members});'
        )
        want.append(" ".join(map(str, (name, shape.size, shape.align, *shape.offsets))))
    program = (
        "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n"
        + "\n".join(definition for _, definition, _ in found)
        + "\nint main(void) {\n  "
        + "\n  ".join(lines)
        + "\n  return 0;\n}\n"
    )
    got = run_c(program, tmp_path, "structs").splitlines()
    types = {name: str(type_) for name, _, type_ in found}
    assert [(line, types[line.split()[0]]) for line in got] == [
        (line, types[line.split()[0]]) for line in want
    ]
