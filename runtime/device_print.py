"""Kernel `printf` on the compiled providers: the print buffer a launch writes records into
(`gpuir.lowering.llvm.device_printf`), and its records as text, formatted as the host formats.

A provider whose device module prints (`formats_of(module)` is not None) gives each launch a
buffer of `CAPACITY` bytes: it sets the module's globals (buffer address, capacity, cursor 0),
launches, and after the launch `text(...)` turns the bytes claimed into the launch's output,
record by record in the order they were claimed; records that did not fit are counted, and the
provider warns about them (as CUDA drops what overflows its printf FIFO, but not silently).
"""

from __future__ import annotations

import struct
import warnings
from dataclasses import dataclass
from typing import IO

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation

from gpuir.ir.diagnostics import OpWarning
from gpuir.lowering.llvm.print_abi import FORMATS_ATTR, parse_header
from gpuir.runtime.scalars import float_dtype, int_width, print_text, unsigned, wrap

CAPACITY = 1 << 20
"""Bytes of print buffer per launch (CUDA's printf FIFO is 1 MiB by default too)."""
SLOT = struct.Struct("<q")
FLOAT_SLOT = struct.Struct("<d")


@dataclass(frozen=True)
class Format:
    """One print call of a device module: its format string, kind (`format`, `int`, `char`)
    and value types."""

    text: str
    kind: str
    types: tuple[Attribute, ...]


def formats_of(module: ModuleOp) -> list[Format] | None:
    """The print calls of a lowered device module, by id; None when it prints nothing."""
    return formats_from(module.attributes.get(FORMATS_ATTR))


def formats_from(found: Attribute | None) -> list[Format] | None:
    """The print calls in a `gpu.print_formats` attribute, by id; None for no attribute."""
    if not isinstance(found, ArrayAttr):
        return None
    formats = []
    for entry in found.data:
        assert isinstance(entry, ArrayAttr)
        text, kind, types = entry.data
        assert isinstance(text, StringAttr) and isinstance(kind, StringAttr)
        assert isinstance(types, ArrayAttr)
        formats.append(Format(text.data, kind.data, tuple(types.data)))
    return formats


def value_of(slot: bytes, type_: Attribute) -> object:
    """A record slot as the run-time value of `type_`."""
    if (width := int_width(type_)) is not None:
        raw = SLOT.unpack(slot)[0]
        return raw & 1 if width == 1 else wrap(raw, width)
    dtype = float_dtype(type_)
    assert dtype is not None
    with np.errstate(all="ignore"):
        return dtype(FLOAT_SLOT.unpack(slot)[0])  # exact: the slot holds the value widened


@dataclass
class Output:
    """A launch's print output: its text and the records that did not fit."""

    text: str
    lost: int


def text(data: bytes | memoryview, claimed: int, capacity: int, formats: list[Format]) -> Output:
    """The records in `data[:min(claimed, capacity)]` as text; `lost` counts the claimed bytes
    past the capacity."""
    pieces: list[str] = []
    end = min(claimed, capacity)
    at = 0
    while at + 8 <= end:
        header = SLOT.unpack_from(data, at)[0]
        ident, count = parse_header(header)
        if not 0 <= ident < len(formats) or at + 8 * (1 + count) > end:
            break  # not a record: the rest was claimed by records that did not fit
        entry = formats[ident]
        if count != len(entry.types):
            break
        values = [
            value_of(bytes(data[at + 8 * (1 + i) : at + 8 * (2 + i)]), t)
            for i, t in enumerate(entry.types)
        ]
        at += 8 * (1 + count)
        if entry.kind == "char":
            pieces.append(chr(unsigned(values[0], 8)))  # type: ignore[arg-type]
        elif entry.kind == "int":
            pieces.append(str(values[0]))
        else:
            pieces.append(print_text(entry.text, values, entry.types))
    return Output("".join(pieces), max(claimed - end, 0))


def write(output: Output, out: IO[str], what: str, op: Operation | None) -> None:
    """Write a launch's output to `out`; warn (at the launch) about records that did not fit:
    `what` names the output (`cpu: the printf output of @k`)."""
    if output.text:
        out.write(output.text)
    if output.lost:
        message = (
            f"{what} was cut: {output.lost} bytes of records did not fit the {CAPACITY}-byte "
            "print buffer"
        )
        warnings.warn(OpWarning(op, message) if op is not None else message, stacklevel=3)
