"""What the resumable form needs of a kernel first: its calls inlined (`inline_calls`), its
`scf` ops as `cf` blocks (`to_blocks`), and which values live into each block (`liveness`)."""

from __future__ import annotations

from xdsl.dialects import cf, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    FileLineColLoc,
    IntegerAttr,
    StringAttr,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.rewriter import Rewriter
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from gpuir.ir.diagnostics import OpError
from gpuir.lowering.cpu.workgroups import defined_values
from gpuir.lowering.llvm.cf_to_llvm import ExecuteRegionLowering, WhileLowering
from gpuir.passes.locations import KeepLocations


def to_blocks(function: func.FuncOp) -> None:
    """`scf.for` / `scf.if` / `scf.index_switch` / `scf.while` / `scf.execute_region` → `cf`
    blocks."""
    PatternRewriteWalker(
        KeepLocations(
            GreedyRewritePatternApplier(
                [
                    ForLowering(),
                    IfLowering(),
                    SwitchLowering(),
                    WhileLowering(),
                    ExecuteRegionLowering(),
                ]
            )
        )
    ).rewrite_region(function.body)


MAX_INLINING = 64
"""How deep calls of functions with barriers may nest (deeper: taken for recursion)."""


def inline_calls(kernel: func.FuncOp, callees: dict[str, func.FuncOp]) -> bool:
    """Inline every call of a function of `callees` (functions with barriers) into `kernel`,
    its control flow as `cf` blocks first (a GPU lets a function that a kernel calls wait at a
    barrier; here the kernel's work-group function must stop its items there). True when it
    inlined a call."""
    inlined = False
    for _ in range(MAX_INLINING):
        calls = [
            op
            for op in kernel.walk()
            if isinstance(op, func.CallOp) and op.callee.root_reference.data in callees
        ]
        if not calls:
            return inlined
        to_blocks(kernel)
        for call in calls:
            inline_call(call, callees[call.callee.root_reference.data])
        inlined = True
    raise OpError(
        calls[0],
        f"'{calls[0].name}' of @{calls[0].callee.root_reference.data}: calls of functions with "
        f"barriers nest more than {MAX_INLINING} deep (recursion?), which the cpu provider "
        "cannot run: it inlines them into the kernel",
    )


def inline_call(call: func.CallOp, callee: func.FuncOp) -> None:
    """Replace `call` (an op of a block of a function) with `callee`'s blocks."""
    block = call.parent_block()
    region = block.parent_region() if block is not None else None
    assert block is not None and region is not None
    after = block.split_before(call)
    for i, result in enumerate(call.results):
        result.replace_all_uses_with(after.insert_arg(result.type, i))
    body = callee.body.clone()
    blocks = list(body.blocks)
    previous = block
    for moved in blocks:
        body.detach_block(moved)
        region.insert_block_after(moved, previous)
        previous = moved
    entry = blocks[0]
    for arg, value in zip(entry.args, call.operands, strict=True):
        arg.replace_all_uses_with(value)
    for arg in reversed(entry.args):
        entry.erase_arg(arg)
    for moved in blocks:
        terminator = moved.last_op
        if isinstance(terminator, func.ReturnOp):
            Rewriter.replace_op(terminator, cf.BranchOp(after, *terminator.arguments))
    Rewriter.erase_op(call)
    block.add_op(cf.BranchOp(entry))


def describe(op: Operation) -> ArrayAttr:
    """`[name, file, line, column]` of a resume point's op (`"", 0, 0` without a location)."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        where = [loc.filename, IntegerAttr(loc.line.data, 64), IntegerAttr(loc.column.data, 64)]
    else:
        where = [StringAttr(""), IntegerAttr(0, 64), IntegerAttr(0, 64)]
    return ArrayAttr([StringAttr(op.name), *where])


def top_level(op: Operation) -> Operation:
    """The op of the function's blocks that `op` is (or is nested in)."""
    while True:
        parent = op.parent_op()
        if parent is None or isinstance(parent, func.FuncOp):
            return op
        op = parent


def liveness(blocks: list[Block]) -> dict[Block, set[SSAValue]]:
    """The values live at the start of each block (values of the blocks' own ops and
    arguments; an op's nested uses count as its own)."""
    uses: dict[Block, set[SSAValue]] = {}
    defs: dict[Block, set[SSAValue]] = {}
    for block in blocks:
        defined: set[SSAValue] = set(block.args)
        used: set[SSAValue] = set()
        for op in block.ops:
            inner = defined_values([op]).difference(op.results)  # op's are defined after it
            for nested in op.walk():
                for value in nested.operands:
                    if value not in defined and value not in inner:
                        used.add(value)
            defined.update(op.results)
        uses[block], defs[block] = used, defined
    live_in: dict[Block, set[SSAValue]] = {block: set(uses[block]) for block in blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(blocks):
            terminator = block.last_op
            out: set[SSAValue] = set()
            if terminator is not None:
                for successor in terminator.successors:
                    out |= live_in[successor]
            new = uses[block] | (out - defs[block])
            if new != live_in[block]:
                live_in[block] = new
                changed = True
    return live_in
