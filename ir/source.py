"""gpuir's front door for text: a program's source as chunks, parsed with the locations of its
ops (`LocatingParser`), and diagnostics rendered as `file:line:col: severity: message` with the
source line and a caret, at the op that failed (found again when xDSL's verifier does not say
which). gpu-opt, gpu-run and the Python API all read and report through it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from io import StringIO
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation, Region
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import (
    DiagnosticException,
    MultipleSpansParseError,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from gpuir.ir.diagnostics import OpError, OpWarning

if TYPE_CHECKING:
    from xdsl.parser import Parser


class SourceError(Exception):
    """A user error about the input, already worded as the diagnostic to print."""


def parse_module(parser: Parser, implicit_module: bool = True) -> ModuleOp:
    """The module `parser` reads. An attribute's verifier that rejects what was just parsed
    (xDSL raises a `VerifyException`) is a `ParseError` where the parser stands."""
    try:
        return parser.parse_module(implicit_module)
    except VerifyException as e:
        raise ParseError(Span(parser.pos, parser.pos, parser.lexer.input), str(e)) from e


REDEFINITION = re.compile(r'Redefinition of symbol "(.*)"')
"""xDSL's symbol-table message; the diagnostic points at the second definition."""
EMPTY_BLOCK = re.compile(r"Operation (\S+) contains empty block in single-block region")
"""xDSL's message for an empty block where a terminator is expected; it names only the op."""
FOR_YIELD = re.compile(r"scf\.yield expected \d+ args, but got|Expected yield arg #\d+ to be ")
"""xDSL's messages for an `scf.yield` that does not match its `scf.for`, raised by the loop."""
SWITCH_YIELD = re.compile(r"region (\S+) returns values of types")
"""xDSL's message for an `scf.yield` that does not match its `scf.index_switch` (`region 2`,
`region default`), raised by the switch."""
XDSL_MARKER = re.compile(r"\s*\^+-*")
"""The line under the failing op in the IR that xDSL adds as a note to a VerifyException."""


@dataclass
class Chunk:
    """One piece of the input: the whole file, or one part of it under --split-input-file."""

    data: bytes
    line_offset: int
    """Lines of the file before this chunk; added to every line number reported in it."""


@dataclass
class ParsedChunk:
    """A chunk's module, and its text, for showing the source line of a diagnostic."""

    module: ModuleOp
    name: str
    text: str | None
    """None when a frontend other than MLIR parsed the chunk."""
    line_offset: int
    op_starts: dict[Operation, int]
    """Where each parsed op starts in `text`, until `set_locations` turns them into locations."""

    def set_locations(self) -> None:
        """Give each parsed op without a `loc(...)` the location of its first token.

        Done only when something reads locations (passes, which may clone ops, a target, a
        diagnostic): building the attributes costs a few percent of the parse.
        """
        if self.text is None:
            return
        file = StringAttr(self.name)
        lines_before, counted_up_to = 0, 0
        for op, pos in sorted(self.op_starts.items(), key=lambda item: item[1]):
            lines_before += self.text.count("\n", counted_up_to, pos)
            counted_up_to = pos
            if isinstance(op.location, UnknownLoc):
                line = self.line_offset + lines_before + 1
                column = pos - self.text.rfind("\n", 0, pos)
                op.location = FileLineColLoc(file, IntAttr(line), IntAttr(column))
        self.op_starts.clear()

    def source_line(self, file: str, line: int) -> str | None:
        """Line `line` of the file, when this chunk holds it."""
        if self.text is None or file != self.name:
            return None
        lines = self.text.split("\n")
        index = line - self.line_offset - 1
        return lines[index].removesuffix("\r") if 0 <= index < len(lines) else None


def format_at(span: Span[str] | Span[bytes], severity: str, message: str) -> str:
    """`file:line:col: severity: message`, then the span's source line with carets under it."""
    source = span.input
    line_start = source.get_start_of_line(span.start)
    line_end = source.get_end_of_line(span.start)
    line = source.content[line_start:line_end]
    line = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    line = line.removesuffix("\r")
    width = max(min(span.end, line_end) - span.start, 1)
    return f"{span.get_location()}: {severity}: {message}\n{line}\n{caret(line, span.start - line_start, width)}"


