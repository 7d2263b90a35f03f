"""gpu-run: compile a program with the default pipeline and run its `@main` on a provider.

    gpu-run FILE [--provider auto|cuda|cpu|interp] [--check] [ARGS...]

Parses and verifies FILE (`-`: stdin), runs the default pipeline (`gpu-pipeline`; `-p` replaces
it), then calls `@main`, whose signature is `(!mem.M<0>, scalars...) -> (!mem.M<0>,
scalars...)`: each ARG is read as the type of the matching parameter (integers of any width, `index`, `f16`/`f32`/`f64`;
integers also in hex, negative numbers as they are), and each result is printed on its own line:
integers in decimal, floats as the shortest text that reads back to the same value of their
type (`str(numpy.float32(v))`). `printf.print_format` and `buffer.print` write to stdout in
program order; warnings and diagnostics go to stderr. Any failure (an unreadable file, a parse,
verifier or pass error, a bad argument, a provider error such as `interp`'s `out of bounds`,
`use after free`, `race`, `barrier divergence`) is a diagnostic on stderr and exit status 1,
never a Python traceback.

Providers: `interp` (the reference interpreter, with memory, race and barrier checks), `cpu`,
`cuda`; `auto` picks `cuda` where PyCUDA and a device are present, otherwise `cpu`, otherwise
`interp` (`gpuir.runtime.AUTO_ORDER`).

Flags:
- the pass manager's, as gpu-opt's (`gpuir.tools.pass_flags`): `--mlir-print-ir-after-all`
  (and `--print-ir-after-all`), `--mlir-print-ir-before=PASS`, `--mlir-timing`,
  `--mlir-pass-statistics`, `--mlir-pass-pipeline-crash-reproducer=FILE`, …; they see every
  stage, the provider's own lowering (device and host code) included;
- `--time`: the time of each phase (parse, compile, run), to stderr;
- `-p PIPELINE`: run this pass pipeline instead of the default one (gpu-opt's syntax);
- `--upstream-pass=PASS`: run this upstream MLIR pass on an upstream program before importing
  it, as `mlir-opt -PASS` would (`convert-vector-to-gpu`; `gpuir.ir.upstream.PASSES`);
- `--interpret-host`: run `@host` on the interpreter (as `interp` always does) instead of as
  machine code (what `cpu` and `cuda` do by default; `gpuir.runtime.compiled_host`);
- `--index-bitwidth 32`: the compiled providers (`cpu`, `cuda`) lower device code with 32-bit
  index values (`device-to-llvm{index-bitwidth=32}`; the kernel ABI is the same).

Debug knobs: `GPUIR_DEBUG=1` shows the Python traceback behind a diagnostic or internal error.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.utils.exceptions import (
    DiagnosticException,
    VerifyException,
)

from gpuir import __version__
from gpuir.ir.diagnostics import OpWarning
from gpuir.ir.pass_manager import Execution, PassManager, failure_of
from gpuir.ir.pass_manager import Timer as PhaseTimer
from gpuir.ir.reader import parse_program
from gpuir.ir.source import (
    Chunk,
    ParsedChunk,
    SourceError,
    decode_utf8,
    format_diagnostic,
    is_blank,
    locate,
)
from gpuir.ir.verifier import verify_input, verify_ops
from gpuir.runtime import ProviderUnavailable, get_provider, provider_names, resolve
from gpuir.runtime.provider import Provider
from gpuir.tools.common import (
    STDIN,
    STDIN_NAME,
    add_upstream_pass,
    debugging,
    exit_status,
    report,
    show_warning,
)
from gpuir.tools.pass_flags import FlagError, Instruments, instruments, pipeline_from
from gpuir.tools.pass_flags import add_arguments as add_pass_manager_arguments

PROG = "gpu-run"


class GpuRunError(Exception):
    """A user error, already worded as the diagnostic that gpu-run prints."""


@dataclass
class Options:
    file: str
    args: list[str]
    provider: str = "auto"
    pipeline: str | None = None
    pass_flags: argparse.Namespace | None = None
    """The pass manager's flags (`gpuir.tools.pass_flags`): IR printing, reproducers, …"""
    time: bool = False
    index_bitwidth: int | None = None
    interpret_host: bool = False
    plugins: list[str] = field(default_factory=list[str])
    check: bool = False
    upstream: bool = False
    upstream_passes: list[str] = field(default_factory=list[str])
    """The upstream passes to run before the import (`--upstream-pass`)."""
    argv: list[str] = field(default_factory=list[str])
    """The command line, for the warm path (`gpuir.tools.warm`)."""
    emit_executable: str | None = None


