"""gpuir's pass manager, after MLIR's: nested pipelines anchored on ops, instrumentation that
sees every pass (inside composite passes too), and pass statistics.

A pipeline is a tree: a `PassManager` runs on ops named by its `anchor` and holds passes and
nested pass managers. Its text is MLIR's:

    builtin.module(fuse-map-reduce, func.func(canonicalize, cse), split-apply{…})

A flat list (`cse,canonicalize`, xdsl-opt's `-p`) is a `builtin.module` pipeline. A nested
pass manager runs on each op of its anchor directly inside the op its parent runs on (`any`:
on every such op). A pass runs on the op its pass manager runs on:

- an `OpPass` declares the op it runs on (`op_name`: `func.func`, `builtin.module`, `any`, …);
  in a flat list it runs on every op of its kind in the module, however deep (the functions of
  split-apply's `@host` and `@device` too), not inside another one;
- an xDSL `ModulePass` runs on a `builtin.module`; nested under another op it runs on a module
  made for the moment around that op (the op goes back with whatever the pass put beside it).

A composite pass (`gpu-pipeline`, `split-apply`, `device-to-llvm`, …) runs its stages with
`run_pass` / `run_pipeline`, MLIR's dynamic pipelines: under an active `Execution` each stage
is a pass of its own for the instrumentation (printing, timing, statistics, verification,
crash reproducers); without one it is a plain `apply`.
"""

from __future__ import annotations

import dataclasses
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple, overload

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

MODULE = "builtin.module"
ANY = "any"
"""The anchor of a pass manager (or an `OpPass`) that runs on ops of any name."""

PassFactory = Callable[[], type[ModulePass]]


class PipelineError(ValueError):
    """A pass pipeline's text that does not parse, names an unknown pass or op, or nests a pass
    under an op it does not run on; the message says which, without the tool's prefix."""


class UnknownPass(PipelineError):
    """A pass name that is not registered; `hint` is a ` (did you mean 'x'?)` or empty."""

    def __init__(self, name: str, hint: str) -> None:
        super().__init__(f"unknown pass '{name}'{hint}")
        self.name = name
        self.hint = hint


class BadOptions(PipelineError):
    """Options that a pass does not take, or values it cannot use; the message is the
    reason."""


# --- passes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpPass(ModulePass):
    """A pass that runs on one kind of op (MLIR's `OperationPass<OpT>`): `op_name` names it
    (`func.func`, `builtin.module`, or `any`), `run_on_operation` does the work.

    Called as a module pass (`apply`, from xDSL or a plain loop), it runs on the module itself
    when that is its op, else on every op of its kind nested in it (not inside another one)."""

    op_name: ClassVar[str] = "func.func"

    @abstractmethod
    def run_on_operation(self, ctx: Context, op: Operation) -> None: ...

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.op_name in (ANY, op.name):
            self.run_on_operation(ctx, op)
            return
        for found in list(anchored_ops(op, self.op_name)):
            self.run_on_operation(ctx, found)


def anchored_ops(op: Operation, name: str) -> Iterator[Operation]:
    """The ops named `name` nested in `op`, outermost first; not those inside one of them."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if inner.name == name:
                    yield inner
                else:
                    yield from anchored_ops(inner, name)


def op_name_of(p: ModulePass) -> str:
    """The op `p` runs on: an `OpPass`'s own, a module pass's `builtin.module`."""
    return p.op_name if isinstance(p, OpPass) else MODULE


def display_name(p: ModulePass) -> str:
    """The pass's name in reports, as MLIR's `Pass::getName` (its class, without `Pass`)."""
    name = type(p).__name__
    return name.removesuffix("Pass") or name


# --- statistics --------------------------------------------------------------------------------


class Counter:
    """One statistic's value on one pass object (`Statistic.__get__`)."""

    __slots__ = ("statistic", "value")

    def __init__(self, statistic: Statistic) -> None:
        self.statistic = statistic
        self.value = 0

    def add(self, n: int = 1) -> None:
        self.value += n

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"{self.statistic.name}={self.value}"


