"""The format of a `printf.print_format` in device code, and the C conversions
(`gpu.printf_specs`) an imported `gpu.printf` gives its values (`CSpec`)."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
)
from xdsl.ir import Operation

PRINTF_SPECS_ATTR = "gpu.printf_specs"
"""On a `printf.print_format` in device code: per value, `""` or the C conversion it prints
with, without its `%` (`"d"`, `"-8.3f"`, `"08llx"`: a `CSpec`; what an imported `gpu.printf`
says)."""

C_CONVERSION = re.compile(
    r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?"
    r"(?P<length>hh|h|ll|l|j|z|t|L|q)?(?P<conversion>.?)",
    re.DOTALL,
)
"""A C printf conversion as written (`%-8.3f`), any conversion character (`CSpec.problem`)."""

INT_CONVERSIONS = "diouxXc"
FLOAT_CONVERSIONS = "fFeEgG"
INT_BITS = {"hh": 8, "h": 16, "": 32, "l": 64, "ll": 64, "j": 64, "z": 64, "t": 64}
"""The bits of the C argument an integer conversion reads, by its length modifier."""


@dataclass(frozen=True)
class CSpec:
    """A C printf conversion gpuir prints as C does: `%[flags][width][.precision][length]c`
    with `c` one of `d i o u x X c f F e E g G` (`problem` says why another is not)."""

    flags: str
    width: int
    precision: int | None
    length: str
    conversion: str

    @staticmethod
    def problem(found: re.Match[str]) -> str | None:
        """Why a `C_CONVERSION` match is not a `CSpec`, or None."""
        flags, length, conversion = found["flags"], found["length"] or "", found["conversion"]
        if conversion == "s":
            return "%s (gpu.printf takes no string: its values are integers, index and floats)"
        if conversion in ("a", "A"):
            return f"{found[0]} (hexadecimal floats are not supported (yet))"
        if not conversion or conversion not in INT_CONVERSIONS + FLOAT_CONVERSIONS:
            return f"the conversion {found[0]!r}"
        if "*" in (found["width"], found["precision"]):
            return f"a width or precision taken from a value ({found[0]})"
        lengths = {"c": ("",), **dict.fromkeys(FLOAT_CONVERSIONS, ("", "l"))}
        if length not in lengths.get(conversion, INT_BITS):
            return f"the length modifier {length!r} of %{conversion} ({found[0]})"
        undefined = {"d": "#", "i": "#", "u": "#", "c": "#0"}.get(conversion, "")
        precise = found["precision"] is not None
        if any(f in undefined for f in flags) or (conversion == "c" and precise):
            return f"{found[0]}, which C leaves undefined"
        return None

    @staticmethod
    def parse(text: str) -> CSpec:
        """The spec `text` (a conversion without its `%`); ValueError for another."""
        found = C_CONVERSION.fullmatch("%" + text)
        problem = CSpec.problem(found) if found is not None else f"the conversion {text!r}"
        if problem is not None:
            raise ValueError(f"cannot print {problem}")
        assert found is not None
        precision = found["precision"]
        return CSpec(
            found["flags"],
            int(found["width"] or 0),
            None if precision is None else int(precision or 0),
            found["length"] or "",
            found["conversion"],
        )

    @property
    def bits(self) -> int:
        """The bits of the C argument of an integer conversion (`%c`: 8)."""
        return 8 if self.conversion == "c" else INT_BITS[self.length]


def format_fields(text: str) -> Iterator[tuple[str, str | None, int, str]]:
    """A `printf.print_format` format string (Python's: `{}`, `{N}`, `{{`) as its pieces: the
    literal text before each field, the field as written (None after the last), the index of
    its value and its spec."""
    automatic = 0
    for literal, field, spec, _ in string.Formatter().parse(text):
        index = -1
        if field == "":
            index, automatic = automatic, automatic + 1
        elif field is not None:
            index = int(field)
        yield literal, field, index, spec or ""


def with_specs(text: str, specs: Sequence[str]) -> str:
    """`text` with the field of value `k` written `{:specs[k]}` where that is not empty."""
    out = []
    for literal, field, index, _ in format_fields(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        spec = specs[index] if index < len(specs) else ""
        out.append(f"{{{field}:{spec}}}" if spec else f"{{{field}}}")
    return "".join(out)


def format_text(op: Operation) -> str:
    """A `printf.print_format`'s format string with its `gpu.printf_specs` (`with_specs`)."""
    text = op.format_str.data  # type: ignore[attr-defined]
    found = op.attributes.get(PRINTF_SPECS_ATTR)
    if not isinstance(found, ArrayAttr):
        return text
    return with_specs(text, [spec.data for spec in found.data])  # type: ignore[attr-defined]
