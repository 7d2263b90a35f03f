"""`run(text, provider)` runs a program's `@main` and returns its results; `same(a, b)` compares
two result tuples exactly (integers by value, floats bit for bit, any NaN equal to any NaN:
LLVM does not define which NaN an operation returns).
`compare(seed)` runs program `seed` under `cpu` and `interp`.
"""

from __future__ import annotations

import io

import numpy as np

from differential.generator import generate

CHECKED = "cpu --check"
"""The provider name `run` takes for `CpuProvider(check=True)`."""


def run(text: str, provider: str) -> tuple[object, ...] | str:
    """`@main`'s results under `provider` (a name, or `CHECKED`), or the error it ends with
    (as text)."""
    import gpuir

    try:
        if provider == CHECKED:
            from gpuir.runtime.cpu import CpuProvider

            results = gpuir.compile(
                text, provider=CpuProvider(check=True), out=io.StringIO()
            ).main()
            return results if isinstance(results, tuple) else (results,)
        results = gpuir.compile(text, provider=provider, out=io.StringIO()).main()
    except Exception as e:  # noqa: BLE001  # a failure is an outcome to compare
        return f"{type(e).__name__}: {e}"
    return results if isinstance(results, tuple) else (results,)


def _bits(value: object) -> object:
    if isinstance(value, np.floating):
        return "nan" if np.isnan(value) else value.tobytes()
    return int(value)  # type: ignore[arg-type]


def same(a: tuple[object, ...] | str, b: tuple[object, ...] | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return len(a) == len(b) and all(_bits(x) == _bits(y) for x, y in zip(a, b, strict=True))


def compare(seed: int) -> tuple[bool, str, object, object]:
    """Run program `seed` under `cpu` and `interp`: (agree, text, cpu's, interp's)."""
    text = generate(seed)
    found, expected = run(text, "cpu"), run(text, "interp")
    return same(found, expected), text, found, expected
