"""Scalar values at run time: how every part of the runtime represents, converts, parses and
prints them.

Representation (the same in the host executor, in `interp` kernels and across the provider
interface):
- `iN` and `index` (64 bits): a Python `int`, two's complement, canonical *signed*
  (`-2**(N-1) <= v < 2**(N-1)`), except `i1`, which is 0 or 1. Arithmetic is exact and wraps
  with `wrap`; an op that reads its operands as unsigned uses `unsigned`.
- `f16`, `f32`, `f64`: a numpy `float16` / `float32` / `float64`, so that every operation is
  rounded to its type (numpy computes `float16` in `float32` and rounds once: correct for
  `+ - * /`).
- a memory token `!mem.M<a>`: `TOKEN`.

Conversions that can round twice through `float64` (`int` → `f32`, decimal text → `f32`) use
`round_exact`, which rounds the exact value once, to nearest-even.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
)
from xdsl.ir import Attribute

from gpuir.ir.data_layout import INDEX_WIDTH, int_width  # noqa: F401  # re-exported
from gpuir.ir.integers import signed, unsigned, wrap  # noqa: F401  # re-exported

if TYPE_CHECKING:
    from gpuir.dialects.gpu import CSpec


class Token:
    """The value of a memory token (`!mem.M<a>`): it carries no data."""

    def __repr__(self) -> str:
        return "TOKEN"


TOKEN = Token()

FloatScalar = np.float16 | np.float32 | np.float64
FLOAT_DTYPES: dict[type[Attribute], type[np.floating]] = {
    Float16Type: np.float16,
    Float32Type: np.float32,
    Float64Type: np.float64,
}
FLOAT_MAX = {dtype: float(np.finfo(dtype).max) for dtype in FLOAT_DTYPES.values()}
"""The largest finite value of each float type, as a Python float."""


def float_dtype(type_: Attribute) -> type[np.floating] | None:
    """The numpy type of a float type we run (f16, f32, f64); None for any other type."""
    return FLOAT_DTYPES.get(type(type_))


def is_scalar_type(type_: Attribute) -> bool:
    return int_width(type_) is not None or float_dtype(type_) is not None


def round_exact(exact: Fraction | int, dtype: type[np.floating]) -> np.floating:
    """The float of `dtype` nearest to the exact rational `exact` (ties to even)."""
    approx = float(exact) if abs(exact) < 2**1024 else float("inf") * (1 if exact > 0 else -1)
    if dtype is np.float64:
        return np.float64(approx)  # int / Fraction to float is correctly rounded in Python
    with np.errstate(all="ignore"):
        guess = dtype(approx)
    info = np.finfo(dtype)
    if not np.isfinite(guess):
        top = Fraction(float(info.max))
        with np.errstate(all="ignore"):
            below = np.nextafter(info.max, dtype(0))
        half_ulp = (top - Fraction(float(below))) / 2
        if abs(exact) < top + half_ulp:
            return dtype(info.max) if exact > 0 else dtype(-info.max)
        return guess
    with np.errstate(all="ignore"):
        candidates = [
            guess,
            np.nextafter(guess, dtype(np.inf)),
            np.nextafter(guess, dtype(-np.inf)),
        ]
    best, best_distance = guess, None
    for candidate in candidates:
        if not np.isfinite(candidate):
            continue
        distance = abs(Fraction(float(candidate)) - exact)
        if best_distance is None or distance < best_distance:
            best, best_distance = candidate, distance
        elif distance == best_distance and _is_even(candidate):
            best = candidate
    return best


def _is_even(value: np.floating) -> bool:
    bits = np.array(value).view(f"u{np.dtype(type(value)).itemsize}")
    return int(bits) & 1 == 0


def from_attr(attr: Attribute) -> object:
    """The run-time value of an `arith.constant`'s integer or float attribute."""
    if isinstance(attr, IntegerAttr):
        width = int_width(attr.type)
        assert width is not None
        return wrap(attr.value.data, width)
    if isinstance(attr, FloatAttr) and (dtype := float_dtype(attr.type)) is not None:
        return dtype(attr.value.data)
    raise ValueError(f"cannot run a constant {attr}")


def int_range(width: int) -> tuple[int, int]:
    """The numbers an `iN` argument takes: its signed range (`i1`: 0 and 1)."""
    return (0, 1) if width == 1 else (-(1 << (width - 1)), (1 << (width - 1)) - 1)


def int_range_error(value: int, type_: Attribute, bits: bool = False) -> str | None:
    """Why `value` does not fit `type_`, or None when it does: a number must be in the type's
    signed range (`i1`: 0 or 1); with `bits` (a literal in hex, octal or binary, a numpy
    unsigned integer) the unsigned range is allowed too, as the value's bit pattern."""
    width = int_width(type_)
    assert width is not None
    low, high = int_range(width)
    if low <= value <= high or (bits and 0 <= value < (1 << width)):
        return None
    hint = (
        ""
        if width == 1
        else f"; a bit pattern may be written in hex, up to {hex((1 << width) - 1)}"
    )
    return f"{value} does not fit in {type_} (from {low} to {high}{hint})"