class Statistic:
    """A count a pass keeps, in MLIR's `Pass::Statistic` spirit: declared on the class,
    counted with `self.stat.add(n)`, reported by `--mlir-pass-statistics` as
    `(S) N name - description` under the pass.

        @dataclass(frozen=True)
        class DropBarriersPass(ModulePass):
            name = "drop-barriers"
            removed = Statistic("num-barriers-removed", "barriers removed")

            def apply(self, ctx, op):
                ...
                self.removed.add()

    The count lives on the pass object (frozen dataclasses too), from its creation on."""

    def __init__(self, name: str, description: str) -> None:
        self.name = name
        self.description = description
        self.attribute = name

    def __set_name__(self, owner: type, attribute: str) -> None:
        self.attribute = attribute

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Statistic: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> Counter: ...

    def __get__(self, instance: object, owner: type | None = None) -> Counter | Statistic:
        if instance is None:
            return self
        counters: dict[str, Counter] = instance.__dict__.setdefault("_gpuir_statistics", {})
        counter = counters.get(self.attribute)
        if counter is None:
            counter = counters[self.attribute] = Counter(self)
        return counter


class StatisticValue(NamedTuple):
    name: str
    description: str
    value: int


def statistics_of(p: ModulePass) -> list[StatisticValue]:
    """Every statistic `p`'s class declares, with its count on `p` (0 when never counted)."""
    found: dict[str, Statistic] = {}
    for cls in reversed(type(p).__mro__):
        for value in vars(cls).values():
            if isinstance(value, Statistic):
                found[value.name] = value
    counters: dict[str, Counter] = p.__dict__.get("_gpuir_statistics", {})
    values = []
    for statistic in found.values():
        counter = counters.get(statistic.attribute)
        values.append(
            StatisticValue(statistic.name, statistic.description, counter.value if counter else 0)
        )
    return values


# --- pipelines ---------------------------------------------------------------------------------


@dataclass
class PassManager:
    """Passes and nested pass managers that run, in order, on ops named `anchor`."""

    anchor: str = MODULE
    elements: list[ModulePass | PassManager] = field(default_factory=list)
    flat: bool = False
    """Read from a flat list (`cse,my-func-pass`): written back as one, since its op passes
    walk the module for their ops, which no anchored text says."""

    def __str__(self) -> str:
        """The pipeline's text, MLIR's textual form; every option with its value."""
        inner = ", ".join(
            str(e) if isinstance(e, PassManager) else pass_text(e, True) for e in self.elements
        )
        return inner if self.flat else f"{self.anchor}({inner})"

    def dump(self, indent: int = 0) -> str:
        """The pipeline, one element a line, as `--dump-pass-pipeline` writes it."""
        pad = "  " * indent
        lines = [f"{pad}{self.anchor}("]
        for i, element in enumerate(self.elements):
            comma = "," if i + 1 < len(self.elements) else ""
            if isinstance(element, PassManager):
                lines.append(element.dump(indent + 1) + comma)
            else:
                lines.append(f"{pad}  {pass_text(element, True)}{comma}")
        lines.append(f"{pad})")
        return "\n".join(lines)

    def run(self, ctx: Context, op: Operation) -> None:
        """Run on `op` (whose name is the anchor), through the active `Execution`, if any."""
        execution = active_execution()
        if execution is None:
            apply_elements(ctx, op, self)
        else:
            execution.run_elements(ctx, op, self)


def pass_text(p: ModulePass, include_defaults: bool = False) -> str:
    """`p` as pipeline text: its name and, in braces, its options as -p takes them (dashes,
    quoted text), those that differ from their defaults or all of them."""
    if not dataclasses.is_dataclass(p):
        return p.name
    options = []
    for f in dataclasses.fields(p):
        value = getattr(p, f.name)
        if value is None:
            continue
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = dataclasses.MISSING
        if value == default and not include_defaults:
            continue
        options.append(f"{f.name.replace('_', '-')}={option_text(value)}")
    return f"{p.name}{{{' '.join(options)}}}" if options else p.name


def option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (tuple, list)):
        return ",".join(option_text(v) for v in value)
    return str(value)