@dataclass
class Timer:
    """Phase times for `--time`."""

    enabled: bool
    phases: list[tuple[str, float]] = field(default_factory=list[tuple[str, float]])
    start: float = field(default_factory=time.perf_counter)

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.phases.append((phase, now - self.start))
        self.start = now

    def report(self, provider: str) -> None:
        if not self.enabled:
            return
        for phase, seconds in self.phases:
            print(f"{PROG}: time: {phase:<8} {seconds * 1000:9.1f} ms", file=sys.stderr)
        total = sum(seconds for _, seconds in self.phases)
        print(f"{PROG}: time: {'total':<8} {total * 1000:9.1f} ms ({provider})", file=sys.stderr)


# --- the command line ----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Compile a gpuir program with the default pipeline and run its @main.",
    )
    parser.add_argument(
        "file", metavar="FILE", help="the program (MLIR text); - reads it from stdin"
    )
    parser.add_argument(
        "args", nargs="*", metavar="ARGS", help="@main's arguments, one per scalar parameter"
    )
    parser.add_argument(
        "--provider",
        default="auto",
        choices=provider_names(),
        help="where to run (default: auto: cuda, else cpu, else interp)",
    )
    parser.add_argument(
        "-p",
        "--passes",
        dest="pipeline",
        metavar="PIPELINE",
        help="a pass pipeline to run instead of the default one (gpu-pipeline)",
    )
    add_pass_manager_arguments(parser, verify_flag=True)
    parser.add_argument(
        "--time", action="store_true", help="print the time of each phase to stderr"
    )
    parser.add_argument(
        "--index-bitwidth",
        type=int,
        choices=(32, 64),
        help="index values in device code on the cpu and cuda providers (default: 64)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="cpu: check every access of the kernels (bounds, use after free, races), in "
        "interp's words",
    )
    parser.add_argument(
        "--upstream",
        action="store_true",
        help="read FILE as upstream MLIR (gpu.module, gpu.launch, memref; found by itself "
        "otherwise) and import it into gpuir's dialects",
    )
    add_upstream_pass(parser)
    parser.add_argument(
        "--interpret-host",
        action="store_true",
        help="run @host on the interpreter instead of compiling it (cpu and cuda compile it)",
    )
    parser.add_argument(
        "--emit-executable",
        metavar="PROG",
        help="cpu: link the program, its kernels and the C runtime into the native executable "
        "PROG, which runs without Python (docs/native.md), instead of running it",
    )
    parser.add_argument(
        "--load-pass-plugin",
        dest="plugins",
        action="append",
        default=[],
        metavar="FILE.py|MODULE",
        help="load the passes and dialects of a plugin (gpuir.ir.plugins; also $GPUIR_PLUGINS)",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} (gpuir)")
    return parser


def looks_numeric(token: str) -> bool:
    """Whether a token that starts with '-' is a (negative) number rather than an option."""
    text = token.strip()
    for attempt in (float, partial(int, base=0), float.fromhex):
        try:
            attempt(text)
            return True
        except ValueError:
            continue
    return False


