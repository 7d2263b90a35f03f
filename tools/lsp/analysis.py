"""A document as gpu-lsp sees it: its diagnostics, worded as gpu-opt words them, and its index.

`analyse(text, name)` does what `gpu-opt --split-input-file [--verify-diagnostics] -p CHECKS`
does on the text, without writing anything: each `// -----` chunk (when the text has one) is
parsed with the locations of its ops (upstream MLIR, recognised by its content, is imported
first), verified (xDSL's verifier and gpuir's `verify_input`), then given to each of the checks
of `gpu-pipeline` that only read the module (`CHECKS`), each on its own, so that one check's
error does not hide another's. A text with `expected-*` annotations is checked against them as
`--verify-diagnostics` does, and what is reported is that check's complaints.

The diagnostics are gpu-opt's texts (`file:line:col: error: …`, the source line, a caret, the
notes), read back into `Report`s; an exception that is not a user error is a `Report` at the
top of the file that says so. `cancelled()` is asked between the steps: a newer text makes the
work stop with `Cancelled`.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import accumulate

from xdsl.context import Context
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span

from gpuir.ir.registry import all_passes
from gpuir.ir.source import (
    ParsedChunk,
    SourceError,
    format_diagnostic,
    format_parse_error,
    is_blank,
)
from gpuir.ir.verifier import verify_input, verify_ops
from gpuir.tools.common import capturing, report, show_warning
from gpuir.tools.gpu_opt import SPLIT_MARKER, llvm_extension_ops, without_reproducer_block
from gpuir.tools.lsp.index import ChunkIndex, IndexingParser, index_chunk
from gpuir.tools.verify_diagnostics import ANNOTATION, DIAGNOSTIC, UNLOCATED, check, expectations

PROG = "gpu-lsp"
CHECKS: tuple[str, ...] = (
    "mem-checks",
    "check-addr-spaces",
    "check-tokens",
    "check-barrier-divergence",
)
"""The passes of `gpu-pipeline` that only read the module, in the pipeline's order."""
SLOW_CHECKS = frozenset({"check-barrier-divergence"})
"""Checks that may take a second on a large file (each work-item of each launch walked): the
diagnostics found before them are published first."""
CARETS = re.compile(r"\s*\^+\s*")
OP_HEAD = re.compile(r'(?:%[\w$.#:-]+(?:\s*,\s*%[\w$.#:-]+)*\s*=\s*)?"?[\w.$-]+"?')
"""What a diagnostic at an op covers: its results and its name (`%m1, %v = mem.load`)."""


class Cancelled(Exception):
    """A newer text of the document came in: this analysis is not wanted any more."""


@dataclass(frozen=True)
class Note:
    """A note of a diagnostic: where (line and column from 0; None: no place of its own) and
    what."""

    line: int | None
    column: int
    width: int
    message: str


@dataclass(frozen=True)
class Report:
    """One diagnostic: severity (`error`, `warning`, `note`, `remark`), where (0-based line
    and column, in characters; `width` characters), the message and its notes."""

    severity: str
    line: int
    column: int
    width: int
    message: str
    notes: tuple[Note, ...] = ()


@dataclass
class Analysis:
    """A document's text, its diagnostics and its chunks' indexes."""

    text: str
    reports: list[Report] = field(default_factory=list)
    chunks: list[ChunkIndex] = field(default_factory=list)

    def chunk_at(self, offset: int) -> ChunkIndex | None:
        return next((c for c in self.chunks if c.start <= offset <= c.end), None)


@dataclass
class Checker:
    """What an analysis uses: a parsing context, the checks to run, and the question whether
    its work is still wanted."""

    ctx: Context
    checks: Sequence[str] = CHECKS
    cancelled: Callable[[], bool] = lambda: False
    publish_early: Callable[[Analysis, list[Report]], None] | None = None
    """Called with the analysis (its index complete) and the diagnostics found before the slow
    checks, when they have launches to check."""

    def go_on(self) -> None:
        if self.cancelled():
            raise Cancelled


def new_context() -> Context:
    """The context gpu-opt parses with."""
    from gpuir.dialects import make_context

    return make_context(extra_ops={"llvm": llvm_extension_ops})


@dataclass(frozen=True)
class Plan:
    """What gpu-opt is asked to do with a document: split it at `// -----`, check its
    diagnostics against its `expected-*` annotations, and run a pipeline (a lit test's, from
    its `// RUN: gpu-opt … --verify-diagnostics` line) or else each of the checks."""

    split: bool
    verify: bool
    pipeline: str | None
    """None: each of the checker's checks on its own."""


RUN_LINE = re.compile(r"//\s*RUN:(.*\bgpu-opt\b.*--verify-diagnostics.*)")