def caret(line: str, column: int, width: int = 1) -> str:
    """Carets under `line[column:column + width]` (tabs kept, so that they line up)."""
    indent = "".join(c if c == "\t" else " " for c in line[:column])
    return indent + "^" * width


def quoted(text: str, escape: Callable[[int], str]) -> str:
    """`text` as a string literal in double quotes, byte by byte of its UTF-8: `escape(byte)`
    for a quote, a backslash and anything but printable ASCII (MLIR's `\\XX`, C's octal)."""
    out = []
    for byte in text.encode():
        char = chr(byte)
        out.append(escape(byte) if char in '"\\' or not 32 <= byte < 127 else char)
    return '"' + "".join(out) + '"'


def format_parse_error(error: ParseError, line_offset: int) -> str:
    text = format_at(error.span, "error", error.msg)
    if isinstance(error, MultipleSpansParseError):
        for span, msg in error.refs:
            note = " ".join(part for part in (error.ref_text, msg) if part)
            text += "\n" + format_at(replace(span, line_offset=line_offset), "note", note)
    return text


def format_diagnostic(error: DiagnosticException, parsed: ParsedChunk) -> str:
    """At the failing op when it is known, with the op's first line as a note; otherwise the
    message, with the failing op's line from the IR that xDSL attached (never all of it)."""
    message = str(error)
    parsed.set_locations()
    op = failing_op(error, parsed.module)
    if op is None:
        notes: list[str] = getattr(error, "__notes__", [])
        lines = [f"{parsed.name}: error: {message}", *(shorten_note(n) for n in notes)]
        return with_notes("\n".join(lines).rstrip(), error, parsed)
    text = f"{locate(op, parsed, 'error', message)}\nnote: see current operation: {op_text(op)}"
    return with_notes(text, error, parsed)


def format_warning(warning: OpWarning, parsed: ParsedChunk) -> str:
    """An `OpWarning` at its op, with its notes."""
    parsed.set_locations()
    return with_notes(locate(warning.op, parsed, "warning", str(warning)), warning, parsed)


def with_notes(text: str, diagnostic: object, parsed: ParsedChunk) -> str:
    """`text`, then a located note at each op of the diagnostic's `related` pairs."""
    for op, note in getattr(diagnostic, "related", ()):
        text += "\n" + locate(op, parsed, "note", note)
    return text


def shorten_note(note: str) -> str:
    """xDSL's note of a VerifyException is the whole module printed with a marker under the
    failing op: keep the op's line. Any other note is kept as it is."""
    lines = note.strip("\n").splitlines()
    marked = [i for i, line in enumerate(lines) if i > 0 and XDSL_MARKER.fullmatch(line)]
    if not marked:
        return note
    return f"note: see current operation: {lines[marked[0] - 1].strip()}"


def failing_op(error: DiagnosticException, module: ModuleOp) -> Operation | None:
    """The op to report `error` at: the op it names, or the op whose verifier raises it, or
    where that verifier's message points (a second definition, an empty block, a terminator
    that does not match its parent)."""
    if isinstance(error, OpError):
        return None if error.op is None else unless_made_up(error.op)  # a provider's may lack one
    if isinstance(error, VerifyException):
        op = find_failing_op(module, str(error))
        redefined = REDEFINITION.fullmatch(str(error))
        if op is not None and redefined is not None:
            return second_definition(op, redefined.group(1)) or op
        empty = EMPTY_BLOCK.match(str(error))
        if op is None and empty is not None:  # raised by the regions' check, not the op's own
            return first_with_empty_block(module, empty.group(1))
        if op is not None:
            return unless_made_up(mismatched_terminator(op, str(error)) or op)
        return op
    return None


def unless_made_up(op: Operation) -> Operation:
    """The op, or its parent when the op is a terminator that the parser added (an
    `scf.yield` left out of the text has no location) and the parent has one."""
    parent = op.parent_op()
    if (
        isinstance(op.location, FileLineColLoc)
        or not op.has_trait(IsTerminator)
        or parent is None
        or not isinstance(parent.location, FileLineColLoc)
    ):
        return op
    return parent


