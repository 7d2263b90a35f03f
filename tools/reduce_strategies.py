"""gpu-reduce's IR-aware reductions: each `Strategy` lists its targets in a module and applies
one edit (erase a dead op, replace a value, take a branch, drop an argument, inline a call, …);
the reducer keeps an edit when the candidate verifies, is smaller and is still interesting."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
from xdsl.traits import IsTerminator

from gpuir.dialects.mem import MemType


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
