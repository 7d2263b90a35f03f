"""`gpu-opt --check-semantics`: run `@main` on interp, sanitizer on, for the input and again
after every pass (the stages of composite passes included), and name the first pass that
changes what a user can observe: `@main`'s results, the printed output, the diagnostic and the
exit status.

It is a pass instrumentation (`gpuir.ir.pass_manager`) whose check raises inside the pass's
run, so a change is that pass's failure: `--mlir-print-ir-after-failure` and the crash
reproducers see it. A composite pass is checked before its first stage (for its own work, as
split-apply's split) and then through its stages. Where interp cannot run the IR (ops it has
no semantics for: `btensor.map_reduce` before it is lowered, the llvm dialect after
`device-to-llvm`), checking waits for the next stage it can run, and the report says where
checking started or stopped. The cost is one interp run per checked pass run that changed the
IR: a pass that leaves the module's text as it was reuses the last observation (one that ran
without an error; an error's op belongs to the IR it was found in).
"""

from __future__ import annotations

import math
import struct
import sys
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from io import StringIO

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from gpuir.ir.diagnostics import OpError, Related
from gpuir.ir.instrumentation import top_of
from gpuir.ir.pass_manager import PassInstrumentation, Path


class SemanticsChanged(OpError):
    """A pass changed what `@main` computes; `op` is the op interp's new error is at (in the
    IR after the pass; None when there is none), `related` its notes."""

    def __init__(self, message: str, op: Operation | None = None, related: Related = ()) -> None:
        super().__init__(op, message, related)  # type: ignore[arg-type]  # op may be None


class CheckArgsError(DiagnosticException):
    """`--check-args` that do not fit `@main`'s parameters."""


@dataclass(frozen=True)
class Observation:
    """What a user sees of one run of `@main`."""

    results: tuple[tuple[object, Attribute], ...] = ()
    output: str = ""
    error: str | None = None
    """interp's diagnostic (a race, out of bounds, …), its first line; None when it ran."""
    error_op: Operation | None = None
    related: tuple = ()

    @property
    def status(self) -> int:
        return 0 if self.error is None else 1


@dataclass(frozen=True)
class Unrunnable:
    reason: str


def observe(module: ModuleOp, args: list[str]) -> Observation | Unrunnable:
    """Run `@main` of a copy of `module` on interp with `args` (gpu-run's syntax)."""
    from gpuir.runtime import get_provider
    from gpuir.runtime.provider import ProviderError

    lowered = next((op.name for op in module.walk() if is_lowered(op)), None)
    if lowered is not None:
        return Unrunnable(f"interp does not run IR lowered for LLVM ('{lowered}')")
    copy = module.clone()
    out = StringIO()  # host prints and kernel printf alike, in the order they happen
    provider = get_provider("interp")
    try:
        with redirect_stdout(out):
            return run_main(copy, provider, out, args)
    except ProviderError as e:
        message = (str(e).strip().splitlines() or [""])[0]
        if "has no semantics for it" in message:
            return Unrunnable(message)
        return Observation((), out.getvalue(), message, e.op, tuple(e.related))
    except CheckArgsError:
        raise
    except DiagnosticException as e:
        return Unrunnable((str(e).strip().splitlines() or [""])[0])


INTERPRETED_LLVM = frozenset({"llvm.extractvalue", "llvm.insertvalue", "llvm.mlir.undef"})
"""The `llvm` ops interp runs (those of struct kernel arguments)."""


def is_lowered(op: Operation) -> bool:
    """Whether `op` belongs to IR lowered for LLVM (interp does not run it)."""
    if op.name == "builtin.unrealized_conversion_cast" or op.name.startswith("nvvm."):
        return True
    return op.name.startswith("llvm.") and op.name not in INTERPRETED_LLVM


def run_main(
    module: ModuleOp, provider: object, out: StringIO, args: list[str]
) -> Observation | Unrunnable:
    """`@main` of `module` on `provider`, its prints into `out`."""
    from gpuir.runtime.executors import make_executor
    from gpuir.runtime.scalars import parse_arguments
    from gpuir.runtime.session import check_entry, scalar_params

    executor = make_executor(module, provider, out, compiled=False)  # type: ignore[arg-type]
    if "main" not in executor.functions:
        return Unrunnable("the program has no function @main")
    main = executor.function("main")
    check_entry(main)
    try:
        values = parse_arguments(args, scalar_params(main), "main")
    except ValueError as e:
        raise CheckArgsError(f"--check-semantics: --check-args: {e}") from None
    results = executor.run_main(values)
    sys.stdout.flush()
    return Observation(tuple(results), out.getvalue())


def ulps(a: float, b: float, type_: Attribute) -> int:
    """How many representable values of `type_` lie between `a` and `b`."""
    from gpuir.runtime.scalars import float_dtype

    dtype = float_dtype(type_)
    width = np.dtype(dtype).itemsize
    fmt = {2: "e", 4: "f", 8: "d"}[width]
    ints = {2: "h", 4: "i", 8: "q"}[width]

    def ordered(x: float) -> int:
        (bits,) = struct.unpack(ints, struct.pack(fmt, dtype(x)))
        return bits if bits >= 0 else -(bits & ((1 << (8 * width - 1)) - 1))

    return abs(ordered(a) - ordered(b))


def same_value(a: object, b: object, type_: Attribute, tolerance: int) -> bool:
    from gpuir.runtime.scalars import float_dtype

    if float_dtype(type_) is None:
        return a == b
    x, y = float(a), float(b)  # type: ignore[arg-type]
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if x == y:
        return True
    return tolerance > 0 and ulps(x, y, type_) <= tolerance