def parse_args(argv: Sequence[str]) -> Options:
    """The command line as `Options`; negative numbers (`-3`, `-1e5`, `-inf`) are arguments,
    not options."""
    hidden: dict[str, str] = {}
    tokens: list[str] = []
    for i, token in enumerate(argv):
        if token == "--":
            tokens.extend(argv[i:])
            break
        if token.startswith("-") and len(token) > 1 and looks_numeric(token):
            key = f"\x00{len(hidden)}"
            hidden[key] = token
            token = key
        tokens.append(token)
    namespace = build_parser().parse_intermixed_args(tokens)
    return Options(
        file=hidden.get(namespace.file, namespace.file),
        args=[hidden.get(a, a) for a in namespace.args],
        provider=namespace.provider,
        pipeline=namespace.pipeline,
        pass_flags=namespace,
        time=namespace.time,
        index_bitwidth=namespace.index_bitwidth,
        interpret_host=namespace.interpret_host,
        plugins=namespace.plugins,
        check=namespace.check,
        upstream=namespace.upstream,
        upstream_passes=namespace.upstream_passes,
        argv=list(argv),
        emit_executable=namespace.emit_executable,
    )


# --- compiling -----------------------------------------------------------------------------------


def read_program(path: str, upstream: bool = False, passes: Sequence[str] = ()) -> ParsedChunk:
    """Read and parse FILE, or stdin for `-` (with locations), upstream MLIR after its upstream
    `passes`; a user error is a `GpuRunError`."""
    if path == STDIN:
        data, path = sys.stdin.buffer.read(), STDIN_NAME
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise GpuRunError(f"{PROG}: error: cannot read '{path}': {e.strerror}") from e

    chunk = Chunk(data, 0)
    try:
        text = decode_utf8(chunk, path)
    except SourceError as e:
        raise GpuRunError(str(e)) from e
    if is_blank(text, path):
        return ParsedChunk(ModuleOp([]), path, text, 0, {})
    try:
        return parse_program(text, path, upstream, passes)
    except SourceError as e:
        raise GpuRunError(str(e)) from e


def pipeline(spec: str | None) -> PassManager:
    """The default pipeline (`gpu-pipeline`), or that of `-p PIPELINE`."""
    from gpuir.ir.pass_manager import PipelineError, UnknownPass

    try:
        return pipeline_from(spec)
    except UnknownPass as e:
        raise GpuRunError(f"{PROG}: error: {e}") from None
    except PipelineError as e:
        raise GpuRunError(f"{PROG}: error: bad pass pipeline '{spec}': {e}") from None


def compile_program(
    parsed: ParsedChunk, pm: PassManager, instruments: Instruments, execution: Execution
) -> None:
    """Verify, run the pipeline (with `execution`'s instrumentation, each pass's result
    verified), verify again."""
    from gpuir.dialects import make_context

    ctx = make_context()
    module = parsed.module
    verify_ops(module)
    verify_input(module)
    if instruments.reproducer is not None:
        instruments.reproducer.start(pm, module)
    execution.run(ctx, module, pm)
    try:
        module.verify()
    except VerifyException as e:
        setattr(e, PIPELINE_RESULT, True)
        raise


PIPELINE_RESULT = "gpuir_pipeline_result"
"""Set on the `VerifyException` of the pipeline's result (verified once, at the end)."""


def verify_each(options: Options) -> bool:
    """Whether to verify after each pass: asked for (`--mlir-verify-each`), or implied by a
    flag that debugs the pipeline (printing IR, a crash reproducer). Otherwise the result is
    verified once, at the end: xDSL's verifier costs about 20 ms a pass on a small program."""
    flags = options.pass_flags
    if flags is None:
        return False
    return bool(
        flags.mlir_verify_each
        or flags.mlir_pass_pipeline_crash_reproducer
        or flags.mlir_print_ir_after_all
        or flags.mlir_print_ir_before_all
        or flags.mlir_print_ir_after
        or flags.mlir_print_ir_before
        or flags.mlir_print_ir_after_failure
    )


