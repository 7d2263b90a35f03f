"""Native executables: a program compiled for the cpu provider, linked by the system's C
compiler into one executable that runs without Python (docs/native.md).

`build(program, path, ...)` links the program's host object (`compile_host`'s, the JIT shim
included), its kernels' object (the cpu provider's), the C runtime (`gpuir_cpu.c`, compiled
once per version into the cache) and the tables the runtime reads (`native.h`: the kernels, the
host ops that call the runtime by op id, `@main`'s signature), generated here as C.

Not every program can be one: `NotNative` says why (a print with a C conversion wider than
`PRINT_FIELD`, a struct argument,
`mem.print_memref`, a signature gpu-run reads but this runtime does not, a kernel that did not
compile, atomics in a program that makes streams: the cpu provider runs streams at once, each
on a thread, and this runtime one after another, so a kernel could wait forever for another
stream's). `gpu-run` keeps one per program in the compile cache (`cache_executable`) and runs it
on later runs (`gpuir.tools.warm`); `gpu-run --emit-executable PROG` writes one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from gpuir.dialects import gpu, mem
from gpuir.dialects.mem import GLOBAL, HOST, ArrayType, MemType, PtrType
from gpuir.ir.diagnostics import describe_op
from gpuir.ir.source import ParsedChunk, locate, op_text, quoted
from gpuir.runtime import structs
from gpuir.runtime.compiled_host import compile_host
from gpuir.runtime.cpu.compiled import CompiledKernel
from gpuir.runtime.memory import size_of
from gpuir.runtime.native import key as native_key
from gpuir.runtime.scalars import float_dtype, int_width
from gpuir.runtime.session import scalar_params, split_modules

HERE = Path(__file__).resolve().parent
RUNTIME_SOURCES = ("gpuir_cpu.c", "native.h")
CC_FLAGS = ("-O2", "-std=gnu11", "-fno-pie")
LINK_FLAGS = ("-no-pie", "-lpthread", "-lm")
KINDS: tuple[tuple[type[Operation] | tuple[type[Operation], ...], str], ...] = (
    ((gpu.InitOp, gpu.AutoInitOp), "GN_INIT"),
    ((gpu.DeinitOp, gpu.AutoDeinitOp), "GN_DEINIT"),
    (gpu.StreamInitOp, "GN_STREAM_CREATE"),
    (gpu.StreamSyncOp, "GN_STREAM_SYNC"),
    (gpu.StreamDeinitOp, "GN_STREAM_DESTROY"),
    ((gpu.CopyToDeviceBlockOp, gpu.CopyToDeviceAsynOp), "GN_COPY_TO_DEVICE"),
    ((gpu.CopyToHostBlockOp, gpu.CopyToHostAsynOp), "GN_COPY_TO_HOST"),
    (gpu.LaunchOp, "GN_LAUNCH"),
)
"""The ops whose kind does not depend on an address space (allocations and frees do)."""


PRINT_FIELD = 512
"""The widest field width and precision of a printf conversion in a native executable (the C
runtime formats a value into a buffer of 2048 bytes)."""


class NotNative(Exception):
    """Why a program cannot become a native executable."""


def compiler() -> str | None:
    """The C compiler: `$CC`, else `cc`; None where there is none."""
    return shutil.which(os.environ.get("CC", "cc"))


# --- the tables ----------------------------------------------------------------------------------


def c_string(text: str) -> str:
    """`text` as a C string literal (UTF-8; anything but printable ASCII as an octal escape,
    which, unlike a hex one, cannot run into the next character)."""
    return quoted(text, "\\{:03o}".format)


def scalar(type_: Attribute, what: str) -> str:
    """A scalar of `@main`'s signature as `native.h`'s `gn_scalar`."""
    width = int_width(type_)
    if width is not None and width <= 64:
        return f"{{'i', {width}, {c_string(str(type_))}}}"
    dtype = float_dtype(type_)
    if dtype is not None:
        return f"{{'f', {dtype(0).itemsize * 8}, {c_string(str(type_))}}}"
    raise NotNative(f"@main {what} a value of type {type_}")


def param_kind(type_: Attribute, kernel: str) -> str:
    if isinstance(type_, PtrType):
        space = type_.space.data
        if space not in (GLOBAL, HOST):
            raise NotNative(f"@{kernel} takes a pointer to address space {space}")
        return "g" if space == GLOBAL else "h"
    if structs.is_struct(type_):
        raise NotNative(f"@{kernel} takes a struct")
    if int_width(type_) == 1:
        return "b"
    if int_width(type_) is None and float_dtype(type_) is None:
        raise NotNative(f"@{kernel} takes a value of type {type_}")
    return "v"


def op_kind(op: Operation) -> str:
    for classes, kind in KINDS:
        if isinstance(op, classes):
            return kind
    if isinstance(op, gpu.AllocBlockOp | gpu.AllocAsynOp):
        return "GN_ALLOC"
    if isinstance(op, gpu.FreeBlockOp | gpu.FreeAsynOp):
        return "GN_FREE"
    if isinstance(op, mem.AllocOp | mem.MallocOp | mem.FreeOp):
        ptr = op.results[-1].type if not isinstance(op, mem.FreeOp) else op.operands[1].type
        assert isinstance(ptr, PtrType)
        host = ptr.space.data == HOST
        if isinstance(op, mem.FreeOp):
            return "GN_HOST_FREE" if host else "GN_FREE"
        return "GN_HOST_ALLOC" if host else "GN_ALLOC"
    raise NotNative(f"'{op.name}' is not part of native executables")


def located(op: Operation, parsed: ParsedChunk) -> tuple[str, str]:
    """gpu-run's diagnostic at `op`, around its message: its location, and its source line with
    the caret (or "")."""
    at, source = locate(op, parsed, "error", "\x00").split(": error: \x00")
    return at, source


def op_entry(
    op: Operation, kernels: dict[str, int], kernel_params: dict[str, tuple], parsed: ParsedChunk
) -> str:
    """`gn_op` for a host op that calls the runtime."""
    from gpuir.passes.device_code import launched_name

    kind = op_kind(op)
    kernel, size, src_space, dst_space = 0, 0, 0, 0
    if kind in ("GN_COPY_TO_DEVICE", "GN_COPY_TO_HOST"):
        source, target = op.operands[2].type, op.operands[3].type
        assert isinstance(source, PtrType) and isinstance(target, PtrType)
        pointee = source.pointee
        if isinstance(pointee, ArrayType) and pointee.is_dynamic:
            size = -max(size_of(pointee.element_type), 1)
        else:
            size = size_of(pointee)
        src_space, dst_space = source.space.data, target.space.data
    elif kind == "GN_LAUNCH":
        assert isinstance(op, gpu.LaunchOp)
        name = launched_name(op.kernel)
        if name not in kernels:
            raise NotNative(f"the device module has no kernel @{name}")
        if tuple(op.args.types) != kernel_params[name]:
            raise NotNative(f"a launch of @{name} passes other types than it takes")
        kernel = kernels[name]
        if isinstance(op.smem, ArrayType):
            size = max(size_of(op.smem.element_type), 1)
    at, source = located(op, parsed)
    texts = (at, source, op_text(op), describe_op(op))
    return (
        f"{{{kind}, {kernel}, {size}, {src_space}, {dst_space}, "
        f"{', '.join(c_string(t) for t in texts)}}}"
    )


def tables(
    main: FuncOp,
    ops: list[Operation],
    kernels: list[tuple[str, str, CompiledKernel]],
    parsed: ParsedChunk,
    formats: list,
    device: ModuleOp | None = None,
) -> str:
    """The C source of `native.h`'s tables. `kernels`: per kernel its name, launch entry and
    compiled code (shared bytes, parameter types, the resumable form's barriers); `formats`:
    the kernels' print calls; `device`: the device module, where the barriers' ops are."""
    from gpuir.runtime.cpu.errors import barrier_op, describe_barrier

    index = {name: i for i, (name, *_) in enumerate(kernels)}
    params_of = {name: tuple(code.params) for name, _, code in kernels}
    lines = ['#include "native.h"', ""]
    sites: list[str] = []
    rows = []
    for i, (name, entry, code) in enumerate(kernels):
        lines.append(
            f"extern void {entry}(int64_t, int64_t, int64_t, void *, void *, void *, void *);"
        )
        barriers = []
        for number, (barrier, *_) in enumerate(code.barriers, 1):
            op = barrier_op(code, number, device)
            site = -1
            if op is not None:
                site = len(sites)
                texts = (*located(op, parsed), op_text(op), op.name)
                sites.append(f"{{{', '.join(c_string(t) for t in texts)}}}")
            words = describe_barrier(code, number)
            barriers.append(f"{{{c_string(barrier)}, {c_string(words)}, {site}}}")
        lines.append(
            f"static const gn_barrier barriers_{i}[] = {{{', '.join(barriers) or '{0}'}}};"
        )
        kinds = "".join(param_kind(p, name) for p in code.params)
        state = -1 if code.resume_state is None else code.resume_state
        rows.append(
            f"{{{c_string(name)}, {entry}, {code.shared_bytes}, {len(code.params)}, "
            f"{c_string(kinds)}, {state}, {len(barriers)}, barriers_{i}}}"
        )
    inputs = [scalar(t, "takes") for t in scalar_params(main)]
    outputs = [
        scalar(t, "returns") for t in main.function_type.outputs.data if not isinstance(t, MemType)
    ]
    op_rows = [op_entry(op, index, params_of, parsed) for op in ops]

    def array(type_: str, name: str, items: list[str]) -> None:
        body = ",\n    ".join(items) if items else "{0}"
        lines.append(f"const {type_} {name}[] = {{\n    {body}\n}};")
        lines.append(f"const int32_t {name.replace('gn_', 'gn_n_', 1)} = {len(items)};")

    array("gn_site", "gn_sites", sites)
    array("gn_kernel", "gn_kernels", rows)
    array("gn_op", "gn_ops", op_rows)
    array("gn_scalar", "gn_params", inputs)
    array("gn_scalar", "gn_results", outputs)
    declarations, rows = format_rows(formats)
    lines.extend(declarations)
    array("gn_format", "gn_formats", rows)
    lines.append(f"const char gn_program[] = {c_string(parsed.name)};")
    main_at, main_source = located(main, parsed)
    lines.append(f"const char gn_main_where[] = {c_string(main_at)};")
    lines.append(f"const char gn_main_source[] = {c_string(main_source)};")
    names = ", ".join(str(t) for t in scalar_params(main)) or "none"
    lines.append(f"const char gn_param_types[] = {c_string(names)};")
    return "\n".join(lines) + "\n"


# --- the objects ---------------------------------------------------------------------------------


def device_objects(device: ModuleOp, index_bitwidth: int) -> tuple[list, bytes, list]:
    """The kernels of the device module as `tables` takes them, their object code (the cpu
    provider's: compiled here unless this process or the compile cache has it) and their print
    calls (`device_print.Format`s; none where they do not print)."""
    from gpuir.dialects.gpu.mma import MMA_OPS
    from gpuir.lowering.cpu.cpu_llvm import LAUNCH_PREFIX
    from gpuir.runtime.cpu.compiled import compile_module

    if any(isinstance(op, MMA_OPS) for op in device.walk()):
        raise NotNative(
            "matrix ops (gpu.mma_*) run for whole warps only, and a partial warp needs interp"
        )
    compiled = compile_module(device, index_bitwidth)
    if compiled.module_error is not None or compiled.errors:
        raise NotNative("a kernel did not compile")
    if not compiled.kernels:
        return [], b"", []
    if compiled.code is None:
        raise NotNative("the kernels' object code is not at hand")
    kernels = [(name, LAUNCH_PREFIX + name, code) for name, code in compiled.kernels.items()]
    formats = compiled.prints.formats if compiled.prints is not None else []
    return kernels, compiled.code, formats


def format_rows(formats: list) -> tuple[list[str], list[str]]:
    """The `gn_format`s of the print calls, and the arrays of their types and pieces that go
    before them."""
    from gpuir.dialects.gpu.printf import format_fields

    kinds = {"format": "GN_PRINT_FORMAT", "int": "GN_PRINT_INT", "char": "GN_PRINT_CHAR"}
    lines, rows = [], []
    for i, entry in enumerate(formats):
        types = [scalar(t, "prints") for t in entry.types] or ["{0}"]
        pieces = []
        if entry.kind == "format":
            for literal, field, index, spec in format_fields(entry.text):
                value = index if field is not None else -1
                form, bits = c_printf_format(spec) if spec else ("0", 0)
                pieces.append(f"{{{c_string(literal)}, {value}, {form}, {bits}}}")
        lines.append(f"static const gn_scalar types_{i}[] = {{{', '.join(types)}}};")
        lines.append(f"static const gn_piece pieces_{i}[] = {{{', '.join(pieces) or '{0}'}}};")
        rows.append(
            f"{{{kinds[entry.kind]}, {len(entry.types)}, types_{i}, {len(pieces)}, pieces_{i}}}"
        )
    return lines, rows


def c_printf_format(spec: str) -> tuple[str, int]:
    """A value's C conversion (a `gpu.CSpec`) as the runtime's printf format of one value, a C
    string (`"%08llx"`: an integer's argument is 64 bits there, a float's a double), and the
    bits of the integer argument it stands for."""
    from gpuir.dialects.gpu import CSpec

    try:
        parsed = CSpec.parse(spec)
    except ValueError as e:
        raise NotNative(f"a kernel prints with the conversion '{spec}': {e}") from None
    if parsed.width > PRINT_FIELD or (parsed.precision or 0) > PRINT_FIELD:
        raise NotNative(f"a kernel prints with the conversion '%{spec}', wider than {PRINT_FIELD}")
    precision = "" if parsed.precision is None else f".{parsed.precision}"
    length = "ll" if parsed.conversion in "diouxX" else ""
    form = f"%{parsed.flags}{parsed.width or ''}{precision}{length}{parsed.conversion}"
    return c_string(form), parsed.bits if parsed.conversion not in "fFeEgG" else 0


def runtime_object(cc: str) -> Path:
    """The C runtime's object, compiled once per source and compiler into the cache."""
    digest = hashlib.sha256(cc.encode())
    for name in RUNTIME_SOURCES:
        digest.update((HERE / name).read_bytes())
    folder = Path(native_key.cache_dir())
    path = folder / f"native-runtime-{digest.hexdigest()[:32]}.o"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    handle, scratch = tempfile.mkstemp(dir=folder, prefix=".native-runtime-", suffix=".o")
    os.close(handle)
    try:
        run([cc, *CC_FLAGS, "-c", str(HERE / "gpuir_cpu.c"), "-o", scratch])
        os.replace(scratch, path)
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    return path


def run(command: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["(no message)"])[0]
        raise NotNative(f"{Path(command[0]).name} failed: {first}")


def build(parsed: ParsedChunk, path: str | os.PathLike, index_bitwidth: int = 64) -> None:
    """Link the program `parsed` (after the default pipeline) into the executable `path`
    (written whole or not at all); its diagnostics are gpu-run's. `NotNative` says why not."""
    cc = compiler()
    if cc is None:
        raise NotNative("there is no C compiler (cc, or $CC)")
    if shutil.which("objcopy") is None:
        raise NotNative("there is no objcopy")
    parsed.set_locations()
    program = parsed.module
    ops = list(program.walk())
    if any(isinstance(op, gpu.StreamInitOp | gpu.WithStreamsOp) for op in ops) and any(
        isinstance(op, mem.AtomicRmwOp | mem.CmpxchgOp) for op in ops
    ):
        raise NotNative(
            "a program that makes streams has atomics, with which its kernels may wait for each "
            "other: the C runtime runs streams one after another, not at once"
        )
    host = compile_host(program)
    if host.code is None:
        raise NotNative("the host's object code is not at hand")
    if "main" not in host.functions:
        raise NotNative("the program has no @main")
    _, device = split_modules(program)
    kernels, kernel_code, formats = [], b"", []
    if any(isinstance(op, gpu.LaunchOp) for op in host.ops):  # else nothing to compile
        kernels, kernel_code, formats = device_objects(device, index_bitwidth)
    source = tables(host.functions["main"], host.ops, kernels, parsed, formats, device)
    runtime = runtime_object(cc)
    target = Path(path)
    with tempfile.TemporaryDirectory(prefix="gpuir-native-") as scratch:
        work = Path(scratch)
        (work / "tables.c").write_text(source)
        objects = ["tables.c", str(runtime)]  # relative: the executable names no scratch path
        for name, code, keep in (
            ("host.o", host.code, "__gpuir_*"),
            ("kernels.o", kernel_code, "__gpuir_launch_*,__gpuir_print_*"),
        ):
            if not code:
                continue
            (work / name).write_bytes(code)
            # only the symbols the runtime uses stay global: a host function or kernel named
            # like a C library function (`main`, `free`) cannot clash with it
            kept = [f"--keep-global-symbol={symbol}" for symbol in keep.split(",")]
            run(["objcopy", "--wildcard", *kept, name], work)
            objects.append(name)
        linked = work / "prog"
        run([cc, *CC_FLAGS, f"-I{HERE}", *objects, "-o", "prog", *LINK_FLAGS], work)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-")
        os.close(handle)
        try:
            shutil.copyfile(linked, temporary)
            os.chmod(temporary, 0o755)
            os.replace(temporary, target)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)


def cache_executable(parsed: ParsedChunk, key: str, index_bitwidth: int) -> bool:
    """Keep the executable of the program `parsed` in the cache under `key`
    (`gpuir.runtime.native.key`), with its record (its SHA-256); False where it cannot be one
    or cannot be written."""
    exe, record = native_key.paths(key)
    try:
        build(parsed, exe, index_bitwidth)
        digest = hashlib.sha256(Path(exe).read_bytes()).hexdigest()
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(record), prefix=".native-")
        with os.fdopen(handle, "w") as out:
            json.dump({"sha256": digest}, out)
        os.replace(temporary, record)
    except (NotNative, OSError):
        return False
    except Exception:  # noqa: BLE001  # a kept executable only saves time: never fail the run
        return False
    return True
