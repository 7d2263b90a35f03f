"""Line info: the locations of llvm dialect ops as LLVM debug metadata, which the translation
(`gpuir.lowering.llvm.llvm_ir`) attaches to the instructions it makes.

A module with line info gets a `DICompileUnit` (producer `gpuir`, no variables or types, only
lines), a `DIFile` per source file (the location's file name split into directory and base
name, as given: no working directory is added), a `DISubprogram` per defined function that
has a location, a `!DILocation(line: N, column: M, scope: …)` on each of its instructions,
and the module flags "Debug Info Version" 3 and "Dwarf Version". For NVPTX the emission kind
is `DebugDirectivesOnly`: the back end writes `.file` / `.loc` and no DWARF sections (what
`nvcc -lineinfo` gives); for the host `LineTablesOnly`, a DWARF line table in the object code.

Which location an instruction gets: its op's, as a `FileLineColLoc` (a `NameLoc`'s, a
`CallSiteLoc`'s callee, the first of a `FusedLoc`); an op without one (made by a lowering
that did not carry its origin's location) gets the location of the op before it, in the
translation's block order, and the first ones the function's. A function's location is its
op's, else its first located op's; a function without any (the collectives' helpers, a
runtime shim) has no `DISubprogram` and its instructions no `!dbg`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import llvm
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation

if TYPE_CHECKING:
    from llvmlite import ir


@dataclass(frozen=True)
class Kind:
    """What debug metadata a target gets."""

    emission_kind: str
    dwarf_version: int
    ptx_names: bool = False
    """File names as PTX's `.file` can hold them: no escapes, so `"` and `\\` become `_`."""


NVPTX = Kind("DebugDirectivesOnly", 2, ptx_names=True)
"""Device code: `.file` / `.loc` only (clang's and nvcc's choice for NVPTX line info; ptxas
takes DWARF 2)."""
HOST = Kind("LineTablesOnly", 4)
"""Host code: a DWARF line table in the object code (gdb, perf)."""
NOT_IN_PTX = re.compile(r'["\\\x00-\x1f]')


def file_location(location: Attribute) -> FileLineColLoc | None:
    """The file, line and column that `location` names, if any."""
    if isinstance(location, FileLineColLoc):
        return location
    if isinstance(location, NameLoc):
        return file_location(location.location)
    if isinstance(location, CallSiteLoc):
        return file_location(location.callee)
    if isinstance(location, FusedLoc):
        for inner in location.locations.data:  # type: ignore[attr-defined]
            found = file_location(inner)
            if found is not None:
                return found
    return None


def function_location(op: llvm.FuncOp) -> FileLineColLoc | None:
    """The function's location, else that of its first op that has one."""
    found = file_location(op.location)
    if found is not None:
        return found
    for inner in op.body.walk():
        found = file_location(inner.location)
        if found is not None:
            return found
    return None