def failure_text(error: DiagnosticException, parsed: ParsedChunk, instruments: Instruments) -> str:
    """The diagnostic of a pass's failure, with gpu-opt's notes: the pass whose result does
    not verify, the reproducer written."""
    text = diagnostic(error, parsed)
    failure = failure_of(error)
    if failure is not None and failure.invalid_result:
        text += f"\nnote: the IR that pass '{failure.pass_.name}' produced does not verify"
    elif isinstance(error, VerifyException) and getattr(error, PIPELINE_RESULT, False):
        text += (
            "\nnote: the IR that the pipeline produced does not verify (--mlir-verify-each "
            "names the pass)"
        )
    reproducer = instruments.reproducer
    if reproducer is not None and reproducer.note is not None:
        text += f"\nnote: {reproducer.note}"
    return text


# --- running -------------------------------------------------------------------------------------


def read_arguments(texts: Sequence[str], types: Sequence[Attribute], name: str) -> list[object]:
    """The command-line ARGS as values of `@name`'s scalar parameters."""
    from gpuir.runtime.scalars import parse_arguments

    try:
        return parse_arguments(texts, types, name)
    except ValueError as e:
        raise GpuRunError(f"{PROG}: error: {e}") from None


def format_results(results: Sequence[tuple[object, Attribute]]) -> str:
    from gpuir.runtime.scalars import format_value

    return "".join(f"{format_value(value, type_)}\n" for value, type_ in results)


def execute(
    parsed: ParsedChunk, provider: Provider, args: Sequence[str], timer: Timer, interpret: bool
) -> tuple[str, bool]:
    """Run `@main` (its host code compiled, unless `interpret` or the provider is `interp`);
    its results as gpu-run prints them, and whether its host code was compiled before (in the
    compile cache)."""
    from gpuir.runtime.executors import make_executor
    from gpuir.runtime.session import check_entry, scalar_params

    executor = make_executor(parsed.module, provider, compiled=not interpret)
    if executor.compiled:
        timer.lap("jit")
    if "main" not in executor.functions:
        raise GpuRunError(f"{parsed.name}: error: the program has no function @main to run")
    main = executor.function("main")
    check_entry(main)
    try:
        values = read_arguments(args, scalar_params(main), "main")
    except GpuRunError as e:  # at @main's definition, which says what it takes
        parsed.set_locations()
        message = str(e).removeprefix(f"{PROG}: error: ")
        raise GpuRunError(locate(main, parsed, "error", message)) from None
    results = executor.run_main(values)
    sys.stdout.flush()
    timer.lap("run")
    program = getattr(executor, "program", None)
    return format_results(results), bool(getattr(program, "cached", False))


def emit_executable(parsed: ParsedChunk, provider: Provider, path: str) -> None:
    """`--emit-executable PATH`: the compiled program as a native executable."""
    from gpuir.runtime.native.build import NotNative, build

    if provider.name != "cpu":
        raise GpuRunError(
            f"{PROG}: error: --emit-executable links for the cpu provider, not for {provider.name}"
        )
    if getattr(provider, "check", False):
        raise GpuRunError(f"{PROG}: error: --emit-executable links unchecked kernels, not --check")
    try:
        build(parsed, path, getattr(provider, "index_bitwidth", 64))
    except NotNative as e:
        message = f"{PROG}: error: cannot make a native executable of {parsed.name}: {e}"
        raise GpuRunError(message) from None
    except OSError as e:
        raise GpuRunError(f"{PROG}: error: cannot write '{path}': {e.strerror}") from None


def diagnostic(error: DiagnosticException, parsed: ParsedChunk) -> str:
    """The error at its op, with a note at each op it refers to."""
    return format_diagnostic(error, parsed)


