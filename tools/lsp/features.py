"""gpu-lsp's answers, from a document's `Analysis`: hover, definition, references, document
symbols and completion. Positions are 0-based lines and characters (code points: a character
outside the BMP counts one, not two UTF-16 units)."""

from __future__ import annotations

import inspect
import re
from bisect import bisect_right
from collections.abc import Callable

from lsprotocol import types
from xdsl.context import Context
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from gpuir.dialects.mem import SPACE_NAMES
from gpuir.tools.lsp.analysis import Analysis
from gpuir.tools.lsp.index import LAUNCHED, ChunkIndex, Occurrence, Target

WORD = re.compile(r"[\w$.-]+")
TYPED = re.compile(r"(?:![\w.]*(?:<[\w, ]*)?|[@%^]?[\w$.-]*)$")
"""What is typed before the cursor: a type (`!mem.M<`), a name (`@k`, `%v`, `mem.lo`)."""
DIALECTS = ("mem", "gpu", "buffer", "btensor", "arith", "func", "scf", "cf", "math")
"""The dialects whose ops a bare word completes to (after `d.`, any dialect's)."""
TYPES = (
    ("!mem.ptr<", "a pointer: !mem.ptr<T, space>"),
    ("!mem.M<", "the memory token of an address space: !mem.M<space>"),
    ("!mem.array<", "an array: !mem.array<N x T> or !mem.array<? x T>"),
    ("!gpu.stream", "a stream of work on the device"),
    ("!buffer.buf<", "a dense buffer: !buffer.buf<4x8xf32>"),
)
LAUNCH_OPS = ("gpu.launch", "gpu.launch_func")


