"""gpu-reduce: shrink a gpuir program while a test still finds it interesting.

The interface is llvm-reduce's: `gpu-reduce FILE --test CMD [--test-arg A]... -o OUT` runs
`CMD A... CANDIDATE` on each candidate and keeps it when the command exits 0 ("interesting").
mlir-reduce differs: it takes the test as `-test=CMD -test-arg=A` and names the interesting
exit status 1, not 0. Built-in tests (`--crash`, `--diagnostic`, `--race`, `--disagree`,
`--semantics-change`) spare a script for the common cases.

The IR-aware strategies below each propose edits of the best program so far; every candidate
is printed, parsed and verified as gpu-opt would (a candidate that does not verify is never
tested) and must be smaller (`size()`) than the best. A text pass (picire's ddmin over lines,
its rounds tested `-j` at a time) comes after them. docs/debugging-passes.md, "Reducing a
test case: gpu-reduce", is the guide.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from gpuir.dialects.mem import MemType

PROG = "gpu-reduce"
CRASH = re.compile(r"gpu-opt: internal error in pass '([^']*)'")


class ReduceError(Exception):
    """A user error: its message is the one line gpu-reduce prints before exiting with 1."""


# Reading and printing candidates ---------------------------------------------------------------


_CONTEXT = None


def context():
    """The parsing context gpu-opt uses (gpuir's dialects, xDSL's, llvm's extension ops)."""
    global _CONTEXT
    if _CONTEXT is None:
        from gpuir.dialects import make_context

        def llvm_extension_ops():
            from gpuir.lowering.llvm_ext import LLVM_EXTENSION_OPS

            return LLVM_EXTENSION_OPS

        _CONTEXT = make_context(extra_ops={"llvm": llvm_extension_ops})
    return _CONTEXT


def read_module(text: str, name: str) -> ModuleOp:
    """Parse and verify `text` as gpu-opt does; raise on any failure."""
    from gpuir.ir.locating_parser import LocatingParser
    from gpuir.ir.verifier import verify_input, verify_ops

    module = LocatingParser(context(), text, name).parse_module()
    verify_ops(module)
    verify_input(module)
    return module


def try_read(text: str) -> ModuleOp | None:
    """The module `text` holds if it parses and verifies, else None."""
    try:
        return read_module(text, "<candidate>")
    except Exception:  # noqa: BLE001  # any failure means: not a valid candidate
        return None


def print_module(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue() + "\n"


ARRAY_SIZE = re.compile(r"array<(\d+) x")


def size(module: ModuleOp, text: str) -> tuple[int, int, int, int]:
    """What a reduction makes smaller, most important first: ops that are not constants, all
    ops, the magnitude of integer constants and array sizes, the text's length."""
    ops = list(module.walk())
    non_constant = sum(op.name != "arith.constant" for op in ops)
    magnitude = sum(int(n) for n in ARRAY_SIZE.findall(text))
    for op in ops:
        value = op.properties.get("value")
        if op.name == "arith.constant" and isinstance(value, IntegerAttr):
            magnitude += abs(value.value.data)
    return non_constant, len(ops), magnitude, len(text)


# Edits that keep the IR valid ------------------------------------------------------------------


def is_token(value: SSAValue) -> bool:
    return isinstance(value.type, MemType)


def rethread_source(op: Operation, result: OpResult) -> SSAValue | None:
    """The operand a token result's uses take when `op` goes: the first of the same type."""
    return next((v for v in op.operands if v.type == result.type), None)


def erasable(op: Operation) -> bool:
    """`op` can go: not a function, module or terminator; its values are unused, and each
    used token it returns can be rethreaded to a token operand of its type."""
    if (
        op.parent is None
        or op.name in ("func.func", "builtin.module")
        or op.has_trait(IsTerminator)
    ):
        return False
    for result in op.results:
        if result.uses and (not is_token(result) or rethread_source(op, result) is None):
            return False
    return True


def erase(op: Operation, cascade: bool = True) -> None:
    """Erase `op` (which must be `erasable`), rethreading its tokens, then (`cascade`) the ops
    that only fed it values (not tokens) and are now unused, transitively."""
    for result in op.results:
        if result.uses:
            source = rethread_source(op, result)
            assert source is not None
            result.replace_all_uses_with(source)
    fed = [v.op for v in op.operands if isinstance(v, OpResult) and not is_token(v)]
    op.detach()
    op.erase()
    for producer in fed if cascade else []:
        has_value = any(not is_token(r) for r in producer.results)
        if has_value and producer.parent is not None and erasable(producer):
            erase(producer)


def symbol_uses(module: ModuleOp) -> set[str]:
    """The leaf names of every symbol reference in `module` (calls, launches, ...)."""
    names: set[str] = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, SymbolRefAttr):
                names.add((attr.nested_references.data or (attr.root_reference,))[-1].data)
    return names


def functions(module: ModuleOp) -> list[Operation]:
    return [op for op in module.walk() if op.name == "func.func"]


def symbol_name(function: Operation) -> str:
    return function.properties["sym_name"].data  # type: ignore[union-attr]


def constant(value: int | float, type_: Attribute) -> Operation | None:
    from xdsl.dialects.arith import ConstantOp

    if isinstance(type_, IntegerType | IndexType):
        return ConstantOp(IntegerAttr(int(value), type_))
    if isinstance(type_, AnyFloat):
        return ConstantOp(FloatAttr(float(value), type_))
    return None


# Strategies: each lists its targets in the module and applies one of them to a clone ----------


@dataclass(frozen=True)
class Strategy:
    """One kind of reduction. `targets(module)` lists what it could do, as (op index in walk
    order, variant) pairs; `apply(op, variant)` does one on a clone and says whether it could.
    A `chunked` strategy first tries many targets at once (ddmin's coarse steps)."""

    name: str
    targets: Callable[[ModuleOp], list[tuple[int, int]]]
    apply: Callable[[Operation, int], bool]
    chunked: bool = False


def walk_targets(module: ModuleOp, variants: Callable[[Operation], int]) -> list[tuple[int, int]]:
    return [(i, v) for i, op in enumerate(module.walk()) for v in range(variants(op))]


def unused_function_targets(module: ModuleOp) -> list[tuple[int, int]]:
    used = symbol_uses(module)

    def unused(op: Operation) -> int:
        name = op.properties.get("sym_name") if op.name == "func.func" else None
        return int(name is not None and name.data not in used and name.data != "main")

    return walk_targets(module, unused)


def erase_function(op: Operation, _: int) -> bool:
    op.detach()
    op.erase(safe_erase=False)
    return True


def dead_op_targets(module: ModuleOp) -> list[tuple[int, int]]:
    """Each op whose values are unused: first with the ops that only fed it (variant 0), then
    alone (variant 1), the last op first (so that a chunk's cascades take whole chains)."""
    dead = [i for i, _ in reversed(walk_targets(module, lambda op: int(erasable(op))))]
    return [(i, 0) for i in dead] + [(i, 1) for i in dead]


def erase_op(op: Operation, variant: int) -> bool:
    if not erasable(op):  # an earlier edit of the same chunk changed it
        return False
    erase(op, cascade=variant == 0)
    return True


def branch_targets(module: ModuleOp) -> list[tuple[int, int]]:
    return walk_targets(module, lambda op: 2 if op.name == "scf.if" else 0)


def take_branch(op: Operation, which: int) -> bool:
    region = op.regions[which]
    if not region.blocks:
        if op.results:
            return False
        op.detach()
        op.erase()
        return True
    block = region.blocks[0]
    terminator = block.last_op
    assert terminator is not None and op.parent is not None
    for inner in list(block.ops)[:-1]:
        inner.detach()
        op.parent.insert_op_before(inner, op)
    for result, value in zip(op.results, terminator.operands, strict=True):
        result.replace_all_uses_with(value)
    condition = op.operands[0]
    op.detach()
    op.erase()
    if isinstance(condition, OpResult) and erasable(condition.op):
        erase(condition.op)
    return True


def value_variants(op: Operation) -> int:
    """Per used value that is not a token: 0: the constant 0, 1: the constant 1, 2: an earlier
    value of its type, 3 + k: the op's operand k (which skips just this op)."""
    return 3 + len(op.operands)


def value_targets(module: ModuleOp) -> list[tuple[int, int]]:
    """Each value of each op that is not a token: as a constant, an operand or another value."""

    def variants(op: Operation) -> int:
        if op.name == "func.func" or op.has_trait(IsTerminator) or op.regions:
            return 0
        values = [r for r in op.results if not is_token(r) and r.uses]
        return value_variants(op) * len(values)

    return walk_targets(module, variants)


def replace_value(op: Operation, variant: int) -> bool:
    values = [r for r in op.results if not is_token(r) and r.uses]
    value, kind = values[variant // value_variants(op)], variant % value_variants(op)
    if kind >= 3:
        replacement = op.operands[kind - 3]
        if replacement.type != value.type:
            return False
    elif kind < 2:
        if op.name == "arith.constant":
            return False
        new = constant(kind, value.type)
        if new is None or (kind == 1 and not isinstance(value.type, IntegerType | IndexType)):
            return False
        assert op.parent is not None
        op.parent.insert_op_before(new, op)
        replacement = new.results[0]
    else:
        found = earlier_value(op, value)
        if found is None:
            return False
        replacement = found
    value.replace_all_uses_with(replacement)
    if erasable(op):
        erase(op)
    return True


def earlier_value(op: Operation, value: SSAValue) -> SSAValue | None:
    """The first value of `value`'s type that is defined before `op` in its block or an
    enclosing one (the verifier checks the dominance)."""
    current: Operation | None = op
    while current is not None and current.parent is not None:
        block = current.parent
        candidates: list[SSAValue] = list(block.args)
        for before in block.ops:
            if before is current:
                break
            candidates.extend(before.results)
        for candidate in candidates:
            if candidate is not value and candidate.type == value.type:
                return candidate
        current = block.parent_op()
        if current is not None and current.name == "func.func":
            return None
    return None


def constant_targets(module: ModuleOp) -> list[tuple[int, int]]:
    """Integer constants larger than 1 (loop bounds, group counts, extents): 1, then half."""

    def variants(op: Operation) -> int:
        value = op.properties.get("value")
        big = isinstance(value, IntegerAttr) and abs(value.value.data) > 1
        return 2 if op.name == "arith.constant" and big else 0

    return walk_targets(module, variants)


def shrink_constant(op: Operation, variant: int) -> bool:
    value = op.properties["value"]
    assert isinstance(value, IntegerAttr)
    n = value.value.data
    op.properties["value"] = IntegerAttr(1 if variant == 0 else n // 2, value.type)
    return True


def argument_targets(module: ModuleOp) -> list[tuple[int, int]]:
    """Unused arguments and results of functions but @main: variant 2i drops argument i,
    2i+1 drops result i (where no call uses it)."""

    def variants(op: Operation) -> int:
        if op.name != "func.func" or not op.regions[0].blocks:
            return 0
        name = op.properties["sym_name"]
        if name.data == "main":  # type: ignore[union-attr]
            return 0
        function_type = op.properties["function_type"]
        assert isinstance(function_type, FunctionType)
        return 2 * max(len(function_type.inputs), len(function_type.outputs))

    return walk_targets(module, variants)


def drop_argument_or_result(op: Operation, variant: int) -> bool:
    from xdsl.dialects.func import CallOp

    from gpuir.dialects.gpu import LaunchOp

    index, is_result = variant // 2, variant % 2 == 1
    function_type = op.properties["function_type"]
    assert isinstance(function_type, FunctionType)
    inputs, outputs = list(function_type.inputs), list(function_type.outputs)
    if index >= (len(outputs) if is_result else len(inputs)):
        return False
    name = op.properties["sym_name"].data  # type: ignore[union-attr]
    module = op.get_toplevel_object()
    users = [u for u in module.walk() if isinstance(u, CallOp | LaunchOp) and callee(u) == name]
    body = op.regions[0].blocks[0]
    if is_result:
        if any(isinstance(u, LaunchOp) or u.results[index].uses for u in users):
            return False
        for block in op.regions[0].blocks:
            ret = block.last_op
            if ret is not None and ret.name == "func.return":
                rebuild(ret, [v for i, v in enumerate(ret.operands) if i != index])
        del outputs[index]
    else:
        if body.args[index].uses:
            return False
        body.erase_arg(body.args[index])
        del inputs[index]
    op.properties["function_type"] = FunctionType.from_lists(inputs, outputs)
    for user in users:
        if isinstance(user, LaunchOp):
            if is_result or not drop_launch_argument(user, op, index):
                return False
            continue
        if is_result:
            new = CallOp(user.callee, user.operands, outputs)
            kept = [r for i, r in enumerate(user.results) if i != index]
        else:
            args = [v for i, v in enumerate(user.operands) if i != index]
            new = CallOp(user.callee, args, outputs)
            kept = list(user.results)
        replace_op(user, new, kept)
    return True


def callee(op: Operation) -> str:
    ref = op.properties.get("callee") or op.properties.get("kernel")
    assert isinstance(ref, SymbolRefAttr)
    return (ref.nested_references.data or (ref.root_reference,))[-1].data


def drop_launch_argument(launch: Operation, kernel: Operation, index: int) -> bool:
    from gpuir.dialects.gpu import LaunchOp

    assert isinstance(launch, LaunchOp)
    prefix = 7 if launch.smem is not None else 6  # tokens, ids, the shared pointer
    if index < prefix:
        return False
    args = [v for i, v in enumerate(launch.args) if i != index - prefix]
    extent = launch.smem_extent
    new = LaunchOp(
        launch.kernel,
        launch.n_groups,
        launch.n_items,
        launch.stream,
        [launch.m0, launch.m1, launch.m4],
        args,
        launch.smem,
        extent if extent is not None else None,
    )
    replace_op(launch, new, list(launch.results))
    return True


def rebuild(op: Operation, operands: Sequence[SSAValue]) -> None:
    new = op.__class__.create(
        operands=operands,
        result_types=[r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    replace_op(op, new, list(op.results))


def replace_op(old: Operation, new: Operation, old_results: Sequence[OpResult]) -> None:
    """Put `new` where `old` is; `old_results[i]`'s uses take `new`'s result i."""
    assert old.parent is not None
    old.parent.insert_op_before(new, old)
    for result, replacement in zip(old_results, new.results, strict=True):
        result.replace_all_uses_with(replacement)
    for result in old.results:
        if result.uses:
            return  # a dropped result still used: the verifier rejects the candidate
    old.detach()
    old.erase()


def function_table(module: ModuleOp) -> dict[str, list[Operation]]:
    """The functions of `module` by name (a name defined twice lists both)."""
    table: dict[str, list[Operation]] = {}
    for function in functions(module):
        table.setdefault(symbol_name(function), []).append(function)
    return table


def inline_source(call: Operation, table: dict[str, list[Operation]]) -> Operation | None:
    """The function whose body can take the place of `call`: the one function of its name,
    with a single block, not enclosing the call and not calling itself; else None."""
    if call.name != "func.call":
        return None
    name = callee(call)
    found = table.get(name, [])
    if len(found) != 1 or len(found[0].regions[0].blocks) != 1 or found[0].is_ancestor(call):
        return None
    function = found[0]
    if any(op.name == "func.call" and callee(op) == name for op in function.walk()):
        return None
    return function


def inline_targets(module: ModuleOp) -> list[tuple[int, int]]:
    """Each call of a function of the module that `inline_source` accepts."""
    table = function_table(module)
    return walk_targets(module, lambda op: int(inline_source(op, table) is not None))


def inline_call(call: Operation, _: int) -> bool:
    """Put a clone of the callee's body in place of `call` (its arguments are the call's
    operands, the call's results the values it returns), then drop the callee if nothing
    names it any more (but @main), so that the candidate is smaller."""
    module = call.get_toplevel_object()
    if not isinstance(module, ModuleOp):  # its function went with an earlier edit of the chunk
        return False
    function = inline_source(call, function_table(module))
    if function is None or call.parent is None:
        return False
    body = function.regions[0].blocks[0]
    returned = body.last_op
    if returned is None or returned.name != "func.return":
        return False
    mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, call.operands, strict=True))
    for op in list(body.ops)[:-1]:
        call.parent.insert_op_before(op.clone(value_mapper=mapping), call)
    for result, value in zip(call.results, returned.operands, strict=True):
        result.replace_all_uses_with(mapping.get(value, value))
    call.detach()
    call.erase()
    name = symbol_name(function)
    if name != "main" and name not in symbol_uses(module):
        erase_function(function, 0)
    return True


def attribute_targets(module: ModuleOp) -> list[tuple[int, int]]:
    return walk_targets(module, lambda op: len(op.attributes))


def strip_attribute(op: Operation, variant: int) -> bool:
    keys = sorted(op.attributes)
    if variant >= len(keys):
        return False
    del op.attributes[keys[variant]]
    return True


STRATEGIES = (
    Strategy("unused functions", unused_function_targets, erase_function, chunked=True),
    Strategy("dead ops", dead_op_targets, erase_op, chunked=True),
    Strategy("inline calls", inline_targets, inline_call, chunked=True),
    Strategy("scf.if branches", branch_targets, take_branch),
    Strategy("function arguments", argument_targets, drop_argument_or_result),
    Strategy("values", value_targets, replace_value),
    Strategy("constants", constant_targets, shrink_constant),
    Strategy("attributes", attribute_targets, strip_attribute, chunked=True),
)
"""In the order they run, each round; locations go with the first candidate printed."""


# Tests: what makes a candidate interesting ----------------------------------------------------


def tool(name: str) -> list[str]:
    """The command of a gpuir tool of this installation: `python -m gpuir.tools.<name>`."""
    return [sys.executable, "-m", f"gpuir.tools.{name.replace('-', '_')}"]


@dataclass
class Test:
    """Commands to run on a candidate's path, and what in their results is interesting."""

    description: str
    commands: list[list[str]]
    judge: Callable[[list[subprocess.CompletedProcess[str]]], bool]
    timeout: float = 60.0
    first: Callable[[list[subprocess.CompletedProcess[str]]], None] | None = None

    def run(self, path: str) -> bool:
        results = []
        for command in self.commands:
            try:
                results.append(
                    subprocess.run(
                        [*command, path],
                        capture_output=True,
                        text=True,
                        errors="replace",
                        timeout=self.timeout,
                        stdin=subprocess.DEVNULL,
                    )
                )
            except subprocess.TimeoutExpired:
                return False
        return self.judge(results)


def script_test(command: str, args: Sequence[str]) -> Test:
    return Test(f"`{command}` exits 0", [[command, *args]], lambda rs: rs[0].returncode == 0)


def crash_test(spec: str) -> Test:
    words = shlex.split(spec)
    if not words or words[0] != "gpu-opt":
        raise ReduceError(f"{PROG}: error: --crash takes 'gpu-opt ARGS...', found '{spec}'")
    expected: list[str] = []

    def crashed_in(results: list[subprocess.CompletedProcess[str]]) -> str | None:
        found = CRASH.search(results[0].stderr)
        return found.group(1) if found else None

    def first(results: list[subprocess.CompletedProcess[str]]) -> None:
        name = crashed_in(results)
        if name is not None:
            expected.append(name)

    return Test(
        f"`{spec}` crashes in the same pass",
        [[*tool("gpu-opt"), *words[1:]]],
        lambda rs: crashed_in(rs) is not None and crashed_in(rs) == (expected or [None])[0],
        first=first,
    )


def diagnostic_test(pattern: str, pipeline: str) -> Test:
    try:
        regex = re.compile(pattern)
    except re.error as e:
        raise ReduceError(f"{PROG}: error: bad --diagnostic regex '{pattern}': {e}") from None
    return Test(
        f"`gpu-opt -p {pipeline}` prints a diagnostic matching /{pattern}/",
        [[*tool("gpu-opt"), "-p", pipeline]],
        lambda rs: regex.search(rs[0].stderr) is not None,
    )


def race_test() -> Test:
    return Test(
        "`gpu-run --provider interp` reports a race",
        [[*tool("gpu-run"), "--provider", "interp"]],
        lambda rs: re.search(r"\brace\b", rs[0].stderr) is not None,
    )


def disagree_test(providers: str) -> Test:
    names = providers.split(",")
    if len(names) != 2 or not all(names):
        raise ReduceError(
            f"{PROG}: error: --disagree takes two providers, 'A,B'; found '{providers}'"
        )

    def differ(rs: list[subprocess.CompletedProcess[str]]) -> bool:
        if any("internal error" in r.stderr for r in rs):  # a crash is another bug
            return False
        return (rs[0].returncode, rs[0].stdout) != (rs[1].returncode, rs[1].stdout)

    return Test(
        f"providers {names[0]} and {names[1]} disagree",
        [[*tool("gpu-run"), "--provider", name] for name in names],
        differ,
    )


def semantics_test(pipeline: str) -> Test:
    def failed(rs: list[subprocess.CompletedProcess[str]]) -> bool:
        return rs[0].returncode != 0 and "error: --check-semantics:" in rs[0].stderr

    return Test(
        f"`gpu-opt -p {pipeline} --check-semantics` fails",
        [
            [*tool("gpu-opt"), "--check-semantics", "-p", pipeline]
        ],  # the path must not follow the flag
        failed,
    )


# The reducer -----------------------------------------------------------------------------------


@dataclass
class Reducer:
    """Keeps the best candidate (text, module, size), writes it to `out` after each
    improvement, and runs candidates' tests `jobs` at a time."""

    test: Test
    out: str
    jobs: int
    workdir: str
    text: str
    module: ModuleOp
    tests_run: int = 0
    started: float = field(default_factory=time.monotonic)
    results: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.best = size(self.module, self.text)
        self.pool = ThreadPoolExecutor(max_workers=self.jobs)

    # running tests

    def interesting(self, texts: Sequence[str]) -> list[bool]:
        """The test's verdict on each text, in order (`jobs` at a time; each text once)."""
        fresh = [t for t in dict.fromkeys(texts) if t not in self.results]
        paths = []
        for i, text in enumerate(fresh):
            path = os.path.join(self.workdir, f"candidate-{i}.mlir")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            paths.append(path)
        for text, verdict in zip(fresh, self.pool.map(self.test.run, paths), strict=True):
            self.results[text] = verdict
            self.tests_run += 1
        return [self.results[t] for t in texts]

    def accept(self, text: str, module: ModuleOp, how: str) -> None:
        before = self.ops()
        self.text, self.module, self.best = text, module, size(module, text)
        write_atomically(self.out, text)
        self.progress(f"{how}: {before} -> {self.ops()} ops")

    def ops(self) -> int:
        return sum(1 for _ in self.module.walk())

    def progress(self, what: str) -> None:
        seconds = time.monotonic() - self.started
        print(
            f"{PROG}: {what} ({self.tests_run} tests run, {seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    # IR-aware strategies

    def candidate(self, strategy: Strategy, targets: Sequence[tuple[int, int]]) -> str | None:
        """The text of the best module with `targets` applied, if it verifies and is smaller
        and new; else None."""
        clone = self.module.clone()
        ops = list(clone.walk())
        picked = [(ops[i], variant) for i, variant in targets]
        changed = False
        try:
            for op, variant in picked:
                if op.parent is not None or op is clone:
                    changed |= strategy.apply(op, variant)
            text = print_module(clone)
        except Exception:  # noqa: BLE001  # an edit the IR does not allow: no candidate
            return None
        if not changed:
            return None
        if text in self.results:
            return None
        module = try_read(text)
        if module is None or size(module, text) >= self.best:
            return None
        return text

    def run_strategy(self, strategy: Strategy) -> bool:
        """Apply `strategy` until none of its targets gives an interesting candidate."""
        improved = False
        chunk = max(1, len(strategy.targets(self.module)) // 2) if strategy.chunked else 1
        while chunk >= 1:
            start = 0
            while True:
                targets = strategy.targets(self.module)
                if start >= len(targets):
                    break
                batch: list[tuple[int, str]] = []
                position = start
                while len(batch) < self.jobs and position < len(targets):
                    text = self.candidate(strategy, targets[position : position + chunk])
                    if text is not None:
                        batch.append((position, text))
                    position += chunk
                verdicts = self.interesting([text for _, text in batch])
                winner = next((b for b, ok in zip(batch, verdicts, strict=True) if ok), None)
                if winner is None:
                    start = position
                    continue
                start = winner[0]  # the targets after it moved up to here
                self.accept(winner[1], read_module(winner[1], self.out), strategy.name)
                improved = True
            chunk //= 2
        return improved

    def run_array_sizes(self) -> bool:
        """Shrink each static array size N (`!mem.array<N x T>`) to 1, else to N/2, in every
        type that names it at once (allocations, pointers, kernel parameters agree)."""
        improved = False
        for n in sorted({int(n) for n in ARRAY_SIZE.findall(self.text)}, reverse=True):
            texts = []
            for smaller in dict.fromkeys((1, n // 2)):
                if 0 < smaller < n:
                    text = self.text.replace(f"array<{n} x", f"array<{smaller} x")
                    module = try_read(text)
                    if module is not None and size(module, text) < self.best:
                        texts.append((text, module))
            verdicts = self.interesting([text for text, _ in texts])
            winner = next((t for t, ok in zip(texts, verdicts, strict=True) if ok), None)
            if winner is not None:
                self.accept(winner[0], winner[1], "array sizes")
                improved = True
        return improved

    def run_rounds(self) -> None:
        while any([self.run_strategy(s) for s in STRATEGIES] + [self.run_array_sizes()]):
            pass

    # the text pass

    def run_text_pass(self) -> bool:
        """picire's ddmin over the lines of the best text; each subset must verify. With
        `jobs` > 1 each of its rounds is tested `jobs` candidates at a time first."""
        import logging

        import picire

        logging.getLogger("picire").setLevel(logging.WARNING)
        lines = self.text.splitlines(keepends=True)
        verifies: dict[str, bool] = {self.text: True}

        def text_of(config: Sequence[int]) -> str:
            return "".join(lines[i] for i in config)

        def valid(text: str) -> bool:
            if text not in verifies:
                verifies[text] = try_read(text) is not None
            return verifies[text]

        def tester(config: Sequence[int], _config_id: object) -> object:
            text = text_of(config)
            if text not in self.results and not valid(text):
                return picire.Outcome.PASS
            return picire.Outcome.FAIL if self.interesting([text])[0] else picire.Outcome.PASS

        def prefetch(configs: Sequence[Sequence[int]]) -> None:
            self.test_in_batches([text_of(c) for c in configs], valid)

        kept = line_ddmin(tester, prefetch, self.jobs)(list(range(len(lines))))
        text = text_of(kept)
        module = try_read(text)
        if module is None or size(module, text) >= self.best:
            return False
        self.accept(text, module, "lines (picire)")
        return True

    def test_in_batches(self, texts: Sequence[str], valid: Callable[[str], bool]) -> None:
        """Learn the verdicts a sequential search over `texts` would ask for, `jobs` at a time:
        the valid untested ones up to the first interesting one (a batch may test a few after
        it)."""
        batch: list[str] = []
        for text in texts:
            if text in self.results:
                if self.results[text]:
                    break
                continue
            if text in batch or not valid(text):
                continue
            batch.append(text)
            if len(batch) == self.jobs:
                if any(self.interesting(batch)):
                    return
                batch = []
        if batch:
            self.interesting(batch)

    def run(self) -> None:
        self.run_rounds()
        while self.run_text_pass():
            self.run_rounds()


def line_ddmin(
    tester: Callable[[Sequence[int], object], object],
    prefetch: Callable[[Sequence[Sequence[int]]], None],
    jobs: int,
) -> Callable[[list[int]], list[int]]:
    """picire's ddmin (picire.DD). With `jobs` > 1, each round first hands the configurations
    DD will try, in its order, to `prefetch` (which tests them in parallel batches), then DD
    makes its choice as it would alone, from verdicts already known: the result is the same
    for any `jobs` and any timing. (picire.ParallelDD is not: when two running tests are
    interesting, the one that finishes last wins.)"""
    import picire

    if jobs == 1:
        return picire.DD(tester, cache=picire.ConfigCache())

    class BatchedDD(picire.DD):
        # `_reduce_config` is where picire.DD and picire.ParallelDD differ: one round's search
        def _reduce_config(
            self, run: int, subsets: list[list[int]], complement_offset: float
        ) -> tuple[list[list[int]] | None, float]:
            prefetch(ddmin_round(subsets, complement_offset))
            return super()._reduce_config(run, subsets, complement_offset)

    return BatchedDD(tester, cache=picire.ConfigCache())


def ddmin_round(subsets: Sequence[Sequence[int]], complement_offset: float) -> list[list[int]]:
    """The configurations one round of picire.DD tries, in order: each subset, then each
    complement, starting after the one removed last."""
    n = len(subsets)
    complements = []
    for k in range(n):
        i = int((k + complement_offset) % n)
        complements.append([c for j, s in enumerate(subsets) if j != i for c in s])
    return [list(s) for s in subsets] + complements


def write_atomically(path: str, text: str) -> None:
    """Replace `path` by `text` at once, so an interrupted run leaves a whole file."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


# Command line ----------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Reduce a gpuir program while a test still finds it interesting "
        "(llvm-reduce's interface: the test gets the candidate's path last; exit 0 = interesting).",
    )
    parser.add_argument("input_file", help="the program to reduce")
    parser.add_argument("-o", "--output", required=True, help="where the best candidate is kept")
    tests = parser.add_mutually_exclusive_group(required=True)
    tests.add_argument("--test", help="a command: exit 0 on the candidate means interesting")
    tests.add_argument("--crash", metavar="'gpu-opt ARGS'", help="gpu-opt crashes in a pass")
    tests.add_argument("--diagnostic", metavar="REGEX", help="gpu-opt prints a matching one")
    tests.add_argument("--race", action="store_true", help="gpu-run's interp reports a race")
    tests.add_argument("--disagree", metavar="A,B", help="two providers' results differ")
    tests.add_argument(
        "--semantics-change", metavar="PIPELINE", help="gpu-opt --check-semantics fails"
    )
    parser.add_argument("--test-arg", action="append", default=[], help="an argument of --test")
    parser.add_argument("--pipeline", default="gpu-pipeline", help="for --diagnostic")
    parser.add_argument(
        "--load-pass-plugin",
        action="append",
        default=[],
        metavar="FILE.py|MODULE",
        help="a plugin's dialects and passes, for reading the candidates and in every test "
        "(through $GPUIR_PLUGINS)",
    )
    parser.add_argument("-j", "--jobs", type=int, default=1, help="tests run at once (1)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per test (60)")
    return parser.parse_args(argv)


def make_test(args: argparse.Namespace) -> Test:
    if args.test is not None:
        return script_test(args.test, args.test_arg)
    if args.crash is not None:
        return crash_test(args.crash)
    if args.diagnostic is not None:
        return diagnostic_test(args.diagnostic, args.pipeline)
    if args.race:
        return race_test()
    if args.disagree is not None:
        return disagree_test(args.disagree)
    return semantics_test(args.semantics_change)


def first_line(error: BaseException) -> str:
    """The error in one line; a parse error as `file:line:col: message`, as gpu-opt says it."""
    from xdsl.utils.exceptions import ParseError

    if isinstance(error, ParseError):
        from gpuir.ir.source import format_parse_error

        return format_parse_error(error, 0).splitlines()[0].replace(": error: ", ": ", 1)
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def reduce(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise ReduceError(f"{PROG}: error: -j takes a positive number, found {args.jobs}")
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise ReduceError(f"{PROG}: error: the folder of '{args.output}' does not exist")
    try:
        with open(args.input_file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReduceError(f"{PROG}: error: cannot read '{args.input_file}': {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise ReduceError(f"{PROG}: error: cannot read '{args.input_file}': {e.reason}") from e
    try:
        module = read_module(text, args.input_file)
    except Exception as e:  # noqa: BLE001  # the parser's and verifiers' errors, as one line
        raise ReduceError(
            f"{PROG}: error: '{args.input_file}' does not parse and verify: {first_line(e)}"
        ) from e
    test = make_test(args)
    test.timeout = args.timeout
    with tempfile.TemporaryDirectory(prefix="gpu-reduce-") as workdir:
        path = os.path.join(workdir, os.path.basename(args.input_file))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        results = [
            subprocess.run(
                [*c, path], capture_output=True, text=True, errors="replace", timeout=args.timeout
            )
            for c in test.commands
        ]
        if test.first is not None:
            test.first(results)
        if not test.judge(results):
            raise ReduceError(
                f"{PROG}: error: the test is not interesting on '{args.input_file}' "
                f"(expected: {test.description})"
            )
        write_atomically(args.output, text)
        reducer = Reducer(test, args.output, args.jobs, workdir, text, module)
        reducer.tests_run = 1
        reducer.results[text] = True
        reducer.progress(f"start: {reducer.ops()} ops; the test: {test.description}")
        try:
            reducer.run()
        finally:
            reducer.pool.shutdown(wait=True, cancel_futures=True)
        reducer.progress(f"done: {reducer.ops()} ops, in '{args.output}'")
    return 0


def load_plugins(specs: list[str]) -> None:
    """Load the `--load-pass-plugin` plugins here (candidates may use their dialects) and
    hand them to every test through `$GPUIR_PLUGINS`."""
    if not specs:
        return
    from gpuir.ir.plugins import PLUGINS_ENV, PluginError
    from gpuir.ir.plugins import load_plugins as load

    specs = [os.path.abspath(spec) if os.path.exists(spec) else spec for spec in specs]
    try:
        load(specs)
    except PluginError as e:
        raise ReduceError(f"{PROG}: error: {e}") from e
    inherited = [s for s in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if s]
    os.environ[PLUGINS_ENV] = os.pathsep.join([*inherited, *specs])


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        load_plugins(args.load_pass_plugin)
        return reduce(args)
    except ReduceError as e:
        print(str(e), file=sys.stderr)
    except SystemExit as e:  # argparse: --help (0), or a usage error it printed (2)
        return 0 if e.code in (0, None) else 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; the best candidate so far is in the output", file=sys.stderr)
        return 130
    except subprocess.TimeoutExpired as e:
        print(
            f"{PROG}: error: the test timed out on the input after {e.timeout} s", file=sys.stderr
        )
    return 1


if __name__ == "__main__":
    sys.exit(main())