def plan_of(text: str) -> Plan:
    """A lit test (`// RUN: gpu-opt %s -p P --verify-diagnostics [--split-input-file]`) is read
    as its RUN line says; any other text is split when it has a `// -----` and verified when it
    has an annotation."""
    run = RUN_LINE.search(text)
    if run is None:
        verify = any(ANNOTATION.search(line) for line in text.splitlines() if "expected-" in line)
        return Plan(SPLIT_MARKER.decode() in text, verify, None)
    import shlex

    try:
        words = shlex.split(run.group(1).split("|")[0])
    except ValueError:
        words = run.group(1).split()
    pipeline = ""
    for i, word in enumerate(words[:-1]):
        if word in ("-p", "--passes", "--pass-pipeline"):
            pipeline = words[i + 1]
    for word in words:
        if word.startswith(("--passes=", "--pass-pipeline=", "-p=")):
            pipeline = word.split("=", 1)[1]
    return Plan("--split-input-file" in words, True, pipeline)


def analyse(text: str, name: str, checker: Checker) -> Analysis:
    """The diagnostics and the index of a document (module docstring)."""
    analysis = Analysis(text)
    plan = plan_of(text)
    pieces = text.split(SPLIT_MARKER.decode()) if plan.split else [text]
    starts = accumulate([0, *(len(p) + len(SPLIT_MARKER) for p in pieces[:-1])])
    line_offsets = accumulate([0, *(p.count("\n") for p in pieces[:-1])])
    checks = checker.checks if plan.pipeline is None else ()
    fast = [c for c in checks if c not in SLOW_CHECKS]
    slow = [c for c in checks if c in SLOW_CHECKS]
    works = []
    for piece, start, line_offset in zip(pieces, starts, line_offsets, strict=True):
        checker.go_on()
        work = Work(piece, start, line_offset)
        guarded(work, analysis, "the parser", partial(parse, work, name, checker.ctx))
        for check_name in fast:
            checker.go_on()
            guarded(work, analysis, check_name, partial(run_check, work, check_name, checker))
        if plan.pipeline:
            pipeline = partial(run_pipeline, work, plan.pipeline, checker)
            guarded(work, analysis, f"the pipeline '{plan.pipeline}'", pipeline)
        works.append(work)
        analysis.chunks.append(work.index or ChunkIndex(start, start + len(piece), line_offset))
    if slow and any(w.parsed is not None for w in works):
        launches = any(w.index is not None and w.index.kernels for w in works)
        if checker.publish_early is not None and launches and not plan.verify:
            checker.publish_early(analysis, reports_of_works(works, name, text) + analysis.reports)
        for work in works:
            for check_name in slow:
                checker.go_on()
                guarded(work, analysis, check_name, partial(run_check, work, check_name, checker))
    if plan.verify:
        for work in works:
            work.captured = check(name, expectations(work.text, work.line_offset), work.captured)
    analysis.reports = reports_of_works(works, name, text) + analysis.reports
    return analysis


@dataclass
class Work:
    """One chunk on its way: its text, where it starts (offset and lines before it), its module
    once parsed and verified (None: not parsed, or it does not verify: no check runs on it),
    its index, and the diagnostics reported on it (gpu-opt's texts)."""

    text: str
    start: int
    line_offset: int
    parsed: ParsedChunk | None = None
    index: ChunkIndex | None = None
    captured: list[str] = field(default_factory=list)


def guarded(work: Work, analysis: Analysis, what: str, step: Callable[[], None]) -> None:
    """Run `step`, the diagnostics it reports kept on `work` (as gpu-opt reports them, with the
    warnings that ops emit); a bug in it is a diagnostic at the top of the file."""
    try:
        with capturing(work.captured), warnings.catch_warnings():
            if work.parsed is None:
                warnings.simplefilter("ignore")  # xDSL's deprecations while it parses
            else:
                warnings.showwarning = partial(show_warning, PROG, work.parsed)
            step()
    except Cancelled:
        raise
    except Exception as e:  # noqa: BLE001  # a bug, not the user's: said, and the rest goes on
        work.parsed = None
        analysis.reports.append(internal_error(what, e))


def parse(work: Work, name: str, ctx: Context) -> None:
    """Parse and verify the chunk (gpu-opt's `parse` and `transform` up to the passes): its
    module in `work.parsed` when it verifies, its index in `work.index`, its diagnostics
    reported."""
    try:
        text = without_reproducer_block(work.text, name)
    except SourceError as e:
        report(str(e), e)
        text = work.text
    end = work.start + len(work.text)
    if is_blank(text, name):
        work.index = index_chunk(None, text, work.start, work.line_offset)
        return
    from gpuir.ir.upstream import is_upstream

    upstream = is_upstream(text)
    parser = IndexingParser(upstream_context() if upstream else ctx, text, name)
    try:
        try:
            module = parser.parse_module()
        except VerifyException as e:  # an attribute's verifier rejected what was just parsed
            raise ParseError(Span(parser.pos, parser.pos, parser.lexer.input), str(e)) from e
    except ParseError as e:
        e.span = replace(e.span, line_offset=work.line_offset)
        report(format_parse_error(e, work.line_offset), e)
        return
    except SourceError as e:
        report(str(e), e)
        return
    finally:
        work.index = index_chunk(parser, text, work.start, work.line_offset)
        work.index.end = end
    parsed = ParsedChunk(module, name, text, work.line_offset, dict(parser.op_starts))
    if upstream:
        parsed = imported(parsed)
        if parsed is None:
            return
    try:
        parsed.set_locations()
        verify_ops(parsed.module)
        verify_input(parsed.module)
    except DiagnosticException as e:
        report(format_diagnostic(e, parsed), e)
        return
    work.parsed = parsed


