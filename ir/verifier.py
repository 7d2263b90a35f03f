"""The checks of MLIR's verifier that xDSL's does not make, on every input after xDSL's own
(`gpu-opt`, `gpu-run`, `gpuir.compile`). Without them such IR verifies, and passes, lowerings
and the interpreter fail on it with internal errors. Each failure is an `OpError` at the op.

- SSA dominance: `gpuir.ir.dominance`;
- terminators: every block of a region (but a `NoTerminator` op's) ends with a terminator;
  xDSL checks that only for single-block regions, and the interpreter ran off the end of an
  empty last block of a function;
- `scf.if`: what each region's `scf.yield` yields has the op's result types (xDSL's parser gives
  a region without a terminator an empty `scf.yield`, and nothing compares them), and an
  `scf.if` with results has an else region;
- `scf.while`: its `scf.condition` passes values of its result types, and its `scf.yield`
  values of its operand types (xDSL compares only the regions' arguments);
- `llvm.extractvalue` / `llvm.insertvalue` (struct kernel arguments): the position names a
  field of the container, and the value extracted or inserted has that field's type (xDSL
  checks neither; the interpreter and the lowering failed on it);
- float attributes of `f80` / `f128` (an `arith.constant 1.0 : f128`): xDSL can neither print
  nor pack them, so every later step (printing the result, a diagnostic that shows the op, a
  lowering) failed without saying where.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import Float80Type, Float128Type, FloatAttr, UnregisteredOp
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import DiagnosticException

from gpuir.ir.diagnostics import OpError
from gpuir.ir.dominance import verify_dominance


def verify_ops(root: Operation) -> None:
    """xDSL's verifier on `root`, where a crash inside one op's verifier (an `assert` of
    xDSL's: `llvm.sext` to an `f64` asserts instead of saying so) is an `OpError` at that op,
    not an internal error."""
    try:
        root.verify()
    except DiagnosticException:
        raise
    except Exception as e:  # noqa: BLE001  # found again op by op below
        for op in root.walk():
            try:
                op.verify(verify_nested_ops=False)
            except DiagnosticException:
                raise
            except Exception as inner:  # noqa: BLE001
                why = f"{type(inner).__name__}: {inner}".rstrip(": ")
                raise OpError(
                    op, f"'{op.name}' does not verify (xDSL's verifier failed on it: {why})"
                ) from inner
        raise e


def verify_input(root: Operation) -> None:
    """Raise an `OpError` at the first op nested in `root` that one of the checks rejects."""
    for op in root.walk():
        if op.regions and not op.has_trait(NoTerminator):
            verify_terminators(op)
        if op.name == "scf.if":  # by name: importing xDSL's scf costs gpu-opt's start-up 20 ms
            verify_if(op)
        elif op.name == "scf.while":
            verify_while(op)
        elif op.name in ("llvm.extractvalue", "llvm.insertvalue"):
            verify_aggregate_access(op)
        verify_float_attributes(op)
    verify_dominance(root)


def verify_float_attributes(op: Operation) -> None:
    for attr in (*op.properties.values(), *op.attributes.values()):
        if isinstance(attr, FloatAttr) and isinstance(attr.type, Float80Type | Float128Type):
            raise OpError(
                op,
                f"'{op.name}' has a float attribute of type {attr.type}: gpuir supports float "
                "attributes of f16, bf16, f32 and f64 only (xDSL cannot print or store the "
                "wider ones)",
            )


def verify_terminators(op: Operation) -> None:
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None or not (
                last.has_trait(IsTerminator) or isinstance(last, UnregisteredOp)
            ):
                name = f"^{block.name_hint}" if block.name_hint else "a block"
                found = "is empty" if last is None else f"ends with '{last.name}'"
                raise OpError(
                    op if last is None else last,
                    f"{name} of '{op.name}' {found}: a block must end with a terminator",
                )


def expect_types(
    at: Operation, found: Sequence[SSAValue], expected: Sequence[SSAValue], message: str
) -> None:
    """An `OpError` at `at` when the values `found` are not of the types of `expected`;
    `message` names both lists of types as `{found}` and `{expected}`, each as `(T1, T2)`."""
    found_types = [v.type for v in found]
    expected_types = [v.type for v in expected]
    if found_types != expected_types:
        raise OpError(
            at,
            message.format(
                found=f"({', '.join(map(str, found_types))})",
                expected=f"({', '.join(map(str, expected_types))})",
            ),
        )


def verify_if(op: Operation) -> None:
    if op.results and not op.regions[1].blocks:
        raise OpError(op, f"'scf.if' has {len(op.results)} result(s), so it needs an else region")
    for which, region in (("then", op.regions[0]), ("else", op.regions[1])):
        last = region.blocks[-1].last_op if region.blocks else None
        if last is None or last.name != "scf.yield":
            continue  # xDSL's verifier reports a missing terminator
        # a yield the parser made is reported at the scf.if (source.py)
        expect_types(
            last,
            last.operands,
            op.results,
            f"'scf.if' has results {{expected}} but its {which} region yields {{found}}",
        )


def verify_while(op: Operation) -> None:
    """`scf.condition` passes the loop's results, `scf.yield` the before region's arguments
    (the loop's operands); each mismatch is reported at the terminator."""
    before, after = op.regions[0].blocks, op.regions[1].blocks
    condition = before[-1].last_op if before else None
    if condition is not None and condition.name == "scf.condition":
        expect_types(
            condition,
            condition.operands[1:],
            op.results,
            "'scf.condition' of 'scf.while' passes {found} but the loop has results {expected}",
        )
    last = after[-1].last_op if after else None
    if last is not None and last.name == "scf.yield":
        expect_types(
            last,
            last.operands,
            op.operands,
            "'scf.yield' of 'scf.while' yields {found} but the loop's before region takes "
            "{expected}",
        )


def verify_aggregate_access(op: Operation) -> None:
    """`position` walks into the container's type (struct fields, array elements) and the
    extracted or inserted value has the type it finds there."""
    container = op.operands[0].type
    field = container
    position = list(op.properties["position"].get_values())  # type: ignore[attr-defined]
    for index in position:
        if field.name == "llvm.struct":
            fields = field.types.data  # type: ignore[attr-defined]
            if not 0 <= index < len(fields):
                raise OpError(op, f"'{op.name}': position {position} is not a field of {container}")
            field = fields[index]
        elif field.name == "llvm.array":
            if not 0 <= index < field.size.data:  # type: ignore[attr-defined]
                raise OpError(
                    op, f"'{op.name}': position {position} is not an element of {container}"
                )
            field = field.type  # type: ignore[attr-defined]
        else:
            raise OpError(op, f"'{op.name}': position {position} indexes into {field}")
    if op.name == "llvm.extractvalue":
        found, what = op.results[0].type, "extracts"
    else:
        found, what = op.operands[1].type, "inserts"
        if op.results[0].type != container:
            raise OpError(
                op, f"'{op.name}' into {container} must return it, found {op.results[0].type}"
            )
    if found != field:
        raise OpError(
            op,
            f"'{op.name}' {what} {found} at {position} of {container}, "
            f"whose field there is {field}",
        )
