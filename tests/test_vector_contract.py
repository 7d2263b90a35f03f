"""The numbers that tests/lit/upstream/vector-contract.mlir checks (`vector.contract` on interp
and cpu), computed again with numpy from the inputs its comment gives."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

PROGRAM = Path(__file__).parent / "lit" / "upstream" / "vector-contract.mlir"


def checked_memrefs() -> list[np.ndarray]:
    """The data of each memref that the CHECK lines print, in order."""
    memrefs: list[list[float]] = []
    for line in PROGRAM.read_text().splitlines():
        match = re.match(r"// CHECK(?:-NEXT)?:\s+(.*)$", line)
        if match is None:
            continue
        text = match.group(1)
        if text.startswith("Unranked Memref"):
            memrefs.append([])
            continue
        memrefs[-1].extend(float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text))
    return [np.array(values) for values in memrefs]


def test_check_lines_are_numpys():
    i, k = np.arange(4)[:, None], np.arange(8)[None, :]
    kk, j = np.arange(8)[:, None], np.arange(4)[None, :]
    a = ((8 * i + k) / 4 - 3).astype(np.float16).astype(np.float32)
    b = ((kk - 2 * j) / 2).astype(np.float16).astype(np.float32)
    ia, ib = 8 * i + k - 12, kk - 2 * j
    o = np.concatenate([-(a @ b + t + t) for t in range(4)])
    q = np.array([np.maximum(-t, (ia[t][:, None] * ib).max(axis=0)) for t in range(4)])
    r = np.float32(0.5) + (a * a).sum(axis=1)
    found = checked_memrefs()
    assert len(found) == 3
    for expected, got in zip((o, q, r), found, strict=True):
        np.testing.assert_array_equal(got, expected.ravel())
