"""The index schedule of the NVPTX work-group collectives (`gpuir.lowering.nvptx.collectives`), as a
Python model run against the recursive definition in docs/dialects.md for every group size CUDA allows.

The model does what the PTX does, item by item and level by level: every item stores its value
at `scratch[item]`; for each depth `d` from `ceil(log2 n) - 1` down to 0, item `j < 2^d` walks
from the root `[0, n)` along the bits of `j` to node `j` of depth `d` and, if the node holds two
items or more, sets `scratch[lo] = scratch[lo] ⊕ scratch[mid]`; the result is `scratch[0]`.
Values are expression trees (a leaf is the item's index, `(a, b)` is `a ⊕ b`), so the test
compares the exact order of combination, not a sum that might agree by chance.

For `n = 2^k` the lowering takes the warp-shuffle path instead, modelled lane by lane as well:
in each warp, at offset `o = 1, 2, …, width / 2` (`width = min(n, 32)`), every lane does
`own ⊕ shfl.down(own, o)` (PTX's clamp keeps a source inside its `width`-lane segment, else it
is the lane's own value; a lane outside the member mask gives garbage, `None`); lane 0 of each
warp writes `scratch[warp]`; for `n > 32` warp 0 loads `scratch[lane]` (garbage beyond the
`n / 32` partials) and does the same with `width = n / 32`. The result is lane 0's value.

Integer scans (exact and associative: only which items, in which order, matter) run a
Kogge–Stone scan per warp with `shfl.up` and fold the warps' totals; their model works on item
ranges, `(lo, hi)` for `v_lo ⊕ … ⊕ v_(hi-1)`, where combining checks the two ranges meet.
"""

from __future__ import annotations

import numpy as np
import pytest

Tree = int | tuple["Tree", "Tree"]
WARP = 32


def recursive_tree(lo: int, hi: int) -> Tree:
    """docs/dialects.md: `t(lo, hi) = t(lo, mid) ⊕ t(mid, hi)`, `mid = (lo + hi) // 2`, `t(i, i+1) = v_i`."""
    if hi - lo == 1:
        return lo
    mid = (lo + hi) // 2
    return (recursive_tree(lo, mid), recursive_tree(mid, hi))


def depth_of(n: int) -> int:
    """`32 - ctlz32(n - 1)`, as the PTX computes `ceil(log2 n)`."""
    below = n - 1
    leading_zeros = 32 - below.bit_length()
    return 32 - leading_zeros


def node(j: int, d: int, n: int) -> tuple[int, int]:
    """Node `j` of depth `d`: the walk from the root along the `d` bits of `j`."""
    lo, hi = 0, n
    for k in range(d):
        mid = (lo + hi) >> 1
        if (j >> (d - 1 - k)) & 1:
            lo = mid
        else:
            hi = mid
    return lo, hi


def scheduled_tree(n: int) -> Tree:
    """What the level-by-level schedule leaves in `scratch[0]`, checking on the way that no
    level reads a slot that the same level writes (each level is one barrier interval)."""
    scratch: list[Tree] = list(range(n))
    for d in reversed(range(depth_of(n))):
        writes: dict[int, Tree] = {}  # computed from the level's old values: all items at once
        right_halves: set[int] = set()
        for j in range(n):  # every item; only j < 2^d has a node
            if j >= 1 << d:
                continue
            lo, hi = node(j, d, n)
            if hi - lo < 2:
                continue
            mid = (lo + hi) >> 1
            assert lo not in writes, f"n={n} d={d}: two items write scratch[{lo}]"
            right_halves.add(mid)
            writes[lo] = (scratch[lo], scratch[mid])
        assert not right_halves & writes.keys(), f"n={n} d={d}: a slot is read and written"
        for lo, value in writes.items():
            scratch[lo] = value
    return scratch[0]


@pytest.mark.parametrize("n", range(1, 1025))
def test_schedule_is_the_fixed_tree(n: int) -> None:
    assert scheduled_tree(n) == recursive_tree(0, n)


def inner_nodes(lo: int, hi: int) -> list[tuple[int, int]]:
    if hi - lo < 2:
        return []
    mid = (lo + hi) // 2
    return [(lo, hi), *inner_nodes(lo, mid), *inner_nodes(mid, hi)]


def test_every_node_of_the_tree_is_visited_once() -> None:
    """The nodes the walk reaches (with two items or more) are exactly the tree's inner nodes."""
    for n in range(1, 1025):
        inner = inner_nodes(0, n)
        walked = [node(j, d, n) for d in range(depth_of(n)) for j in range(1 << d) if j < n]
        walked = [(lo, hi) for lo, hi in walked if hi - lo >= 2]
        assert sorted(walked) == sorted(inner), n


def test_closed_form_split_points_are_not_the_tree() -> None:
    """Why the walk: `floor(j n / 2^d)` is not where the fixed tree splits (n = 11, depth 2:
    the tree's node [2, 5) splits at 3; `floor((2j + 1) n / 2^(d+1))` gives 4)."""
    assert node(1, 2, 11) == (2, 5)
    assert (2 + 5) // 2 == 3
    assert (2 * 1 + 1) * 11 // 2**3 == 4


