"""The format of a `printf.print_format` in device code, and the C conversions
(`gpu.printf_specs`) an imported `gpu.printf` gives its floats."""

from __future__ import annotations

import string
from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
)
from xdsl.ir import Operation

PRINTF_SPECS_ATTR = "gpu.printf_specs"
"""On a `printf.print_format` in device code: per value, `""` or a C conversion of a float
(`"f"`, `"e"`, `"g"`) it prints with (what an imported `gpu.printf`'s `%f` says)."""


C_SPECS = ("f", "e", "g")
"""The C conversions of a float that a printf field may carry (`with_specs`)."""


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
