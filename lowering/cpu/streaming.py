"""Streaming (non-temporal) stores for a kernel's write-only outputs, on the cpu provider.

A work-group function's *write-only* parameters (`write_only_params`) are the global pointers
it only stores through: every use a `mem.lea` whose result is such a pointer again, or the
address of a `mem.store`; no load, atomic, call, branch or store of the pointer itself.
`cpu-workgroup-loops` records them on the work-group functions of the vectorizable forms
(`item-loops`, `fission`) as `gpu.write_only = array<i64: …>`, the positions among the
kernel's arguments.

`host_program` then compiles such a kernel twice: `@k` as usual, and `@k.stream` with its own
launch entry (`STREAM_SUFFIX`), whose stores through those pointers carry a TBAA tag of their
own (`STREAM_TBAA`; no other access has one, so it tells alias analysis nothing): LLVM keeps it
on the vector stores that its loop vectorizer makes of them, and after LLVM's optimizer every
vector store with it that is aligned to its size gets `!nontemporal` (`mark_nontemporal`). Not
before: LLVM does not vectorize a loop whose scalar stores are non-temporal (x86 has no
unaligned vector non-temporal store). The stream entry tells LLVM that those pointers are
`STREAM_ALIGN`-byte aligned and `n_items` a multiple of `STREAM_ITEMS` (the runtime calls it
only then), so that the vector stores are aligned where a group's first item is (a map's
`group * 1024 + item`; not `group * n + item` with `n` an argument, which LLVM cannot know: such
a kernel keeps no stream entry), and ends with a `fence seq_cst` (`mfence`): non-temporal
stores are weakly ordered. The runtime picks the entry per launch
(`gpuir.runtime.cpu.provider.streaming_threshold`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, i64
from xdsl.ir import SSAValue

from gpuir.dialects import mem
from gpuir.dialects.gpu import KERNEL_TOKENS, WORKGROUP_PREFIX
from gpuir.dialects.mem import GLOBAL, PtrType

if TYPE_CHECKING:
    from llvmlite import ir

WRITE_ONLY_ATTR = "gpu.write_only"
"""A work-group function's write-only parameters: positions among the kernel's arguments."""
LOWERED_PREFIX = WORKGROUP_PREFIX - len(KERNEL_TOKENS)
"""A lowered work-group function's parameters before the kernel's arguments (the tokens are
gone)."""
STREAM_SUFFIX = ".stream"
STREAM_TBAA = "gpuir.stream"
"""The name of the TBAA scalar type of streaming stores."""
STREAM_ALIGN = 64
"""Bytes: a cache line, and the widest vector store (AVX-512)."""
STREAM_ITEMS = 16
"""`n_items` is a multiple of this in a streaming launch: a group's part of an output then
starts on a cache line where each item writes one f32 of it."""


def write_only_params(function: func.FuncOp) -> tuple[int, ...]:
    """The positions (among the kernel's arguments) of the work-group function's global
    pointers that it only stores through (module docstring)."""
    args = function.body.blocks[0].args[WORKGROUP_PREFIX:]
    return tuple(
        i
        for i, arg in enumerate(args)
        if isinstance(arg.type, PtrType) and arg.type.space.data == GLOBAL and only_stored(arg)
    )


def only_stored(pointer: SSAValue) -> bool:
    """Whether `pointer` is used, and only as a store's address or a `mem.lea`'s base whose
    result is such a pointer."""
    uses = list(pointer.uses)
    if not uses:
        return False
    for use in uses:
        op = use.operation
        if isinstance(op, mem.StoreOp) and op.ptr is pointer and op.value is not pointer:
            continue
        if isinstance(op, mem.LeaOp) and op.ptr is pointer and only_stored(op.res):
            continue
        return False
    return True


def record_write_only(function: func.FuncOp) -> None:
    """`gpu.write_only` on a work-group function with write-only parameters."""
    found = write_only_params(function)
    if found:
        function.attributes[WRITE_ONLY_ATTR] = DenseArrayBase.from_list(i64, found)


def stream_variant(function: llvm.FuncOp) -> llvm.FuncOp | None:
    """`@k.stream`, a copy of a lowered work-group function with write-only parameters; None
    without them."""
    if WRITE_ONLY_ATTR not in function.attributes:
        return None
    copy = function.clone()
    copy.sym_name = StringAttr(function.sym_name.data + STREAM_SUFFIX)
    return copy


def write_only_of(function: llvm.FuncOp) -> tuple[int, ...]:
    """The positions of `gpu.write_only` (none without it)."""
    positions = function.attributes.get(WRITE_ONLY_ATTR)
    return tuple(positions.get_values()) if isinstance(positions, DenseArrayBase) else ()


# --- LLVM IR ---------------------------------------------------------------------------------------


def tag_stream_stores(function: ir.Function, positions: tuple[int, ...]) -> None:
    """`STREAM_TBAA`'s tag on the stores of the translated `@k.stream` through its write-only
    parameters (at `positions` among the kernel's arguments) and the addresses made from them
    (`getelementptr`s, which the translation emits before their uses)."""
    from llvmlite import ir

    derived = {id(function.args[LOWERED_PREFIX + p]) for p in positions}
    tag = stream_tag(function.module)
    for block in function.blocks:
        for instruction in block.instructions:
            if isinstance(instruction, ir.GEPInstr) and id(instruction.pointer) in derived:
                derived.add(id(instruction))
            elif isinstance(instruction, ir.StoreInstr) and id(instruction.operands[1]) in derived:
                instruction.set_metadata("tbaa", tag)


def stream_tag(module: ir.Module) -> ir.MDValue:
    """The TBAA access tag of streaming stores: a scalar type under a root of its own."""
    from llvmlite import ir

    zero = ir.Constant(ir.IntType(64), 0)
    root = module.add_metadata([ir.MetaDataString(module, STREAM_TBAA + " root")])
    scalar = module.add_metadata([ir.MetaDataString(module, STREAM_TBAA), root, zero])
    return module.add_metadata([scalar, scalar, zero])


def assume_stream_launch(b: ir.IRBuilder, n_items: ir.Value, pointers: list[ir.Value]) -> None:
    """What a streaming launch guarantees, told to LLVM: `n_items % STREAM_ITEMS == 0`, and
    each of `pointers` (loads of the arguments) `STREAM_ALIGN`-aligned."""
    from llvmlite import ir

    word = ir.IntType(64)
    assume_type = ir.FunctionType(ir.VoidType(), [ir.IntType(1)])
    assume = b.module.declare_intrinsic("llvm.assume", fnty=assume_type)
    low = b.and_(n_items, ir.Constant(word, STREAM_ITEMS - 1))
    b.call(assume, [b.icmp_unsigned("==", low, ir.Constant(word, 0))])
    align = b.module.add_metadata([ir.Constant(word, STREAM_ALIGN)])
    for pointer in pointers:
        pointer.set_metadata("align", align)


FLOAT_BYTES = {"half": 2, "bfloat": 2, "float": 4, "double": 8}
VECTOR_STORE = re.compile(r"^\s+store <(\d+) x (\w+)> .*, align (\d+)\b")


def mark_nontemporal(text: str) -> str:
    """Optimized LLVM IR with `!nontemporal` on every vector store that carries `STREAM_TBAA`'s
    tag and is aligned to its size (x86 makes an unaligned one 8-byte pieces; a scalar store
    is a loop's remainder, or a loop that is not vectorized)."""
    scalar = re.search(rf'^!(\d+) = !{{!"{re.escape(STREAM_TBAA)}", ', text, re.MULTILINE)
    if scalar is None:
        return text
    t = scalar.group(1)
    tag = re.search(rf"^!(\d+) = !{{!{t}, !{t}, i64 0}}$", text, re.MULTILINE)
    if tag is None:
        return text
    tagged = re.compile(rf"!tbaa !{tag.group(1)}\b")
    lines = text.split("\n")
    for i, line in enumerate(lines):
        store = VECTOR_STORE.match(line)
        if store is None or not tagged.search(line):
            continue
        count, element, align = store.groups()
        width = element_bytes(element)
        if width and int(align) >= int(count) * width:
            lines[i] = line + ", !nontemporal !{i32 1}"
    return "\n".join(lines)


def element_bytes(element: str) -> int | None:
    """The bytes of an LLVM scalar type's name (`float`, `i32`, `ptr`), None for others."""
    if element in FLOAT_BYTES:
        return FLOAT_BYTES[element]
    if element == "ptr":
        return 8
    if re.fullmatch(r"i(8|16|32|64|128)", element):
        return int(element[1:]) // 8
    return None


def streams(text: str, entry: str) -> bool:
    """Whether the launch entry `entry` of the marked IR has a non-temporal store."""
    found = re.search(rf'^define [^@]*@"?{re.escape(entry)}"?\(.*?^}}', text, re.M | re.S)
    return found is not None and "!nontemporal" in found.group(0)