def test_depth_is_ceil_log2() -> None:
    for n in range(1, 1025):
        assert depth_of(n) == int(np.ceil(np.log2(n))), n


def shuffle_levels(
    lanes: list[Tree | None], width: int, base: int = 0, scale: int = 1
) -> list[Tree | None]:
    """`warp_tree` of the lowering over one warp's lanes (`len(lanes)` of them are in the mask),
    checking after each level `o` that lane `i` with `i % 2o == 0` holds the fixed tree's node
    of items `[base + scale i, base + scale (i + 2o))` (`scale = 32` for the warps' partials)."""
    segment = WARP - width
    offset = 1
    while offset < width:
        shuffled: list[Tree | None] = []
        for lane, own in enumerate(lanes):
            source = lane + offset
            if source > (lane & segment) | (WARP - 1 & ~segment):
                source = lane  # PTX's clamp: the lane's own value
            other = lanes[source] if source < len(lanes) else None  # outside the mask
            shuffled.append(None if own is None or other is None else (own, other))
        lanes = shuffled
        offset *= 2
        for lane in range(0, width, offset):
            node = recursive_tree(base + scale * lane, base + scale * (lane + offset))
            assert lanes[lane] == node, (base, lane, offset)
    return lanes


def warp_scheduled_tree(n: int) -> Tree | None:
    """What the warp-shuffle path leaves in `scratch[0]` for a power of two `n`."""
    width = min(n, WARP)
    scratch: list[Tree | None] = [None] * WARP  # slots no partial is written to: garbage
    for warp in range(0, n, WARP):
        lanes = shuffle_levels(list(range(warp, warp + width)), width, warp)
        scratch[warp // WARP] = lanes[0]
    if n <= WARP:
        return scratch[0]
    return shuffle_levels(scratch, n // WARP, 0, WARP)[0]


@pytest.mark.parametrize("n", [1 << k for k in range(11)])
def test_warp_shuffles_are_the_fixed_tree(n: int) -> None:
    assert warp_scheduled_tree(n) == recursive_tree(0, n)


def substitute(tree: Tree, leaves: list[Tree]) -> Tree:
    if isinstance(tree, int):
        return leaves[tree]
    return (substitute(tree[0], leaves), substitute(tree[1], leaves))


def test_tree_of_warp_partials_is_the_upper_levels() -> None:
    """For `n = 32 m`, `m` a power of two: the fixed tree over `m` items whose leaves are the
    warps' trees `t(32 w, 32 w + 32)` is the fixed tree over `n`."""
    for k in range(6, 11):
        n = 1 << k
        partials = [recursive_tree(w, w + WARP) for w in range(0, n, WARP)]
        assert substitute(recursive_tree(0, n // WARP), partials) == recursive_tree(0, n)


def test_not_a_power_of_two_is_not_the_aligned_tree() -> None:
    """Why only powers of two take the shuffles: for n = 48 the tree splits at 24, not at the
    warp boundary 32, so no warp holds a node of it."""
    tree = recursive_tree(0, 48)
    assert isinstance(tree, tuple)
    assert tree[0] == recursive_tree(0, 24)


Range = tuple[int, int]


def joined(left: Range, right: Range) -> Range:
    """`left ⊕ right` of two adjacent item ranges, the lower one on the left."""
    assert left[1] == right[0], f"{left} ⊕ {right} skips or repeats items"
    return (left[0], right[1])


def warp_scanned(n: int) -> list[Range]:
    """What `warp_scan` of the lowering gives each item: per warp, for `o = 1 .. 16` every lane
    takes `shfl.up(own, o)` (its own value below lane 0, PTX's clamp 0) and lanes `>= o` do
    `other ⊕ own`; the last lane of each warp stores its total at `scratch[warp]`; item 0 folds
    the totals in place; items of warp `w > 0` do `scratch[w - 1] ⊕ own`."""
    result: list[Range] = []
    scratch: list[Range] = []
    for first in range(0, n, WARP):
        lanes: list[Range] = [(i, i + 1) for i in range(first, min(n, first + WARP))]
        offset = 1
        while offset < WARP:
            shuffled = [
                lanes[lane - offset] if lane >= offset else own for lane, own in enumerate(lanes)
            ]
            lanes = [
                joined(other, own) if lane >= offset else own
                for lane, (own, other) in enumerate(zip(lanes, shuffled, strict=True))
            ]
            offset *= 2
        scratch.append(lanes[-1])
        result.extend(lanes)
    for w in range(1, len(scratch)):
        scratch[w] = joined(scratch[w - 1], scratch[w])
    return [
        joined(scratch[i // WARP - 1], own) if i >= WARP else own for i, own in enumerate(result)
    ]


def test_warp_scan_is_the_inclusive_scan() -> None:
    for n in range(1, 1025):
        assert warp_scanned(n) == [(0, i + 1) for i in range(n)], n
