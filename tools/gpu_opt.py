"""gpu-opt: gpuir's optimizer driver, xdsl-opt with our dialects and passes.

It takes every xdsl-opt flag (`gpu-opt --help`) and knows xDSL's dialects, passes and targets
plus gpuir's (`gpuir.dialects.make_context()`, `gpuir.passes.get_all_passes()`). Ours win a
name clash: `gpu` is gpuir's dialect, not xDSL's.

Its pass manager is mlir-opt's (`gpuir.ir.pass_manager`): nested pipelines (`-p` or
`--pass-pipeline`), instrumentation that sees the stages of composite passes
(`--mlir-print-ir-*`, `--mlir-timing`, `--mlir-pass-statistics`, crash reproducers:
`gpuir.tools.pass_flags`, `docs/debugging-passes.md`), `--dump-pass-pipeline`,
`--run-reproducer`.

Where it departs from xdsl-opt:
- A user error (unreadable input, a parse or verifier error, a pass's `OpError`, a bad pass
  pipeline or target) is a diagnostic on stderr and exit status 1, never a Python traceback.
  Errors at an op read `file:line:col: error: message`, then the source line, a caret and the
  op; an `OpWarning` reads the same with `warning:`. Something xDSL or a pass does not support
  (`NotImplementedError`, e.g. `-t llvm` on `func`) is `gpu-opt: error: not supported: ...`.
  Any other exception is a bug: one line `gpu-opt: internal error: ...` (naming the pass it
  came from) and a hint to set `GPUIR_DEBUG=1`.
- Every parsed op gets the location of its first token (`loc("file":line:col)`, as in MLIR;
  xDSL's parser keeps only explicit ones) once something reads locations: passes (which may
  clone ops), `--print-debuginfo`, a target other than MLIR, a diagnostic.
- An input whose extension names no frontend (or that has none) is read as MLIR text.
- An input without any operation (empty, or only comments) is an empty module, as in mlir-opt.
- `--split-input-file` goes on after a failing chunk, so every chunk's error is reported.
- `-o FILE` is written only when the whole run succeeds, atomically (a temporary file in the
  same folder, then `os.replace`); on failure an existing FILE stays untouched.
- `--verify-diagnostics` has mlir-opt's semantics (`gpuir.tools.verify_diagnostics`): every
  diagnostic must be expected by an `expected-error` (…) annotation, every annotation
  matched, or the run fails; a chunk without annotations expects no diagnostic.
  `--parsing-diagnostics` behaves as in xdsl-opt (a parse error goes to stdout, the exit
  status is 0).

Debug knobs:

| variable        | effect                                                                    |
| --------------- | ------------------------------------------------------------------------- |
| `GPUIR_DEBUG=1` | an internal error raises with its Python traceback, and each diagnostic   |
|                 | is followed by the traceback of the exception behind it                   |
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from io import BytesIO, StringIO
from itertools import accumulate
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    ShrinkException,
)
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

import gpuir.lowering  # noqa: F401  # its passes and targets join the registry
from gpuir import __version__
from gpuir.dialects import make_context, xdsl_universe
from gpuir.ir.pass_manager import (
    Execution,
    Failure,
    PassManager,
    PipelineError,
    Timer,
    UnknownPass,
    expanded,
    failure_of,
    parse_pass_pipeline,
)
from gpuir.ir.registry import all_passes, all_targets, pass_groups, register_target_group
from gpuir.ir.source import (
    Chunk,
    ParsedChunk,
    SourceError,
    decode_utf8,
    format_diagnostic,
    format_parse_error,
    is_blank,
    parse_module,
)
from gpuir.ir.verifier import verify_input, verify_ops
from gpuir.tools.common import (
    STDIN,
    STDIN_NAME,
    add_upstream_pass,
    capture_target,
    capturing,
    exit_status,
    report,
    show_warning,
)
from gpuir.tools.pass_flags import FlagError, Instruments, instruments
from gpuir.tools.pass_flags import add_arguments as add_pass_manager_arguments

if TYPE_CHECKING:
    from gpuir.ir.instrumentation import Reproducer
    from gpuir.tools.check_semantics import SemanticsCheck
    from gpuir.tools.verify_diagnostics import Expected

PROG = "gpu-opt"
SPLIT_MARKER = b"// -----"
GC_THRESHOLDS = (100_000, 20, 10)
"""The cyclic garbage collector's thresholds while gpu-opt runs (Python's default: 700, 10, 10).
The IR is millions of small objects in reference cycles; at the default, the collections took
a quarter of `-t ptx` on a 30k-op program and grew faster than the program (full collections
of an ever larger heap). With these, `-t ptx` on 100k ops takes 21% less CPU time (46.7 s, not
59.2) and grows linearly, for a 13% higher peak (534 MB, not 473); benchmarks/run_all.py."""


def get_dot() -> type[Target]:
    """gpu-opt's own target `dot` (`gpuir.tools.dot`): a picture of the program for Graphviz."""
    from gpuir.tools.dot import DotTarget

    return DotTarget