def expanded(pm: PassManager) -> PassManager:
    """`pm` with each composite pass (one with `stages()`, as `gpu-pipeline`) replaced by its
    stages: the same work, spelled out (`--dump-pass-pipeline`)."""
    elements: list[ModulePass | PassManager] = []
    for element in pm.elements:
        if isinstance(element, PassManager):
            elements.append(expanded(element))
            continue
        stages = getattr(element, "stages", None)
        if callable(stages):
            elements += expanded(PassManager(pm.anchor, list(stages()))).elements
        else:
            elements.append(element)
    return PassManager(pm.anchor, elements)


def parse_pass_pipeline(
    text: str,
    passes: dict[str, PassFactory],
    is_op: Callable[[str], bool] | None = None,
) -> PassManager:
    """The pipeline `text` names: `builtin.module(…)`, or a flat list of passes (a
    `builtin.module` pipeline whose `OpPass`es walk the module for their ops). `passes` maps names to
    factories; `is_op` tells whether an anchor names an op (None: any name does)."""
    elements = PipelineReader(text).read()
    if len(elements) == 1 and isinstance(elements[0], Nested):
        top = elements[0]
        if top.anchor not in (MODULE, ANY):
            raise PipelineError(
                f"a pass pipeline runs on '{MODULE}', not on '{top.anchor}': write "
                f"{MODULE}({top.anchor}(…))"
            )
        return build(top.anchor, top.elements, passes, is_op, implicit=False)
    pm = build(MODULE, elements, passes, is_op, implicit=True)
    pm.flat = True
    return pm


@dataclass
class Leaf:
    text: str
    at: int


@dataclass
class Nested:
    anchor: str
    elements: list[Leaf | Nested]
    at: int


def build(
    anchor: str,
    elements: Sequence[Leaf | Nested],
    passes: dict[str, PassFactory],
    is_op: Callable[[str], bool] | None,
    implicit: bool,
) -> PassManager:
    pm = PassManager(anchor)
    for element in elements:
        if isinstance(element, Nested):
            if element.anchor in passes:
                raise PipelineError(
                    f"'{element.anchor}' at column {element.at + 1} is a pass, not an op: a "
                    "nested pipeline is anchored on an op (func.func(cse)), a pass takes its "
                    "options in braces (cse{…})"
                )
            if element.anchor != ANY and is_op is not None and not is_op(element.anchor):
                raise PipelineError(
                    f"'{element.anchor}' at column {element.at + 1} is neither a pass nor an "
                    "op to nest a pipeline on"
                )
            pm.elements.append(build(element.anchor, element.elements, passes, is_op, False))
            continue
        p = make_pass(element, passes)
        runs_on = op_name_of(p)
        if implicit or not isinstance(p, OpPass) or runs_on in (anchor, ANY):
            pm.elements.append(p)  # a module pass runs anywhere; a flat list's op pass walks
            continue
        raise PipelineError(
            f"pass '{p.name}' runs on '{runs_on}' ops, not on '{anchor}': did you mean "
            f"{anchor}({runs_on}({p.name}))?"
        )
    return pm


