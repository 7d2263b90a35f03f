"""Where things are in a program's text, for gpu-lsp: each SSA value and block where it is
defined and used (`IndexingParser`, gpuir's `LocatingParser` noting them as it parses, so that
scoping is the parser's own), each `@symbol` where it is defined and named (a scan of the text,
so that it works on a file that does not parse), and each op's extent.

    %e = mem.lea %p, %t : …      // %e: a definition; %p, %t: uses of the values they name
    gpu.launch @k grid(…)         // @k: a use of the symbol that `func.func @k` defines

What a chunk parsed before a parse error stays indexed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.context import Context
from xdsl.ir import AttributeInvT, Block, Operation, SSAValue
from xdsl.parser.core import UnresolvedOperand
from xdsl.utils.lexer import Span, Token

from gpuir.ir.locating_parser import LocatingParser

Target = SSAValue | Block | str
"""What an occurrence names: a value, a block, or a symbol (by its name, without the `@`)."""

SYMBOL_OR_SKIPPED = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|@(?:[\w$.-]+|"[^"\n]*")')
"""A symbol reference (`@name`, `@"name"`), or a string or comment (skipped: an `@` in them is
text)."""
DEFINER_BEFORE = re.compile(
    r"(?:^|[\s(])(?:func\.func|llvm\.func|gpu\.module|gpu\.func|memref\.global|"
    r"llvm\.mlir\.global|builtin\.module|module)"
    r"(?:\s+(?:private|public|nested|external|internal|constant|kernel))*\s*$"
)
"""The text before an `@name` on its line when the name is being defined (`func.func @k`)."""
LAUNCHED = re.compile(r"\bgpu\.launch(?:_func)?\s+(?:@[\w$.-]+::)?@([\w$.-]+)")
"""`gpu.launch @k` (gpuir), `gpu.launch_func @module::@k` (upstream): @k is a kernel."""
NamedT = TypeVar("NamedT", SSAValue, Block)


@dataclass(frozen=True)
class Occurrence:
    """A name in the text, from `start` to `end` (offsets in the document): the value, block or
    symbol it names, and whether it defines it."""

    start: int
    end: int
    target: Target
    is_definition: bool


@dataclass
class ChunkIndex:
    """What is where in one chunk (the whole file, or one `// -----` piece of it)."""

    start: int
    """The chunk's first character in the document."""
    end: int
    line_offset: int
    occurrences: list[Occurrence] = field(default_factory=list)
    """Sorted by `start`."""
    ops: list[tuple[int, int, Operation]] = field(default_factory=list)
    """Each parsed op's extent (document offsets), sorted by start."""
    kernels: set[str] = field(default_factory=set)

    def at(self, offset: int) -> Occurrence | None:
        """The occurrence under `offset` (or just before it: a cursor after `%x`)."""
        starts = [o.start for o in self.occurrences]
        i = bisect_right(starts, offset) - 1
        if i >= 0 and self.occurrences[i].start <= offset <= self.occurrences[i].end:
            return self.occurrences[i]
        return None

    def definition(self, target: Target) -> Occurrence | None:
        return next((o for o in self.occurrences if o.is_definition and o.target == target), None)

    def references(self, target: Target) -> list[Occurrence]:
        return [o for o in self.occurrences if o.target is target or o.target == target]

    def symbol_op(self, name: str) -> Operation | None:
        """The parsed op that defines symbol `name` (a `func.func`, …), if any."""
        found = self.definition(name)
        if found is None:
            return None
        return next(
            (op for start, end, op in self.ops if start <= found.start < end and defines(op, name)),
            None,
        )


def defines(op: Operation, name: str) -> bool:
    symbol = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return getattr(symbol, "data", None) == name


class IndexingParser(LocatingParser):
    """gpuir's parser, noting where each value and block is defined and used, and where each op
    ends (`LocatingParser` notes where it starts)."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.noted: list[tuple[int, int, SSAValue | Block, bool]] = []
        self.forwarded: dict[SSAValue, SSAValue] = {}
        """A forward reference's placeholder → the value that replaced it."""
        self.op_ends: dict[Operation, int] = {}
        self.last_end = 0

    def _consume_token(self, expected_kind: object = None) -> Token:  # type: ignore[override]
        token = super()._consume_token(expected_kind)  # type: ignore[arg-type]
        self.last_end = token.span.end
        return token

    def parse_operation(self) -> Operation:
        op = super().parse_operation()
        self.op_ends[op] = self.last_end
        return op

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        placeholders = dict(self.forward_ssa_references.get(name, {}))
        super()._register_ssa_definition(name, values, span)
        for index, placeholder in placeholders.items():
            if index < len(values):
                self.forwarded[placeholder] = values[index]
        for value in values:
            self.note(span, value, True)

    def note(self, span: Span, what: SSAValue | Block, defines: bool = False) -> None:
        """`what` is named at `span`: its definition (`defines`) or a use."""
        self.noted.append((span.start, span.end, what, defines))

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        value = super().resolve_operand(operand, type)
        self.note(operand.span, value)
        return value

    def _parse_optional_operand_without_type(self) -> SSAValue | None:
        return self.noting(super()._parse_optional_operand_without_type)

    def parse_optional_successor(self) -> Block | None:
        return self.noting(super().parse_optional_successor)

    def noting(self, parse: Callable[[], NamedT | None]) -> NamedT | None:
        """What `parse` gives (None: nothing there), noted as a use at the token it begins at."""
        token = self._current_token
        what = parse()
        if what is not None:
            self.note(token.span, what)
        return what

    def _get_block_from_name(self, block_name: Span) -> Block:
        block = super()._get_block_from_name(block_name)
        self.note(block_name, block)
        return block


def index_chunk(
    parser: IndexingParser | None, text: str, start: int, line_offset: int
) -> ChunkIndex:
    """The index of a chunk whose text `text` starts at document offset `start`: its values,
    blocks and ops from `parser` (after its parse, finished or not), its symbols from the
    text."""
    chunk = ChunkIndex(start, start + len(text), line_offset)
    found: list[Occurrence] = []
    if parser is not None:
        for begin, end, target, is_definition in parser.noted:
            if isinstance(target, SSAValue):
                target = parser.forwarded.get(target, target)
            found.append(Occurrence(start + begin, start + end, target, is_definition))
        for block, span in parser.defined_blocks.items():
            found.append(Occurrence(start + span.start, start + span.end, block, True))
        for op, begin in parser.op_starts.items():
            end = parser.op_ends.get(op, begin)
            chunk.ops.append((start + begin, start + end, op))
        chunk.ops.sort(key=lambda item: item[0])
    for match in SYMBOL_OR_SKIPPED.finditer(text):
        token = match.group()
        if not token.startswith("@"):
            continue
        line_start = text.rfind("\n", 0, match.start()) + 1
        is_definition = DEFINER_BEFORE.search(text[line_start : match.start()]) is not None
        name = token[1:].strip('"')
        found.append(Occurrence(start + match.start(), start + match.end(), name, is_definition))
    chunk.kernels = {m.group(1) for m in LAUNCHED.finditer(text)}
    found.sort(key=lambda o: (o.start, not o.is_definition))
    chunk.occurrences = found
    return chunk