def from_python(value: object, type_: Attribute) -> object:
    """A Python or numpy number as a run-time value of `type_`; ValueError when it is not one
    or does not fit."""
    if (width := int_width(type_)) is not None:
        if isinstance(value, bool | np.bool_):
            value = int(value)
        if not isinstance(value, int | np.integer):
            raise ValueError(f"expected an integer for {type_}, got {value!r}")
        bits = isinstance(value, np.unsignedinteger) and value.dtype.itemsize * 8 == width
        if (error := int_range_error(int(value), type_, bits)) is not None:
            raise ValueError(error)
        return wrap(int(value), width)
    if (dtype := float_dtype(type_)) is not None:
        if isinstance(value, np.floating):
            return dtype(value)
        if isinstance(value, int | np.integer) and not isinstance(value, bool):
            return int_to_float(int(value), dtype)
        if isinstance(value, float):
            if abs(value) <= FLOAT_MAX[dtype]:  # no overflow to warn of (errstate is slow)
                return dtype(value)
            with np.errstate(all="ignore"):
                return dtype(value)
        raise ValueError(f"expected a number for {type_}, got {value!r}")
    raise ValueError(f"cannot pass a value of type {type_}")


def int_to_float(value: int, dtype: type[np.floating]) -> np.floating:
    """An integer rounded once to `dtype`."""
    if abs(value) <= 2**53:
        with np.errstate(all="ignore"):
            return dtype(float(value))
    return round_exact(value, dtype)


def parse_arguments(texts: Sequence[str], types: Sequence[Attribute], name: str) -> list[object]:
    """Command-line arguments as values of `@name`'s scalar parameters `types` (gpu-run's and
    `--check-args`' syntax); ValueError with a message that says which one and why."""
    if len(texts) != len(types):
        expected = ", ".join(str(t) for t in types) or "none"
        raise ValueError(f"@{name} takes {len(types)} argument(s) ({expected}), got {len(texts)}")
    values = []
    for i, (text, type_) in enumerate(zip(texts, types, strict=True), start=1):
        try:
            values.append(parse(text, type_))
        except ValueError as e:
            raise ValueError(f"argument {i} of @{name}: {e}") from None
    return values


def parse(text: str, type_: Attribute) -> object:
    """A command-line argument as a run-time value of `type_`; ValueError with a message that
    says what was expected."""
    if (width := int_width(type_)) is not None:
        value = _parse_int(text, type_)
        bits = text.strip().lower().lstrip("+-").startswith(("0x", "0o", "0b"))
        if (error := int_range_error(value, type_, bits)) is not None:
            raise ValueError(error)
        return wrap(value, width)
    if (dtype := float_dtype(type_)) is not None:
        return _parse_float(text, dtype, type_)
    raise ValueError(f"cannot pass a value of type {type_} on the command line")


def _parse_int(text: str, type_: Attribute) -> int:
    stripped = text.strip()
    if int_width(type_) == 1 and stripped.lower() in ("true", "false"):
        return int(stripped.lower() == "true")
    for base in (0, 10):
        try:
            return int(stripped, base)
        except ValueError:
            continue
    raise ValueError(f"'{text}' is not an integer (expected {type_})")


def _parse_float(text: str, dtype: type[np.floating], type_: Attribute) -> np.floating:
    stripped = text.strip()
    try:
        value = float(stripped)
        exact: Fraction | None = None
        if np.isfinite(value) and value != 0:
            exact = Fraction(stripped)
    except ValueError:
        try:
            value = float.fromhex(stripped)
            exact = Fraction(value)
        except ValueError:
            raise ValueError(f"'{text}' is not a number (expected {type_})") from None
    if exact is None:
        return dtype(value)
    return round_exact(exact, dtype)


def to_numpy(value: object, type_: Attribute) -> object:
    """A run-time value as what the Python API returns: a numpy scalar for numbers
    (`i1` → `bool_`, `iN` → the smallest `intK` that holds it, floats as they are)."""
    width = int_width(type_)
    if width is None:
        return value
    assert isinstance(value, int)
    if width == 1:
        return np.bool_(value)
    for bits, kind in ((8, np.int8), (16, np.int16), (32, np.int32), (64, np.int64)):
        if width <= bits:
            return kind(signed(value, width))
    return value