def upstream_context() -> Context:
    from gpuir.ir.upstream.importer import upstream_context

    return upstream_context()


def imported(source: ParsedChunk) -> ParsedChunk | None:
    """An upstream program in gpuir's dialects (`read_upstream`'s import, on the module that
    was parsed for the index); None when it cannot be imported (reported)."""
    from gpuir.ir.diagnostics import OpError
    from gpuir.ir.upstream.importer import import_upstream

    source.set_locations()
    try:
        module = import_upstream(source.module)
    except OpError as e:
        report(format_diagnostic(e, source), e)
        return None
    return ParsedChunk(module, source.name, source.text, source.line_offset, {})


def run_check(work: Work, check_name: str, checker: Checker) -> None:
    """Apply a check to the chunk's module (when it verified); its error is reported."""
    if work.parsed is None:
        return
    known = all_passes()
    if check_name not in known:
        return
    try:
        known[check_name]()().apply(checker.ctx, work.parsed.module)
    except DiagnosticException as e:
        report(format_diagnostic(e, work.parsed), e)


def run_pipeline(work: Work, spec: str, checker: Checker) -> None:
    """Run a lit test's pipeline on the chunk's module as gpu-opt runs it; a failure is
    reported."""
    from xdsl.universe import Universe

    from gpuir.dialects import xdsl_universe
    from gpuir.ir.pass_manager import Execution, PipelineError, UnknownPass, parse_pass_pipeline

    if work.parsed is None:
        return
    universe: Universe = xdsl_universe()
    known = universe.all_passes | all_passes()
    try:
        manager = parse_pass_pipeline(
            spec, known, lambda n: checker.ctx.get_optional_op(n) is not None
        )
    except UnknownPass as e:
        report(f"{work.parsed.name}: error: {e}")
        return
    except PipelineError as e:
        report(f"{work.parsed.name}: error: bad pass pipeline '{spec}': {e}")
        return
    try:
        Execution([], verify_each=True).run(checker.ctx, work.parsed.module, manager)
    except DiagnosticException as e:
        report(format_diagnostic(e, work.parsed), e)


def internal_error(what: str, error: BaseException) -> Report:
    first_line = (str(error).strip().splitlines() or [""])[0]
    message = (
        f"{PROG}: internal error in {what}: {type(error).__name__}: {first_line} "
        "(a bug in gpuir; the other diagnostics may be incomplete)"
    )
    return Report("error", 0, 0, 0, message)


def reports_of_works(works: Sequence[Work], name: str, text: str) -> list[Report]:
    return [r for w in works for captured in w.captured for r in reports_of(captured, name, text)]


def reports_of(captured: str, name: str, text: str) -> list[Report]:
    """gpu-opt's text of one or more diagnostics (`file:line:col: severity: message`, the
    source line and a caret, then `note:` lines or located notes) as `Report`s with their
    notes; a located note before any diagnostic is a diagnostic of its own."""
    lines = captured.splitlines()
    document = text.split("\n")
    out: list[Report] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        located = DIAGNOSTIC.match(line)
        unlocated = UNLOCATED.match(line) if located is None else None
        width = 1
        if located is not None and i + 2 < len(lines) and CARETS.fullmatch(lines[i + 2]):
            width = lines[i + 2].count("^")
            i += 2
        i += 1
        if located is not None:
            severity, message = located.group("kind"), located.group("message")
            place = place_of(located, name, document, width)
            if severity == "note" and out and place is not None:
                last = out[-1]
                note = Note(place[0], place[1], place[2], message)
                out[-1] = replace(last, notes=(*last.notes, note))
                continue
            if place is None:
                where = f"{located.group('file')}:{located.group('line')}:{located.group('column')}"
                out.append(Report(severity, 0, 0, 0, f"{where}: {message}"))
            else:
                out.append(Report(severity, *place, message))
        elif unlocated is not None:
            out.append(Report(unlocated.group("kind"), 0, 0, 0, unlocated.group("message")))
        elif line.startswith("note: ") and out:
            last = out[-1]
            out[-1] = replace(last, notes=(*last.notes, Note(None, 0, 0, line[len("note: ") :])))
        elif out and line.strip():
            last = out[-1]
            out[-1] = replace(last, message=f"{last.message}\n{line}")
    return out


def place_of(
    located: re.Match[str], name: str, document: list[str], width: int
) -> tuple[int, int, int] | None:
    """A diagnostic's line, column and width (0-based, characters) in the document; None when
    it is in another file. A one-character place at an op covers the op's results and name."""
    if located.group("file") != name:
        return None
    line, column = int(located.group("line")) - 1, int(located.group("column")) - 1
    if not 0 <= line < len(document):
        return (max(len(document) - 1, 0), 0, 0)
    if width == 1:
        head = OP_HEAD.match(document[line], column)
        if head is not None and head.end() > column:
            width = head.end() - column
    return (line, column, width)