register_target_group("gpuir.tools", lambda: {"dot": get_dot})  # after the lowering's targets


class GpuOptError(SourceError):
    """A user error, already worded as the diagnostic that gpu-opt prints."""


class GpuOptMain(xDSLOptMain):
    """xdsl-opt with gpuir's dialects and passes; user errors become diagnostics.

    `GpuOptMain(args=[...]).run()` runs in-process and returns the exit status. Errors in the
    command line itself (a bad pass pipeline or target) raise `GpuOptError` from the
    constructor; `main()` reports those.
    """

    version_format = f"{PROG} {__version__} (gpuir), built on xdsl {{xdsl_version}}"

    running_pass: str | None = None
    """The pass being applied, or the last one applied while the IR it produced is verified;
    named when it crashes or when its output does not verify."""

    def __init__(self, args: Sequence[str] | None = None) -> None:
        load_command_line_plugins(args)  # before the passes and dialects are registered
        self.pass_manager = PassManager()
        self.instruments = Instruments()
        self.input_data: bytes | None = None
        """The input, once read (`--run-reproducer` reads it while the pipeline is set up)."""
        self.failure_notes: list[str] = []
        self.execution = Execution()
        self.semantics: SemanticsCheck | None = None
        """The run of the last chunk's pipeline; the target's own stages run inside it."""
        """Notes on the last pass failure: the reproducer written for it."""
        super().__init__(description="gpuir's modular optimizer driver", args=args)
        self.check_target_options()

    # Registration ----------------------------------------------------------------------------

    def register_all_dialects(self) -> None:
        # xDSL's dialects but its `gpu`, and ours; `llvm` with the ops xDSL lacks (addrspacecast,
        # fptosi, …), imported when the input first names an llvm op
        self.ctx = make_context(extra_ops={"llvm": llvm_extension_ops})

    def register_all_passes(self) -> None:
        passes = xdsl_universe().all_passes | all_passes()  # the one registry, and plugins
        for name, factory in passes.items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        self.available_targets.update(all_targets())

    def register_all_frontends(self) -> None:
        for name, factory in xdsl_universe().all_frontends.items():
            self.available_frontends.setdefault(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = PROG
        for action in arg_parser._actions:  # noqa: SLF001  # argparse keeps them there
            if "--passes" in action.option_strings:  # not 150 names: --list-passes says more
                action.help = (
                    "a pass pipeline: 'builtin.module(p1, func.func(p2))' or 'p1,p2' "
                    "(--list-passes: every pass)"
                )
            elif "--verify-diagnostics" in action.option_strings:
                action.help = (
                    "check the diagnostics against the input's expected-error/-warning/-note/"
                    "-remark annotations, as mlir-opt does: exit 1 on a missing, unexpected or "
                    "different one"
                )
            elif "--print-between-passes" in action.option_strings:
                action.help = "the same as --mlir-print-ir-after-all (xdsl-opt's spelling)"
            elif "--time-passes" in action.option_strings:
                action.help = "the same as --mlir-timing (xdsl-opt's spelling)"
        arg_parser.add_argument(
            "--pass-pipeline",
            metavar="PIPELINE",
            help="the pass pipeline, as mlir-opt's flag (the same as -p)",
        )
        arg_parser.add_argument(
            "--dump-pass-pipeline",
            action="store_true",
            help="print the pass pipeline, composite passes spelt out, to stderr",
        )
        arg_parser.add_argument(
            "--run-reproducer",
            action="store_true",
            help="run the pipeline that the input's mlir_reproducer resource names (a crash "
            "reproducer)",
        )
        add_pass_manager_arguments(arg_parser)
        checks = arg_parser.add_argument_group("semantics checks (docs/debugging-passes.md)")
        checks.add_argument(
            "--check-semantics",
            nargs="?",
            const="",
            metavar="PASS[,PASS]",
            help="run @main on interp (sanitizer on) for the input and after every pass (or "
            "the named ones): the first pass that changes its results, output or diagnostic "
            "is an error that names it",
        )
        checks.add_argument(
            "--check-args",
            default="",
            metavar="ARGS",
            help="@main's arguments for --check-semantics, as gpu-run takes them ('3 2.5')",
        )
        checks.add_argument(
            "--check-tolerance",
            type=int,
            default=0,
            metavar="ULPS",
            help="floats may move this many ULPs (for passes that reassociate; default 0)",
        )
        arg_parser.add_argument(
            "--load-pass-plugin",
            action="append",
            default=[],
            metavar="FILE.py|MODULE",
            help="load the passes and dialects of a plugin (gpuir.ir.plugins; also $GPUIR_PLUGINS)",
        )
        arg_parser.add_argument(
            "--upstream",
            action="store_true",
            help="read the input as upstream MLIR (gpu.module, gpu.launch, memref; found by "
            "itself otherwise) and import it into gpuir's dialects",
        )
        add_upstream_pass(arg_parser)
        arg_parser.add_argument(
            "--print-upstream",
            action="store_true",
            help="print the upstream input after its --upstream-pass passes, not imported",
        )
        arg_parser.add_argument(
            "--list-passes",
            action="store_true",
            help="print every pass with a line on what it does and its options with their "
            "defaults, then exit",
        )

    # Command line checks ---------------------------------------------------------------------

    def setup_pipeline(self) -> None:
        """Build the pipeline of -p / --pass-pipeline (or the reproducer's) and the
        instrumentation the flags ask for; a bad one is a `GpuOptError`."""
        spec = self.pipeline_text()
        try:
            self.pass_manager = parse_pass_pipeline(spec, self.available_passes, self.is_op)
        except UnknownPass as e:
            raise GpuOptError(f"{PROG}: error: {e}") from e
        except PipelineError as e:
            raise GpuOptError(f"{PROG}: error: bad pass pipeline '{spec}': {e}") from e
        if self.args.print_between_passes:  # xdsl-opt's spelling of --mlir-print-ir-after-all
            self.args.mlir_print_ir_after_all = True
        try:
            self.instruments = instruments(
                self.args,
                self.available_passes,
                verify_each=not self.args.disable_verify,
                timing=self.args.time_passes,  # xdsl-opt's spelling of --mlir-timing
            )
        except FlagError as e:
            raise GpuOptError(f"{PROG}: error: {e}") from e
        if self.args.check_semantics is not None:
            self.semantics = self.semantics_check()
            self.instruments.others.insert(0, self.semantics)
        if self.args.dump_pass_pipeline:
            tree = expanded(self.pass_manager)
            print(f"Pass Manager with {len(tree.elements)} passes:", file=sys.stderr)
            print(tree.dump(), file=sys.stderr)

    def pipeline_text(self) -> str:
        """-p, --pass-pipeline, or under --run-reproducer the input's own pipeline."""
        given = [text for text in (self.args.passes, self.args.pass_pipeline) if text]
        if len(given) > 1:
            raise GpuOptError(f"{PROG}: error: give the pass pipeline once: -p or --pass-pipeline")
        if not self.args.run_reproducer:
            return given[0] if given else ""
        if given:
            raise GpuOptError(
                f"{PROG}: error: --run-reproducer runs the reproducer's own pipeline; "
                "drop -p / --pass-pipeline"
            )
        reproducer = self.read_reproducer()
        if not reproducer.verify_each:  # as it was written
            self.args.disable_verify = True
        return reproducer.pipeline

    def semantics_check(self) -> SemanticsCheck:
        """`--check-semantics`'s instrumentation; a bad flag value is a `GpuOptError`."""
        import shlex

        from gpuir.tools.check_semantics import SemanticsCheck
        from gpuir.tools.pass_flags import pass_names

        if self.args.check_tolerance < 0:
            raise GpuOptError(
                f"{PROG}: error: --check-tolerance takes a number of ULPs, 0 or more, "
                f"not {self.args.check_tolerance}"
            )
        try:
            args = shlex.split(self.args.check_args)
        except ValueError as e:
            raise GpuOptError(f"{PROG}: error: --check-args: {e}") from e
        known = self.available_passes
        try:
            only = pass_names(
                [self.args.check_semantics], "--check-semantics", known.__contains__, list(known)
            )
        except FlagError as e:
            raise GpuOptError(f"{PROG}: error: {e}") from e
        return SemanticsCheck(args=args, only=only, tolerance=self.args.check_tolerance)

    def read_reproducer(self) -> Reproducer:
        from gpuir.ir.instrumentation import ReproducerError, split_reproducer

        data = self.read_input()
        name = self.get_input_name()
        try:
            reproducer = split_reproducer(data.decode("utf-8", "replace"))
        except ReproducerError as e:
            raise GpuOptError(f"{name}:{e.line}:1: error: {e}") from e
        if reproducer is None:
            raise GpuOptError(
                f"{name}: error: --run-reproducer: the input has no "
                "{-# external_resources: { mlir_reproducer: {…} } #-} block"
            )
        return reproducer

    def is_op(self, name: str) -> bool:
        """Whether `name` names an op (a nested pipeline's anchor)."""
        try:
            return self.ctx.get_optional_op(name) is not None
        except Exception:  # noqa: BLE001  # a dialect that fails to load: not an op here
            return False

    def apply_passes(self, prog: ModuleOp) -> None:
        """Run the pipeline on `prog` with the instrumentation; a failing pass leaves its
        failure on the exception (`gpuir.ir.pass_manager.failure_of`, `note_failure`)."""
        self.failure_notes = []
        if not self.args.disable_verify:
            verify_ops(prog)
            verify_input(prog)  # what xDSL's verifier does not check
        reproducer = self.instruments.reproducer
        if reproducer is not None:
            reproducer.start(self.pass_manager, prog)
        if self.semantics is not None:
            self.semantics.start(prog)
        execution = Execution(self.instruments.all(), verify_each=not self.args.disable_verify)
        self.execution = execution
        execution.run(self.ctx, prog, self.pass_manager)
        if self.semantics is not None:
            from gpuir.tools.check_semantics import report_notes

            report_notes(self.semantics, PROG)

    def note_failure(self, error: Exception) -> Failure | None:
        """The pass `error` came out of (named by main() when it is an internal error), and
        the reproducer written for it in `failure_notes`."""
        failure = failure_of(error)
        self.running_pass = None if failure is None else failure.pass_.name
        reproducer = self.instruments.reproducer
        if reproducer is not None and reproducer.note is not None:
            self.failure_notes.append(reproducer.note)
        return failure

    def report_instruments(self) -> None:
        """The timing and statistics reports, to stderr, once every chunk is done."""
        if self.instruments.statistics is not None:
            print(self.instruments.statistics.report(), file=sys.stderr)
        if self.instruments.timing is not None:
            print(self.instruments.timing.report(), file=sys.stderr)

    def timed(self, phase: str, start: Timer) -> None:
        if self.instruments.timing is not None:
            self.instruments.timing.add(phase, *start.elapsed())

    def check_target_options(self) -> None:
        """Fail now, not after the work, on options that the -t target does not take."""
        spec = parse_spec(self.args.target)
        entry = self.available_targets[spec.name]
        if not spec.parameters or inspect.signature(entry).parameters:
            return  # no options, or an old-style target function (it ignores them)
        try:
            entry().from_spec(spec)
        except (ValueError, TypeError) as e:
            raise GpuOptError(f"{PROG}: error: bad target '{self.args.target}': {e}") from e

    # Running ---------------------------------------------------------------------------------

    def run(self) -> int:
        """Process the input chunk by chunk; return 0, or 1 when an error was reported."""
        if self.args.list_passes:
            print(pass_listing(self.available_passes))
            return 0
        chunks = self.read_chunks()
        to_file = self.args.output_file not in (None, "-")
        output = StringIO() if to_file else sys.stdout
        failed = False
        try:
            for i, chunk in enumerate(chunks):
                if i > 0:
                    output.write("// -----\n")
                text = self.process_chunk(chunk)
                failed |= text is None
                output.write(text or "")
                output.flush()
        except ShrinkException:
            if not self.args.shrink:
                raise
            print("Success, can shrink")
            return 0
        if self.args.shrink:
            print("Failure, can't shrink")
            return 1
        self.report_instruments()
        if failed:
            return 1
        if to_file:
            write_atomically(self.args.output_file, output.getvalue())
        return 0

    def read_chunks(self) -> list[Chunk]:
        """The input, split at `// -----` under --split-input-file."""
        data = self.read_input()
        if not self.args.split_input_file:
            return [Chunk(data, 0)]
        pieces = data.split(SPLIT_MARKER)
        offsets = accumulate([0, *(piece.count(b"\n") for piece in pieces[:-1])])
        return [Chunk(piece, offset) for piece, offset in zip(pieces, offsets, strict=True)]

    def read_input(self) -> bytes:
        """The input's bytes (read once); under --run-reproducer without its `{-# … #-}`
        block."""
        if self.input_data is not None:
            return self.input_data
        path = self.args.input_file
        if path in (None, STDIN):
            self.input_data = sys.stdin.buffer.read()
            return self.input_data
        try:
            with open(path, "rb") as f:
                self.input_data = f.read()
        except OSError as e:
            raise GpuOptError(f"{PROG}: error: cannot read '{path}': {e.strerror}") from e
        return self.input_data

    def process_chunk(self, chunk: Chunk) -> str | None:
        """Parse, transform and print one chunk; None when it failed (the error is reported).

        Under --parsing-diagnostics the parse error goes to stdout in xDSL's words and the
        chunk counts as done, as in xdsl-opt.
        """
        expected = self.expected_diagnostics(chunk)
        if expected is None:
            return self.process(chunk)
        from gpuir.tools.verify_diagnostics import check

        captured: list[str] = []
        with capturing(captured):
            text = self.process(chunk)
        complaints = check(self.get_input_name(), expected, captured)
        for complaint in complaints:
            report(complaint)
        if complaints:
            return None
        return text or ""

    def expected_diagnostics(self, chunk: Chunk) -> list[Expected] | None:
        """Under --verify-diagnostics, the chunk's `expected-*` annotations (mlir-opt's
        semantics: `gpuir.tools.verify_diagnostics`: a chunk without any expects none); None
        without the flag."""
        if not self.args.verify_diagnostics:
            return None
        from gpuir.tools.verify_diagnostics import expectations

        text = chunk.data.decode("utf-8", "replace")
        return expectations(text, chunk.line_offset)

    def process(self, chunk: Chunk) -> str | None:
        """Parse, transform and print one chunk (process_chunk's docstring)."""
        verifying = capture_target() is not None  # mlir-opt's --verify-diagnostics
        started = Timer()
        try:
            parsed = self.parse(chunk)
        except SourceError as e:
            report(str(e), e)
            return None
        except ParseError as e:
            e.span = replace(e.span, line_offset=chunk.line_offset)
            if self.args.parsing_diagnostics and not verifying:
                print(e)
                return ""
            report(format_parse_error(e, chunk.line_offset), e)
            return None
        self.timed("Parser", started)
        if parsed is None:
            return ""
        if self.args.print_upstream:  # upstream ops, not gpuir's: printed as they are
            out = StringIO()
            Printer(out).print_op(parsed.module)
            return out.getvalue() + "\n"
        with warnings.catch_warnings():
            warnings.showwarning = partial(show_warning, PROG, parsed)
            return self.transform(parsed)

    def transform(self, parsed: ParsedChunk) -> str | None:
        """Apply the passes and print the result; None when it failed (the error is reported,
        or under --verify-diagnostics captured for the chunk's check)."""
        if self.reads_locations():
            parsed.set_locations()
        self.running_pass = None
        try:
            self.apply_passes(parsed.module)
            with self.execution.section("Output"):  # a target's lowering stages: instrumented
                return self.output_resulting_program(parsed.module)
        except DiagnosticException as e:
            text = format_diagnostic(e, parsed)
            failure = self.note_failure(e)
            if failure is not None and failure.invalid_result:  # a pass broke the IR
                text += f"\nnote: the IR that pass '{failure.pass_.name}' produced does not verify"
            for note in self.failure_notes:
                text += f"\nnote: {note}"
            report(text, e)
            return None
        except Exception as e:
            self.note_failure(e)
            raise

    def reads_locations(self) -> bool:
        """Whether anything after the parse may read op locations."""
        target = parse_spec(self.args.target).name
        return bool(self.pass_manager.elements) or self.args.print_debuginfo or target != "mlir"

    def parse(self, chunk: Chunk) -> ParsedChunk | None:
        """Parse a chunk with the -f frontend, or the one its extension names, or MLIR."""
        name = self.get_input_name()
        frontend = parse_spec(self.args.frontend).name if self.args.frontend else ""
        frontend = frontend or self.frontend_from_extension()
        if frontend != "mlir":
            module = self.parse_chunk(BytesIO(chunk.data), frontend, chunk.line_offset)
            return None if module is None else ParsedChunk(module, name, None, 0, {})
        text = decode_utf8(chunk, name)
        text = without_reproducer_block(text, name)
        if is_blank(text, name) and not self.args.no_implicit_module:
            return ParsedChunk(ModuleOp([]), name, text, chunk.line_offset, {})
        from gpuir.ir.upstream import is_upstream

        passes = self.args.upstream_passes
        if self.args.upstream or passes or self.args.print_upstream or is_upstream(text):
            from gpuir.ir.upstream.importer import read_upstream

            imported = not self.args.print_upstream
            return read_upstream(text, name, chunk.line_offset, passes, imported)
        from gpuir.ir.locating_parser import LocatingParser  # lazily: --help needs no parser

        parser = LocatingParser(self.ctx, text, name)
        module = parse_module(parser, not self.args.no_implicit_module)
        return ParsedChunk(module, name, text, chunk.line_offset, parser.op_starts)

    def get_input_name(self) -> str:
        """The input's name in diagnostics: its path, or `<stdin>` (as mlir-opt says)."""
        path = self.args.input_file
        return STDIN_NAME if path in (None, STDIN) else path

    def frontend_from_extension(self) -> str:
        """The frontend the input's extension names; MLIR when it names none."""
        path = self.args.input_file or ""
        extension = os.path.splitext(path)[1].removeprefix(".")
        return extension if extension in self.available_frontends else "mlir"


def load_command_line_plugins(args: Sequence[str] | None) -> None:
    """The plugins of `$GPUIR_PLUGINS` and of `--load-pass-plugin` in `args`."""
    from gpuir.ir.plugins import PluginError, load_plugins

    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--load-pass-plugin", action="append", default=[])
    known, _ = early.parse_known_args(args)
    try:
        load_plugins(known.load_pass_plugin)
    except PluginError as e:
        raise GpuOptError(f"{PROG}: error: {e}") from e


def pass_listing(passes: dict[str, Callable[[], type[ModulePass]]]) -> str:
    """`--list-passes`: gpuir's passes (and the plugins'), then xDSL's; each with the first
    paragraph of its docstring and its options with their defaults (as -p takes them)."""
    ours = {name for group in pass_groups() for name in registered_group(group)}
    sections = [
        ("gpuir's passes", sorted(name for name in passes if name in ours)),
        ("xDSL's passes", sorted(name for name in passes if name not in ours)),
    ]
    lines = []
    for title, names in sections:
        lines.append(f"{title}:")
        lines += [pass_entry(name, passes[name]) for name in names]
    return "\n".join(lines)


def registered_group(group: str) -> list[str]:
    from gpuir.ir.registry import group_passes

    return list(group_passes(group))


def pass_entry(name: str, factory: Callable[[], type[ModulePass]]) -> str:
    import dataclasses

    try:
        cls = factory()
    except Exception as e:  # noqa: BLE001  # a pass whose module does not import
        return f"{name}\n    (cannot be imported: {type(e).__name__}: {e})"
    doc = cls.__dict__.get("__doc__") or ""
    if doc.startswith(f"{cls.__name__}("):  # the signature a dataclass writes: no description
        doc = ""
    summary = " ".join(doc.strip().split("\n\n")[0].split())
    lines = [f"{name}" + (f"\n    {summary}" if summary else "")]
    options = []
    for f in dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ():
        option = f.name.replace("_", "-")
        if f.default is not dataclasses.MISSING:
            value = f.default
            shown = f'"{value}"' if isinstance(value, str) else str(value)
            options.append(f"{option}={shown}")
        elif f.default_factory is not dataclasses.MISSING:
            options.append(f"{option}={f.default_factory()}")
        else:
            options.append(f"{option} (required)")
    if options:
        lines.append("    options: " + " ".join(options))
    return "\n".join(lines)


def without_reproducer_block(text: str, name: str) -> str:
    """`text` with a crash reproducer's `{-# external_resources: { mlir_reproducer … } #-}`
    block blanked out (xDSL reads no external resources): a reproducer is an input too."""
    if "mlir_reproducer" not in text:
        return text
    from gpuir.ir.instrumentation import ReproducerError, split_reproducer

    try:
        reproducer = split_reproducer(text)
    except ReproducerError as e:
        raise GpuOptError(f"{name}:{e.line}:1: error: {e}") from e
    return text if reproducer is None else reproducer.text


def llvm_extension_ops() -> Sequence[type[Operation]]:
    from gpuir.lowering.llvm.llvm_ext import LLVM_EXTENSION_OPS  # lazily: start-up stays fast

    return LLVM_EXTENSION_OPS


# Diagnostics -----------------------------------------------------------------------------------


# Input and output ------------------------------------------------------------------------------


def write_atomically(path: str, text: str) -> None:
    """Replace `path` by `text` at once: readers see the old file or the new one, never part.

    A path that is not a regular file (`/dev/null`, a FIFO) is written in place; replacing it
    would put a regular file where the device was.
    """
    import tempfile  # lazily: only -o needs it

    target = os.path.realpath(path)
    try:
        if os.path.exists(target) and not os.path.isfile(target):
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
            return
        mode = file_mode(target)
        fd, temporary = tempfile.mkstemp(
            dir=os.path.dirname(target), prefix=f".{os.path.basename(target)}.", suffix=".tmp"
        )
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(temporary, mode)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as e:
        raise GpuOptError(f"{PROG}: error: cannot write '{path}': {e.strerror}") from e


def file_mode(path: str) -> int:
    """The permissions `path` has, or those a new file gets under the current umask."""
    if os.path.exists(path):
        return os.stat(path).st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# Entry point -----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """gpu-opt: run on `argv` (default: the command line) and return the exit status."""
    tool: GpuOptMain | None = None

    def run() -> int:
        nonlocal tool
        try:
            tool = GpuOptMain(args=argv)
            return tool.run()
        except GpuOptError as e:
            report(str(e), e)
        except ArgSpecParseError as e:  # -t/-f spec syntax; a BaseException in xDSL
            report(f"{PROG}: error: {e}".rstrip(), e)
        return 1

    def where() -> str:
        return f" in pass '{tool.running_pass}'" if tool and tool.running_pass else ""

    thresholds = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        return exit_status(PROG, run, where, lambda: tool.failure_notes if tool else [])
    finally:
        gc.set_threshold(*thresholds)


if __name__ == "__main__":
    sys.exit(main())