def format_value(value: object, type_: Attribute, spec: str = "") -> str:
    """How gpu-run prints a result (and printf a value): integers in decimal (signed; `i1` as
    0 or 1), floats as the shortest text that reads back to the same value of their type. A
    value with a C conversion `spec` (`d`, `-8.3f`, `08x`: an imported `gpu.printf`'s, a
    `CSpec`) as C's printf prints it (`c_format`)."""
    if spec:
        from gpuir.dialects.gpu import CSpec

        return c_format(CSpec.parse(spec), value, type_)
    if int_width(type_) is not None:
        return str(value)
    if (dtype := float_dtype(type_)) is not None:
        return str(dtype(value))
    return repr(value)


def c_format(spec: CSpec, value: object, type_: Attribute) -> str:
    """`value` as C's `printf` prints it with `spec`: a float widened exactly to a double (C's
    argument promotion), an integer as its type's signed value (`i1` 0 or 1) converted to the
    conversion's argument type (`%d` an `int`, `%llx` an `unsigned long long`, `%c` an
    `unsigned char`); a `%c` byte from 0x80 is its Latin-1 character, as `printf.print_char`."""
    if spec.conversion in "fFeEgG":
        dtype = float_dtype(type_)
        if dtype is None:
            raise ValueError(f"%{spec.conversion} of a value of type {type_}")
        return c_float(spec, float(dtype(value)))
    if int_width(type_) is None:
        raise ValueError(f"%{spec.conversion} of a value of type {type_}")
    number = int(value)  # type: ignore[call-overload]
    if spec.conversion == "c":
        return pad(spec, "", chr(unsigned(number, 8)), zeros=False)
    if spec.conversion in "di":
        number = wrap(number, spec.bits)
    else:
        number = unsigned(number, spec.bits)
    digits = format(abs(number), {"o": "o", "x": "x", "X": "X"}.get(spec.conversion, "d"))
    if number == 0 and spec.precision == 0:
        digits = ""  # C prints no digit for a zero of precision 0
    digits = digits.rjust(spec.precision or 0, "0")
    if spec.conversion == "o" and "#" in spec.flags and not digits.startswith("0"):
        digits = "0" + digits
    prefix = ""
    if spec.conversion in "di":
        prefix = (
            "-" if number < 0 else "+" if "+" in spec.flags else " " if " " in spec.flags else ""
        )
    elif spec.conversion in "xX" and "#" in spec.flags and number != 0:
        prefix = "0" + spec.conversion
    return pad(spec, prefix, digits, zeros=spec.precision is None)


def c_float(spec: CSpec, number: float) -> str:
    """A double as C's `%f`, `%e`, `%g` (and `F E G`) print it: Python's `%` where the value is
    finite (the same text as glibc's), else `inf` / `nan` with the sign bit's `-` (which
    Python drops for a NaN), padded with spaces whatever the `0` flag."""
    if math.isfinite(number):
        precision = "" if spec.precision is None else f".{spec.precision}"
        return f"%{spec.flags}{spec.width or ''}{precision}{spec.conversion}" % number
    text = "nan" if math.isnan(number) else "inf"
    text = text.upper() if spec.conversion.isupper() else text
    sign = "-" if math.copysign(1.0, number) < 0 else ""
    sign = sign or ("+" if "+" in spec.flags else " " if " " in spec.flags else "")
    return pad(spec, sign, text, zeros=False)


def pad(spec: CSpec, prefix: str, digits: str, zeros: bool) -> str:
    """`prefix` and `digits` in the spec's width: spaces after with `-`, zeros between them
    with `0` (where `zeros` allows it), else spaces before."""
    fill = spec.width - len(prefix) - len(digits)
    if fill <= 0:
        return prefix + digits
    if "-" in spec.flags:
        return prefix + digits + " " * fill
    if "0" in spec.flags and zeros:
        return prefix + "0" * fill + digits
    return " " * fill + prefix + digits


def print_text(text: str, values: Sequence[object], types: Sequence[Attribute]) -> str:
    """The text `printf.print_format` prints: `text` is Python's format string (`{}`, `{N}`,
    `{{`), each field a value by `format_value`, with the field's spec (`{:f}`) as C's
    conversion of a float (`with_specs`)."""
    from gpuir.dialects.gpu import format_fields

    out = []
    for literal, field, index, spec in format_fields(text):
        out.append(literal)
        if field is not None:
            out.append(format_value(values[index], types[index], spec))
    return "".join(out)


def format_fixed2(value: object, type_: Attribute) -> str:
    """A float as C's `printf("%.2f", (double)v)` prints it with glibc (how `buffer.print`
    prints a float element): exact decimal digits, rounded half to even, `-` for a set sign bit
    (`-0.00`, `-nan`), `inf`, `nan`. Python's `.2f` is the same, except that it drops a NaN's
    sign."""
    dtype = float_dtype(type_)
    assert dtype is not None
    number = dtype(value)
    if np.isnan(number):
        return "-nan" if np.signbit(number) else "nan"
    return f"{float(number):.2f}"