class LineInfo:
    """The debug metadata of one llvmlite module; the compile unit and the module flags are
    added with the first function that has a location."""

    def __init__(self, out: ir.Module, kind: Kind) -> None:
        self.out = out
        self.kind = kind
        self.unit: ir.DIValue | None = None
        self.files: dict[str, ir.DIValue] = {}

    def file(self, name: str) -> ir.DIValue:
        found = self.files.get(name)
        if found is None:
            shown = NOT_IN_PTX.sub("_", name) if self.kind.ptx_names else name
            directory, base = os.path.split(shown)
            found = self.out.add_debug_info("DIFile", {"filename": base, "directory": directory})
            self.files[name] = found
        return found

    def compile_unit(self, file: ir.DIValue) -> ir.DIValue:
        from llvmlite import ir

        if self.unit is not None:
            return self.unit
        self.unit = self.out.add_debug_info(
            "DICompileUnit",
            {
                "language": ir.DIToken("DW_LANG_C"),
                "file": file,
                "producer": "gpuir",
                "isOptimized": True,
                "runtimeVersion": 0,
                "emissionKind": ir.DIToken(self.kind.emission_kind),
                "nameTableKind": ir.DIToken("None"),
            },
            is_distinct=True,
        )
        self.out.add_named_metadata("llvm.dbg.cu", self.unit)
        i32 = ir.IntType(32)
        flags = self.out.add_named_metadata("llvm.module.flags")
        for name, value in (("Dwarf Version", self.kind.dwarf_version), ("Debug Info Version", 3)):
            flags.add(self.out.add_metadata([ir.Constant(i32, 2), name, ir.Constant(i32, value)]))
        return self.unit

    def function(self, function: ir.Function, op: llvm.FuncOp) -> FunctionLines | None:
        """Give `function` its `DISubprogram`, at `op`'s location; None when it has none."""
        from llvmlite import ir

        location = function_location(op)
        if location is None:
            return None
        file = self.file(location.filename.data)
        subprogram = self.out.add_debug_info(
            "DISubprogram",
            {
                "name": function.name,
                "scope": file,
                "file": file,
                "line": location.line.data,
                "scopeLine": location.line.data,
                "type": self.out.add_debug_info(
                    "DISubroutineType", {"types": self.out.add_metadata([])}
                ),
                "spFlags": ir.DIToken("DISPFlagDefinition"),
                "unit": self.compile_unit(file),
            },
            is_distinct=True,
        )
        function.set_metadata("dbg", subprogram)
        return FunctionLines(self, subprogram, location)


class FunctionLines:
    """The `DILocation`s of one function's instructions."""

    def __init__(self, info: LineInfo, subprogram: ir.DIValue, location: FileLineColLoc):
        self.info = info
        self.subprogram = subprogram
        self.file_name = location.filename.data
        self.scopes: dict[str, ir.DIValue] = {self.file_name: subprogram}
        self.locations: dict[FileLineColLoc, ir.DIValue] = {}
        self.last = self.at_location(location)

    def at(self, op: Operation) -> ir.DIValue:
        """The `DILocation` of an instruction made from `op` (module docstring)."""
        location = file_location(op.location)
        if location is not None:
            self.last = self.at_location(location)
        return self.last

    def at_location(self, location: FileLineColLoc) -> ir.DIValue:
        found = self.locations.get(location)
        if found is not None:
            return found
        name = location.filename.data
        scope = self.scopes.get(name)
        if scope is None:  # an op from another file: a lexical block file in the function
            scope = self.info.out.add_debug_info(
                "DILexicalBlockFile",
                {"scope": self.subprogram, "file": self.info.file(name), "discriminator": 0},
            )
            self.scopes[name] = scope
        found = self.info.out.add_debug_info(
            "DILocation",
            {"line": location.line.data, "column": location.column.data, "scope": scope},
        )
        self.locations[location] = found
        return found


def wrapper_location(out: ir.Module, wrapper: ir.Function, callee: ir.Function):
    """For a function that gpuir adds around a translated one (the cpu provider's launch
    entries, the compiled host's entries): a `DISubprogram` at the callee's line, and the
    `DILocation` for its instructions; None when the callee has no line info. Without it the
    callee's lines are lost where LLVM inlines it: only a function with a `DISubprogram` gets
    a line table."""
    from llvmlite import ir

    subprogram = callee.metadata.get("dbg")
    if subprogram is None:
        return None
    fields = dict(subprogram.operands)
    wrapped = out.add_debug_info(
        "DISubprogram",
        {
            "name": wrapper.name,
            "scope": fields["file"],
            "file": fields["file"],
            "line": fields["line"],
            "scopeLine": fields["line"],
            "type": fields["type"],
            "spFlags": ir.DIToken("DISPFlagDefinition"),
            "unit": fields["unit"],
        },
        is_distinct=True,
    )
    wrapper.set_metadata("dbg", wrapped)
    return out.add_debug_info("DILocation", {"line": fields["line"], "column": 0, "scope": wrapped})