def mismatched_terminator(op: Operation, message: str) -> Operation | None:
    """The terminator that xDSL's verifier of `op` (its parent) found not to match it: a
    diagnostic about what an `scf.yield` yields belongs at the `scf.yield`."""
    if op.name == "scf.for" and FOR_YIELD.search(message):
        return op.regions[0].blocks[-1].last_op if op.regions[0].blocks else None
    switch = SWITCH_YIELD.match(message)
    if op.name != "scf.index_switch" or switch is None:
        return None
    names = ["default", *(str(c) for c in op.properties["cases"].get_values())]  # type: ignore[attr-defined]
    name = switch.group(1)
    if name not in names or names.index(name) >= len(op.regions):
        return None
    region = op.regions[names.index(name)]
    return region.blocks[-1].last_op if region.blocks else None


def first_with_empty_block(module: ModuleOp, name: str) -> Operation | None:
    """The first op named `name` that has an empty block: where xDSL's empty-block error is."""
    for op in module.walk():
        if op.name == name and any(not b.ops for r in op.regions for b in r.blocks):
            return op
    return None


def second_definition(table: Operation, symbol: str) -> Operation | None:
    """The second op of symbol table `table` that defines `symbol`: where a redefinition is."""
    seen = False
    for region in table.regions:
        for op in region.ops:
            name = op.properties.get("sym_name") or op.attributes.get("sym_name")
            if isinstance(name, StringAttr) and name.data == symbol:
                if seen:
                    return op
                seen = True
    return None


def find_failing_op(module: ModuleOp, message: str) -> Operation | None:
    """The op whose own verifier fails with `message`.

    xDSL's VerifyException does not say which op raised it (its note is the whole module
    printed with a marker), so the ops are verified one by one to find it again. Only errors
    pay for this.
    """
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            if str(e) == message:
                return op
        except Exception:  # broken IR can fail in other ways; it is not the op we look for
            continue
    return None


def locate(op: Operation, parsed: ParsedChunk, severity: str, message: str) -> str:
    """`file:line:col: severity: message` at the op's location, with the source line and a
    caret when the location is in this input; `file: severity: message` when it has none."""
    loc = op.location
    if not isinstance(loc, FileLineColLoc):
        return f"{parsed.name}: {severity}: {message}"
    file, line, column = loc.filename.data, loc.line.data, loc.column.data
    head = f"{file}:{line}:{column}: {severity}: {message}"
    source = parsed.source_line(file, line)
    return head if source is None else f"{head}\n{source}\n{caret(source, column - 1)}"


def op_text(op: Operation) -> str:
    """The op in generic form on one line, its regions shown as `{...}` (a module can be
    huge, and the diagnostic's location already says where the op is)."""
    stream = StringIO()
    try:
        HeaderPrinter(stream=stream, print_generic_format=True).print_op(op)
    except Exception:  # xDSL cannot print some attributes (an f80/f128 float, for one)
        return f'"{op.name}" (xDSL cannot print it)'
    return stream.getvalue().strip()


class HeaderPrinter(Printer):
    """xDSL's printer, printing each region of the op as `{...}`."""

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        self.print_string("{...}")


def decode_utf8(chunk: Chunk, file_name: str) -> str:
    """The chunk as text; invalid UTF-8 is a diagnostic at the first bad byte."""
    try:
        return chunk.data.decode("utf-8")
    except UnicodeDecodeError as e:
        data = chunk.data
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line_end = data.find(b"\n", e.start)
        line_end = len(data) if line_end == -1 else line_end
        line = chunk.line_offset + data.count(b"\n", 0, e.start) + 1
        column = e.start - line_start + 1
        shown = data[line_start:line_end].decode("utf-8", "replace")
        shown_column = len(data[line_start : e.start].decode("utf-8", "replace"))
        message = f"invalid UTF-8: byte 0x{data[e.start]:02x} ({e.reason})"
        where = f"{file_name}:{line}:{column}"
        raise SourceError(
            f"{where}: error: {message}\n{shown}\n{caret(shown, shown_column)}"
        ) from e


def is_blank(text: str, name: str) -> bool:
    """True when the text holds no token at all (only whitespace and comments)."""
    return MLIRLexer(Input(text, name)).lex().kind is MLIRTokenKind.EOF