def difference(before: Observation, after: Observation, tolerance: int) -> str | None:
    """What differs between two runs, in words: the first differing value or line."""
    from gpuir.runtime.scalars import format_value

    if before.error != after.error:
        if before.error is None:
            return f"introduced an error: {after.error}"
        if after.error is None:
            return f"removed the error '{before.error}' (exit status 1 before, 0 after)"
        return f"changed the error: '{after.error}' after it, '{before.error}' before"
    if len(before.results) != len(after.results):
        return f"changed how many results @main returns: {len(after.results)} after it, {len(before.results)} before"
    for i, ((old, type_), (new, _)) in enumerate(zip(before.results, after.results, strict=True)):
        if not same_value(old, new, type_, tolerance):
            return (
                f"changed what @main computes: result {i + 1} is {format_value(new, type_)} "
                f"after it, {format_value(old, type_)} before"
            )
    if before.output != after.output:
        old_lines, new_lines = before.output.splitlines(), after.output.splitlines()
        for number, (old, new) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
            if old != new:
                return f"changed the output: line {number} is '{new}' after it, '{old}' before"
        shorter = min(len(old_lines), len(new_lines))
        if len(new_lines) < len(old_lines):
            return f"changed the output: it ends after line {shorter}, before it went on with '{old_lines[shorter]}'"
        return f"changed the output: line {shorter + 1} is '{new_lines[shorter]}' after it, the output ended before"
    return None


def generic_text(module: ModuleOp) -> str:
    """The module in the generic format, without locations: what two runs of it share."""
    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


@dataclass
class SemanticsCheck(PassInstrumentation):
    """The instrumentation (module docstring). `args`: `@main`'s arguments; `only`: the
    passes to check after (empty: all); `tolerance`: how many ULPs a float may move."""

    args: list[str] = field(default_factory=list)
    only: frozenset[str] = frozenset()
    tolerance: int = 0
    baseline: Observation | None = None
    baseline_from: str = "the input"
    stopped: str | None = None
    """Where checking stopped (a pass after which interp could not run the IR), if it did."""
    waiting: str | None = None
    """Why the input could not run, until a stage can."""
    unchecked: list[str] = field(default_factory=list)
    """The passes that ran since the last check without one of their own (`only`)."""
    stack: list[list] = field(default_factory=list)
    """The passes running now: [pass, checked its own work before its first stage]."""
    last: tuple[str, Observation | Unrunnable] | None = None
    """The generic text of the module last observed, and what was observed."""

    def observe(self, module: ModuleOp) -> Observation | Unrunnable:
        """`observe(module)`, or the last observation where the module is unchanged."""
        text = generic_text(module)
        if self.last is not None and self.last[0] == text:
            return self.last[1]
        found = observe(module, self.args)
        reusable = isinstance(found, Unrunnable) or found.error is None
        self.last = (text, found) if reusable else None
        return found

    def start(self, module: ModuleOp) -> None:
        """Observe the input."""
        self.stopped = None
        self.unchecked = []
        self.last = None
        found = self.observe(module)
        if isinstance(found, Unrunnable):
            self.baseline, self.waiting = None, found.reason
        else:
            self.baseline, self.waiting = found, None
            self.baseline_from = "the input"

    def run_before_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        if self.stack and not self.stack[-1][1]:  # the parent's own work, before this stage
            parent = self.stack[-1]
            parent[1] = True
            self.compare(parent[0], op, before_stages=True)
        self.stack.append([p, False])

    def check_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        entry = self.stack.pop() if self.stack else [p, False]
        if entry[1]:
            return  # a composite: checked before its first stage and through its stages
        self.compare(p, op)

    def run_after_pass_failed(
        self, p: ModulePass, op: Operation, path: Path, error: BaseException
    ) -> None:
        if self.stack and self.stack[-1][0] is p:
            self.stack.pop()

    def compare(self, p: ModulePass, op: Operation, before_stages: bool = False) -> None:
        if self.only and p.name not in self.only:
            if p.name not in self.unchecked:
                self.unchecked.append(p.name)
            return
        top = top_of(op)
        assert isinstance(top, ModuleOp)
        found = self.observe(top)
        where = f"pass '{p.name}'" + (" (before its stages)" if before_stages else "")
        if isinstance(found, Unrunnable):
            if self.baseline is not None and self.stopped is None:
                self.stopped = f"after {where}: {found.reason}"
            return
        if self.baseline is None:
            self.baseline, self.baseline_from, self.waiting = found, f"after {where}", None
            return
        self.stopped = None
        unchecked, self.unchecked = self.unchecked, []
        change = difference(self.baseline, found, self.tolerance)
        if change is None:
            return
        since = f"; unchecked since then: {', '.join(unchecked)}" if unchecked else ""
        raise SemanticsChanged(
            f"--check-semantics: {where} {change} (compared with {self.baseline_from}{since})",
            found.error_op if found.error is not None and self.baseline.error is None else None,
            found.related,
        )

    def notes(self) -> list[str]:
        """Where checking could not run, for the report after a run that passed."""
        notes = []
        if self.baseline is None:
            notes.append(
                f"--check-semantics checked nothing: interp cannot run any stage ({self.waiting})"
            )
        elif self.baseline_from != "the input":
            notes.append(
                f"--check-semantics started {self.baseline_from}: interp cannot run the input"
            )
        if self.stopped is not None:
            notes.append(f"--check-semantics stopped {self.stopped}")
        return notes


def report_notes(check: SemanticsCheck, prog: str) -> None:
    for note in check.notes():
        print(f"{prog}: note: {note}", file=sys.stderr)