def make_pass(leaf: Leaf, passes: dict[str, PassFactory]) -> ModulePass:
    try:
        spec = parse_spec(leaf.text)
    except ArgSpecParseError as e:
        raise PipelineError(str(e).rstrip()) from None
    factory = passes.get(spec.name)
    if factory is None:
        import difflib  # only on this error path

        close = difflib.get_close_matches(spec.name, list(passes), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise UnknownPass(spec.name, hint)
    cls = factory()
    unquoted = unquoted_option(cls, spec.name, spec.parameters)
    if unquoted is not None:
        raise BadOptions(unquoted)
    try:
        return cls.from_spec(spec)
    except (ValueError, TypeError, ArgSpecParseError, DiagnosticException) as e:
        raise BadOptions(str(e)) from e


def unquoted_option(cls: type[ModulePass], name: str, parameters: dict) -> str | None:
    """What is wrong when an option that takes one text (a nested pipeline:
    `split-apply{device-pipeline=…}`) got several comma-separated values, or None."""
    fields = (
        {f.name: f.type for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    )
    for option, values in parameters.items():
        if len(values) > 1 and fields.get(option.replace("-", "_")) in ("str", str):
            text = ",".join(str(v) for v in values)
            return (
                f"option '{option}' of {name} takes one text, got {len(values)} values: quote a "
                f'nested pipeline, as in {name}{{{option}="{text}"}}'
            )
    return None


class PipelineReader:
    """Splits a pipeline's text into passes (`name{options}`, read by xDSL's spec parser) and
    nested pipelines (`anchor(…)`), with the column of each for errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str, at: int | None = None) -> PipelineError:
        column = (self.pos if at is None else at) + 1
        return PipelineError(f"{message} at column {column} of '{self.text}'")

    def read(self) -> list[Leaf | Nested]:
        elements = self.elements()
        if self.pos < len(self.text):
            raise self.fail(f"unexpected '{self.text[self.pos]}'")
        return elements

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def elements(self) -> list[Leaf | Nested]:
        found: list[Leaf | Nested] = []
        self.skip_space()
        if self.pos >= len(self.text) or self.text[self.pos] == ")":
            return found
        while True:
            found.append(self.element())
            self.skip_space()
            if self.pos < len(self.text) and self.text[self.pos] == ",":
                self.pos += 1
                continue
            return found

    def element(self) -> Leaf | Nested:
        self.skip_space()
        start = self.pos
        while self.pos < len(self.text) and (
            self.text[self.pos].isalnum() or self.text[self.pos] in "_-."
        ):
            self.pos += 1
        name = self.text[start : self.pos]
        if not name:
            if self.pos >= len(self.text):
                raise self.fail("expected a pass name")
            raise self.fail(f"expected a pass name, found '{self.text[self.pos]}'")
        self.skip_space()
        if self.pos < len(self.text) and self.text[self.pos] == "(":
            self.pos += 1
            inner = self.elements()
            self.skip_space()
            if self.pos >= len(self.text) or self.text[self.pos] != ")":
                raise self.fail(f"expected ')' to close '{name}('", start)
            self.pos += 1
            return Nested(name, inner, start)
        if self.pos < len(self.text) and self.text[self.pos] == "{":
            self.skip_options(self.pos)
        return Leaf(self.text[start : self.pos].strip(), start)

    def skip_options(self, start: int) -> None:
        """Past the `{…}` at pos: braces may nest, quoted text may hold anything."""
        depth = 0
        quote: str | None = None
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if quote is not None:
                if char == "\\":
                    self.pos += 1
                elif char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return
        raise self.fail("unclosed '{' of the options", start)


# --- running -----------------------------------------------------------------------------------


def apply_pass(ctx: Context, op: Operation, p: ModulePass) -> None:
    """`p` on `op`, without instrumentation: an `OpPass` on its op, a module pass on a module
    (around `op` when `op` is not one)."""
    if isinstance(p, OpPass):
        if p.op_name in (ANY, op.name):
            p.run_on_operation(ctx, op)
        else:
            p.apply(ctx, op)  # type: ignore[arg-type]  # OpPass.apply walks any op
        return
    if isinstance(op, ModuleOp):
        p.apply(ctx, op)
        return
    with module_around(op) as module:
        p.apply(ctx, module)


@contextmanager
def module_around(op: Operation) -> Iterator[ModuleOp]:
    """A module that holds `op` for the block; then its ops (`op`, or what replaced it, and
    whatever was added) go back where `op` was."""
    block = op.parent_block()
    anchor = op.next_op
    if block is not None:
        op.detach()
    module = ModuleOp([op])
    try:
        yield module
    finally:
        moved = list(module.ops)
        for inner in moved:
            inner.detach()
        if block is not None and anchor is not None:
            block.insert_ops_before(moved, anchor)
        elif block is not None:
            block.add_ops(moved)


def apply_elements(ctx: Context, op: Operation, pm: PassManager) -> None:
    for element in pm.elements:
        if isinstance(element, PassManager):
            for inner in nested_ops(op, element.anchor):
                apply_elements(ctx, inner, element)
        else:
            apply_pass(ctx, op, element)


def nested_ops(op: Operation, anchor: str) -> list[Operation]:
    """The ops a nested pass manager runs on: those directly in `op`'s regions named `anchor`
    (`any`: all of them), listed before the first runs."""
    return [
        inner
        for region in op.regions
        for block in region.blocks
        for inner in block.ops
        if anchor == ANY or inner.name == anchor
    ]


class PathKey(NamedTuple):
    """One step of a pass's place in the run: its index among its siblings and its name (a
    pass's display name, or `'func.func' Pipeline` for a nested pass manager)."""

    index: int
    name: str


Path = tuple[PathKey, ...]


class PassInstrumentation:
    """Hooks around each pass the `Execution` runs (MLIR's `PassInstrumentation`). `path` is
    the pass's place in the run: the same pass at the same place has the same path each time
    it runs (on each function, each chunk)."""

    def run_before_pipeline(self, anchor: str, op: Operation | None, path: Path) -> None:
        """Before a nested pass manager runs on `op` (None: a section of the tool's own,
        `Execution.section`, which may run composite passes)."""

    def run_after_pipeline(self, anchor: str, op: Operation | None, path: Path) -> None:
        """After it ran on `op` (or failed)."""

    def run_before_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        """Before `p` runs on `op`."""

    def check_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        """After `p` ran on `op` and the result verified, before `run_after_pass`: an error
        raised here is `p`'s failure (as a result that does not verify is), with the failure
        hooks and the reproducer (`--check-semantics`)."""

    def run_after_pass(self, p: ModulePass, op: Operation, path: Path) -> None:
        """After `p` ran on `op` and the result verified."""

    def run_after_pass_failed(
        self, p: ModulePass, op: Operation, path: Path, error: BaseException
    ) -> None:
        """After `p` raised, or its result did not verify. Called for the innermost failing
        pass; the composite passes around it get `run_after_pass_failed` with the same error
        (`failure_of(error)` says which pass it was)."""


@dataclass(frozen=True)
class Failure:
    """What a pass failure carries up: the pass, the op it ran on, its place, and whether the
    pass itself succeeded but its result does not verify."""

    pass_: ModulePass
    op: Operation
    path: Path
    invalid_result: bool


FAILURE_ATTR = "gpuir_pass_failure"


def failure_of(error: BaseException) -> Failure | None:
    """The innermost pass that `error` came out of, when a pass manager ran it."""
    return getattr(error, FAILURE_ATTR, None)


@dataclass
class Frame:
    path: Path
    children: int = 0

    def child(self, name: str) -> Path:
        key = PathKey(self.children, name)
        self.children += 1
        return (*self.path, key)


@dataclass
class Execution:
    """One run of pipelines with instrumentation. While it is active (`with execution:`), the
    composite passes' stages (`run_pass`, `run_pipeline`) are instrumented passes too.

    `verify_each`: verify the op a pass ran on after each pass (MLIR's default); a result that
    does not verify is that pass's failure. Not after a pass that declares it leaves the IR as
    it is (`preserves_ir`: the check passes), which cannot have broken what verified before, as
    MLIR skips the verifier after a pass that preserved all analyses."""

    instrumentations: list[PassInstrumentation] = field(default_factory=list[PassInstrumentation])
    verify_each: bool = True
    frames: list[Frame] = field(default_factory=lambda: [Frame(())])

    def __enter__(self) -> Execution:
        _executions.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        _executions.remove(self)

    def run(self, ctx: Context, op: Operation, pm: PassManager) -> None:
        """Run `pm` on `op` (a top-level pipeline): a fresh place for its passes."""
        self.frames = [Frame(())]
        with self:
            self.run_elements(ctx, op, pm)

    @contextmanager
    def section(self, label: str) -> Iterator[None]:
        """A phase of the tool's own (gpu-opt's `Output`, gpu-run's `Execution`) that may run
        composite passes (a target's or a provider's lowering): a node of its own in the
        reports, with what ran inside it. Their stages are not verified one by one: a
        lowering's IR need not verify between its stages (the host's, marked as lowering)."""
        path = self.frames[-1].child(label)
        for instrumentation in self.instrumentations:
            instrumentation.run_before_pipeline(label, None, path)
        self.frames.append(Frame(path))
        verify_each, self.verify_each = self.verify_each, False
        try:
            with self:
                yield
        finally:
            self.verify_each = verify_each
            self.frames.pop()
            for instrumentation in self.instrumentations:
                instrumentation.run_after_pipeline(label, None, path)

    def run_elements(self, ctx: Context, op: Operation, pm: PassManager) -> None:
        for element in pm.elements:
            if isinstance(element, PassManager):
                self.run_nested(ctx, op, element)
            else:
                self.run_pass(ctx, op, element)

    def run_nested(
        self, ctx: Context, op: Operation, pm: PassManager, label: str | None = None
    ) -> None:
        """`pm` on each op of its anchor directly inside `op`; `label` overrides its name."""
        path = self.frames[-1].child(label or f"'{pm.anchor}' Pipeline")
        for inner in nested_ops(op, pm.anchor):
            self.run_pipeline_on(ctx, inner, pm, path)

    def run_pipeline_on(self, ctx: Context, op: Operation, pm: PassManager, path: Path) -> None:
        for instrumentation in self.instrumentations:
            instrumentation.run_before_pipeline(pm.anchor, op, path)
        self.frames.append(Frame(path))
        try:
            self.run_elements(ctx, op, pm)
        finally:
            self.frames.pop()
            for instrumentation in self.instrumentations:
                instrumentation.run_after_pipeline(pm.anchor, op, path)

    def run_pass(self, ctx: Context, op: Operation, p: ModulePass) -> None:
        path = self.frames[-1].child(display_name(p))
        for instrumentation in self.instrumentations:
            instrumentation.run_before_pass(p, op, path)
        self.frames.append(Frame(path))
        invalid_result = False
        try:
            apply_pass(ctx, op, p)
            if self.verify_each and not preserves_ir(p):
                invalid_result = True
                verify(op)
                invalid_result = False
            for instrumentation in self.instrumentations:
                instrumentation.check_after_pass(p, op, path)
        except BaseException as error:
            self.frames.pop()
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            if failure_of(error) is None:
                try:
                    setattr(error, FAILURE_ATTR, Failure(p, op, path, invalid_result))
                except AttributeError:  # an exception that takes no attributes
                    pass
            for instrumentation in self.instrumentations:
                instrumentation.run_after_pass_failed(p, op, path, error)
            raise
        self.frames.pop()
        for instrumentation in self.instrumentations:
            instrumentation.run_after_pass(p, op, path)


def preserves_ir(p: ModulePass | type[ModulePass]) -> bool:
    """Whether the pass `p` (or the pass class `p`) declares that it leaves the IR as it is
    (`PRESERVES_IR = True` on its class: an analysis that only reports, MLIR's pass that
    preserves all analyses)."""
    cls = p if isinstance(p, type) else type(p)
    return getattr(cls, "PRESERVES_IR", False) is True


def verify(op: Operation) -> None:
    from gpuir.ir.verifier import verify_ops

    verify_ops(op)


_executions: list[Execution] = []


def active_execution() -> Execution | None:
    return _executions[-1] if _executions else None


def run_pass(ctx: Context, op: Operation, p: ModulePass) -> None:
    """Run `p` on `op` as a stage of the pass running now: instrumented under an active
    `Execution`, else a plain `apply`."""
    execution = active_execution()
    if execution is None:
        apply_pass(ctx, op, p)
    else:
        execution.run_pass(ctx, op, p)


def run_passes(ctx: Context, op: Operation, passes: Sequence[ModulePass]) -> None:
    """`run_pass` of each of `passes`, in order."""
    for p in passes:
        run_pass(ctx, op, p)


def run_pipeline(ctx: Context, op: Operation, pm: PassManager, label: str | None = None) -> None:
    """Run `pm` on `op` itself (a sub-pipeline of the running pass: `split-apply`'s on `@host`),
    instrumented under an active `Execution`; `label` names it in reports."""
    execution = active_execution()
    if execution is None:
        apply_elements(ctx, op, pm)
        return
    path = execution.frames[-1].child(label or f"'{pm.anchor}' Pipeline")
    execution.run_pipeline_on(ctx, op, pm, path)


class Timer:
    """Wall and CPU time since `start` (for the timing instrumentation)."""

    __slots__ = ("wall", "user")

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.user = time.process_time()

    def elapsed(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.user