class Lines:
    """Offsets ↔ (line, character) in a text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def offset(self, position: types.Position) -> int:
        line = min(max(position.line, 0), len(self.starts) - 1)
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return min(self.starts[line] + max(position.character, 0), end)

    def position(self, offset: int) -> types.Position:
        line = bisect_right(self.starts, offset) - 1
        return types.Position(line=line, character=offset - self.starts[line])

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def line_text(self, offset: int) -> str:
        line = bisect_right(self.starts, offset) - 1
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line] : end]


# Hover ------------------------------------------------------------------------------------------


def hover(analysis: Analysis, ctx: Context, offset: int) -> types.Hover | None:
    """On a value: its type and definition; on a block: its arguments; on a symbol: its
    signature; on an op name: its description, operands and results (and on `gpu.launch`, the
    kernel's signature)."""
    lines = Lines(analysis.text)
    chunk = analysis.chunk_at(offset)
    found = chunk.at(offset) if chunk is not None else None
    if chunk is not None and found is not None:
        text = hover_of(found.target, chunk, lines)
        if text:
            return markdown(text, lines.range(found.start, found.end))
    word = word_at(analysis.text, offset)
    if word is None or "." not in word[0]:
        return None
    name, start, end = word
    op_type = ctx.get_optional_op(name)
    if op_type is None:
        return None
    text = op_reference(op_type)
    if name in LAUNCH_OPS and chunk is not None:
        launched = LAUNCHED.search(lines.line_text(offset))
        if launched is not None:
            text += "\n\n---\n\n" + symbol_hover(launched.group(1), chunk)
    return markdown(text, lines.range(start, end))


def hover_of(target: Target, chunk: ChunkIndex, lines: Lines) -> str:
    if isinstance(target, str):
        return symbol_hover(target, chunk)
    defined = chunk.definition(target)
    where = ""
    if defined is not None:
        line = lines.position(defined.start).line + 1
        where = (
            f"\n\ndefined at line {line}:\n```mlir\n{lines.line_text(defined.start).strip()}\n```"
        )
    if isinstance(target, Block):
        args = ", ".join(f"{value_name(a)}: {a.type}" for a in target.args)
        label = f"^{target.name_hint}" if target.name_hint else "^bb"
        return f"```mlir\n{label}({args})\n```\nblock{where}"
    name = lines.text[defined.start : defined.end] if defined is not None else value_name(target)
    return f"```mlir\n{name} : {target.type}\n```\n{origin(target)}{where}"


def value_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "%<unnamed>"


def origin(value: SSAValue) -> str:
    """`result #1 of 'mem.load'`, `argument #2 of 'func.func' @k`, `argument #0 of ^bb1`."""
    if isinstance(value, OpResult):
        return f"result #{value.index} of `{value.op.name}`"
    if isinstance(value, BlockArgument):
        block = value.block
        parent = block.parent_op()
        if parent is not None and block.parent is not None and block is block.parent.blocks[0]:
            symbol = getattr(parent.properties.get("sym_name"), "data", None)
            named = f" @{symbol}" if symbol else ""
            return f"argument #{value.index} of `{parent.name}`{named}"
        label = f"^{block.name_hint}" if block.name_hint else "a block"
        return f"argument #{value.index} of {label}"
    return "a value"


def symbol_hover(name: str, chunk: ChunkIndex) -> str:
    op = chunk.symbol_op(name)
    what = "kernel" if name in chunk.kernels else "symbol"
    if op is None:
        return f"{what} `@{name}`"
    return f"{what} `@{name}`\n```mlir\n{signature(op, name)}\n```"


def signature(op: Operation, name: str) -> str:
    """`func.func @k(%m1: !mem.M<1>, …) -> (…)`, one parameter a line when it is long."""
    function_type = op.properties.get("function_type") or op.attributes.get("function_type")
    inputs = list(getattr(function_type, "inputs", ()))
    outputs = list(getattr(function_type, "outputs", ()))
    args = op.regions[0].blocks[0].args if op.regions and op.regions[0].blocks else ()
    params = [
        f"{value_name(args[i])}: {t}" if i < len(args) and args[i].name_hint else str(t)
        for i, t in enumerate(inputs)
    ]
    results = ""
    if len(outputs) == 1:
        results = f" -> {outputs[0]}"
    elif outputs:
        results = f" -> ({', '.join(map(str, outputs))})"
    head = f"{op.name} @{name}("
    flat = head + ", ".join(params) + ")" + results
    if len(flat) <= 100:
        return flat
    return head + "\n" + ",\n".join(f"    {p}" for p in params) + "\n)" + results


def op_reference(op_type: type[Operation]) -> str:
    """What `docs/dialects.md` says of an op (`scripts/dialect_reference.py` writes it from the
    same facts): its description, then its operands, results and properties."""
    out = [f"**`{op_type.name}`**", ""]
    doc = inspect.cleandoc(op_type.__doc__ or "").strip()
    if doc and not doc.startswith(f"{op_type.__name__}("):  # a dataclass's generated doc
        out += [doc, ""]
    try:
        definition = op_type.get_irdl_definition()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001  # an op without an IRDL definition
        return "\n".join(out).strip()
    rows = []
    for kind, entries in (("operand", definition.operands), ("result", definition.results)):
        rows += [f"| {kind} | `{n}` | {constraint_text(e.constr)} |" for n, e in entries]
    for name, entry in definition.properties.items():
        if name != "operandSegmentSizes":
            rows.append(f"| property | `{name}` | {constraint_text(entry.constr)} |")
    if rows:
        out += ["| | name | constraint |", "| --- | --- | --- |", *rows]
    return "\n".join(out).strip()


def constraint_text(constraint: object) -> str:
    """An IRDL constraint, short: `!mem.M`, `index`, `any` (as in `docs/dialects.md`)."""
    kind = type(constraint).__name__
    inner = getattr(constraint, "constraint", None) or getattr(constraint, "constr", None)
    if kind in ("RangeLengthConstraint", "RangeOf", "VarConstraint") and inner is not None:
        return constraint_text(inner)
    if kind == "BaseAttr":
        attr = constraint.attr  # type: ignore[attr-defined]
        name = getattr(attr, "name", attr.__name__)
        return f"`{name}`" if "." in name else name.removesuffix("Type")
    if kind == "EqAttrConstraint":
        return f"`{constraint.attr}`"  # type: ignore[attr-defined]
    if kind == "AnyOf":
        return " or ".join(constraint_text(c) for c in constraint.attr_constrs)  # type: ignore[attr-defined]
    return "any" if kind == "AnyAttr" else kind


def word_at(text: str, offset: int) -> tuple[str, int, int] | None:
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end == -1 else line_end
    for match in WORD.finditer(text, line_start, line_end):
        if match.start() <= offset <= match.end():
            return match.group(), match.start(), match.end()
    return None


def markdown(text: str, where: types.Range) -> types.Hover:
    content = types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
    return types.Hover(contents=content, range=where)


# Definition and references ----------------------------------------------------------------------


def definition(analysis: Analysis, uri: str, offset: int) -> list[types.Location]:
    chunk = analysis.chunk_at(offset)
    found = chunk.at(offset) if chunk is not None else None
    if chunk is None or found is None:
        return []
    defined = chunk.definition(found.target)
    return [] if defined is None else [location(uri, Lines(analysis.text), defined)]


def references(
    analysis: Analysis, uri: str, offset: int, with_definition: bool
) -> list[types.Location]:
    chunk = analysis.chunk_at(offset)
    found = chunk.at(offset) if chunk is not None else None
    if chunk is None or found is None:
        return []
    lines = Lines(analysis.text)
    return [
        location(uri, lines, o)
        for o in chunk.references(found.target)
        if with_definition or not o.is_definition
    ]


def location(uri: str, lines: Lines, occurrence: Occurrence) -> types.Location:
    return types.Location(uri=uri, range=lines.range(occurrence.start, occurrence.end))


# Document symbols -------------------------------------------------------------------------------


def document_symbols(analysis: Analysis) -> list[types.DocumentSymbol]:
    """Functions and kernels (what they hold: their launches), and each `// -----` chunk as a
    module of its own when there are several."""
    lines = Lines(analysis.text)
    out = []
    for i, chunk in enumerate(analysis.chunks):
        symbols = nest(chunk_symbols(chunk, lines))
        if len(analysis.chunks) == 1:
            return symbols
        first = lines.position(chunk.start).line + 1
        whole = lines.range(chunk.start, chunk.end)
        out.append(
            types.DocumentSymbol(
                name=f"chunk {i + 1}",
                detail=f"// ----- split, from line {first}",
                kind=types.SymbolKind.Module,
                range=whole,
                selection_range=lines.range(chunk.start, chunk.start),
                children=symbols,
            )
        )
    return out


def chunk_symbols(chunk: ChunkIndex, lines: Lines) -> list[tuple[int, int, types.DocumentSymbol]]:
    found = []
    for o in chunk.occurrences:
        if not (o.is_definition and isinstance(o.target, str)):
            continue
        op = chunk.symbol_op(o.target)
        start, end = next(((s, e) for s, e, x in chunk.ops if x is op), (o.start, o.end))
        is_kernel = o.target in chunk.kernels
        kind = types.SymbolKind.Module if op is not None and "module" in op.name else None
        detail = "kernel" if is_kernel else (op.name if op is not None else "")
        symbol = types.DocumentSymbol(
            name=f"@{o.target}",
            detail=detail,
            kind=kind or (types.SymbolKind.Function),
            range=lines.range(start, max(end, o.end)),
            selection_range=lines.range(o.start, o.end),
            children=[],
        )
        found.append((start, max(end, o.end), symbol))
    for start, end, op in chunk.ops:
        if op.name not in LAUNCH_OPS:
            continue
        launched = LAUNCHED.search(lines.text, start, end)
        name = f"{op.name} @{launched.group(1)}" if launched is not None else op.name
        head = lines.range(start, start + len(op.name))
        symbol = types.DocumentSymbol(
            name=name,
            detail="launch",
            kind=types.SymbolKind.Event,
            range=lines.range(start, end),
            selection_range=head,
            children=[],
        )
        found.append((start, end, symbol))
    return found


def nest(found: list[tuple[int, int, types.DocumentSymbol]]) -> list[types.DocumentSymbol]:
    """Each symbol under the innermost one whose extent holds it."""
    top: list[types.DocumentSymbol] = []
    stack: list[tuple[int, int, types.DocumentSymbol]] = []
    for start, end, symbol in sorted(found, key=lambda item: (item[0], -item[1])):
        while stack and not (stack[-1][0] <= start and end <= stack[-1][1]):
            stack.pop()
        siblings = stack[-1][2].children if stack else top
        assert siblings is not None
        siblings.append(symbol)
        stack.append((start, end, symbol))
    return top


# Completion -------------------------------------------------------------------------------------


def completion(
    analysis: Analysis | None, ctx: Context, text: str, offset: int
) -> list[types.CompletionItem]:
    """Op names (after `mem.`: mem's ops), types (`!mem.ptr<`, `!mem.M<`, and an address
    space after `!mem.M<`), `@` symbols and `%` values of the document."""
    lines = Lines(text)
    before = text[text.rfind("\n", 0, offset) + 1 : offset]
    typed = TYPED.search(before)
    prefix = typed.group() if typed is not None else ""
    edit_range = lines.range(offset - len(prefix), offset)

    def item(label: str, kind: types.CompletionItemKind, detail: str = "") -> types.CompletionItem:
        edit = types.TextEdit(range=edit_range, new_text=label)
        return types.CompletionItem(label=label, kind=kind, detail=detail, text_edit=edit)

    if prefix.endswith("!mem.M<"):
        return [
            item(f"{prefix}{space}>", types.CompletionItemKind.EnumMember, name)
            for space, name in sorted(SPACE_NAMES.items())
        ]
    if prefix.startswith("!"):
        return [item(t, types.CompletionItemKind.TypeParameter, d) for t, d in TYPES]
    if prefix.startswith(("@", "%")) and analysis is not None:
        return names(analysis, prefix[0], offset, item)
    if not prefix or prefix[0] in "^%@":
        return []
    dialect_names = [prefix.split(".")[0]] if "." in prefix else list(DIALECTS)
    items = []
    for dialect_name in dialect_names:
        try:
            dialect = ctx.get_optional_dialect(dialect_name)
        except Exception:  # noqa: BLE001  # a dialect that does not load: nothing to offer
            dialect = None
        if dialect is None:
            continue
        for op in sorted(dialect.operations, key=lambda o: o.name):
            if op.name.startswith(prefix):
                summary = inspect.cleandoc(op.__doc__ or "").split("\n\n")[0].replace("\n", " ")
                items.append(item(op.name, types.CompletionItemKind.Function, summary[:80]))
    return items


def names(
    analysis: Analysis,
    sigil: str,
    offset: int,
    item: Callable[[str, types.CompletionItemKind, str], types.CompletionItem],
) -> list[types.CompletionItem]:
    """The document's symbols (`@`), or the values of the chunk at `offset` (`%`)."""
    chunks = analysis.chunks if sigil == "@" else [analysis.chunk_at(offset)]
    seen: dict[str, str] = {}
    for chunk in chunks:
        if chunk is None:
            continue
        for o in chunk.occurrences:
            if not o.is_definition:
                continue
            if sigil == "@" and isinstance(o.target, str):
                seen.setdefault(f"@{o.target}", "kernel" if o.target in chunk.kernels else "")
            elif sigil == "%" and isinstance(o.target, SSAValue):
                seen.setdefault(analysis.text[o.start : o.end], str(o.target.type))
    kind = types.CompletionItemKind.Function if sigil == "@" else types.CompletionItemKind.Variable
    return [item(label, kind, detail) for label, detail in sorted(seen.items())]