def run(options: Options) -> int:
    timer = Timer(options.time)
    from gpuir.ir.plugins import PluginError, load_plugins

    try:
        load_plugins(options.plugins)
    except PluginError as e:
        raise GpuRunError(f"{PROG}: error: {e}") from e
    try:
        name = resolve(options.provider)
        if options.check and name != "cpu":
            raise GpuRunError(
                f"{PROG}: error: --check is an option of the cpu provider, not of {name} "
                "(interp checks every access anyway)"
            )
        provider = get_provider(name, check=True) if options.check else get_provider(name)
    except ProviderUnavailable as e:
        raise GpuRunError(f"{PROG}: error: {e}") from e
    if options.index_bitwidth is not None:
        if not hasattr(provider, "index_bitwidth"):
            raise GpuRunError(
                f"{PROG}: error: --index-bitwidth is an option of the compiled providers "
                f"(cpu, cuda), not of {name}"
            )
        provider.index_bitwidth = options.index_bitwidth  # type: ignore[attr-defined]
    pm = pipeline(options.pipeline)
    instruments = pass_instruments(options)
    timer.lap("setup")
    phase = PhaseTimer()
    parsed = read_program(options.file, options.upstream, options.upstream_passes)
    timer.lap("parse")
    if instruments.timing is not None:
        instruments.timing.add("Parser", *phase.elapsed())
    warned: list[object] = []

    def warn(*args: object, **kwargs: object) -> None:
        warned.append(args[0])
        show_warning(PROG, parsed, *args, **kwargs)  # type: ignore[arg-type]

    with warnings.catch_warnings():
        warnings.simplefilter("always", OpWarning)
        warnings.showwarning = warn
        try:
            execution = Execution(instruments.all(), verify_each=verify_each(options))
            compile_program(parsed, pm, instruments, execution)
            timer.lap("compile")
            if options.emit_executable is not None:
                emit_executable(parsed, provider, options.emit_executable)
                return 0
            with execution.section("Execution"):  # the provider's lowering is instrumented too
                output, compiled_before = execute(
                    parsed, provider, options.args, timer, options.interpret_host
                )
        except DiagnosticException as e:
            sys.stdout.flush()
            report(failure_text(e, parsed, instruments), e)
            return 1
        except Exception as e:
            failure = failure_of(e)
            if failure is None:
                raise
            sys.stdout.flush()
            first_line = (str(e).strip().splitlines() or [""])[0]
            report(
                f"{PROG}: internal error in pass '{failure.pass_.name}': {type(e).__name__}: {first_line}"
            )
            if instruments.reproducer is not None and instruments.reproducer.note is not None:
                report(f"{PROG}: note: {instruments.reproducer.note}")
            if debugging():
                raise
            report(f"{PROG}: note: set GPUIR_DEBUG=1 to see the Python traceback")
            return 1
    sys.stdout.write(output)
    sys.stdout.flush()
    if compiled_before and not warned and name == "cpu" and parsed.text is not None:
        from gpuir.tools import warm

        bitwidth = getattr(provider, "index_bitwidth", 64)
        warm.keep(options.argv, parsed.text.encode(), parsed, bitwidth)
    timer.report(name)
    if instruments.statistics is not None:
        print(instruments.statistics.report(), file=sys.stderr)
    if instruments.timing is not None:
        print(instruments.timing.report(), file=sys.stderr)
    return 0


def pass_instruments(options: Options) -> Instruments:
    """The instrumentation `options.pass_flags` asks for; a flag that names an unknown pass
    is a `GpuRunError`."""
    if options.pass_flags is None:
        return Instruments()
    from gpuir.ir.registry import pass_table

    try:
        return instruments(options.pass_flags, pass_table())
    except FlagError as e:
        raise GpuRunError(f"{PROG}: error: {e}") from e


def main(argv: Sequence[str] | None = None) -> int:
    """gpu-run: run on `argv` (default: the command line) and return the exit status."""

    def run_options() -> int:
        try:
            return run(parse_args(sys.argv[1:] if argv is None else list(argv)))
        except GpuRunError as e:
            sys.stdout.flush()
            report(str(e), e)
            return 1

    return exit_status(PROG, run_options)


if __name__ == "__main__":
    sys.exit(main())
