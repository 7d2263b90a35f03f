"""`planted(seed, bug)` is program `seed` (`generator.generate`) with one bug planted (`PLANTS`: a read one past the end of
an array, a missing barrier, a buffer freed before the launch that reads it) and the error that
must end its run, at the first faulty access; `find_planted` runs it (`python -m differential
--planted`).
"""

from __future__ import annotations

from differential.generator import generate_with_shape
from differential.running import run

PLANTS = ("past-end", "missing-barrier", "freed")
"""The bugs `planted` puts into a program:
- `past-end`: the kernel reads its neighbour `src[flat + d]` without wrapping the index, with
  `d` such that the last work-item of the first launch reads `src[L]`, one past the end;
- `missing-barrier`: the first shared round has no barrier between each item's store to its
  slot and its load of another item's slot (only where items do read others' slots);
- `freed`: `@main` frees the first launch's input before the launch."""

SIZES = {"i32": 4, "i64": 8, "index": 8, "f32": 4, "f64": 8}


def planted(seed: int, plant: str) -> tuple[str, str] | None:
    """Program `seed` with the bug `plant`, and the start of the error that must end its run
    (at the first faulty access, in interp's order); None when the program cannot carry this
    bug (no shared round at the kernel's top level, or one whose items read their own slots)."""
    text, shape = generate_with_shape(seed, plant)
    size, length = SIZES[shape.type_], shape.length
    groups, items = shape.launches[0]
    if plant == "past-end":
        who = f"work-item (group {groups - 1}, item {items - 1})"
        return text, (
            f"out of bounds: {who} loads {size} bytes from byte offset {length * size} of a "
            f"{length * size}-byte global allocation"
        )
    if plant == "freed":
        return text, (
            f"use after free: work-item (group 0, item 0) loads {size} bytes from a "
            f"{length * size}-byte global allocation"
        )
    assert plant == "missing-barrier"
    if not shape.shared_rounds or shape.placement != "top" or items < 2:
        return None
    offset = shape.round_offsets[0] % items
    if offset == 0:
        return None
    for item in range(1, items):  # items run in order: store to my slot, then load another's
        if (item - offset) % items < item:  # an earlier item read my slot
            return text, (
                f"race on shared memory: work-item (group 0, item {item}) writes byte "
                f"{item * size} of "
            )
        if (item + offset) % items < item:  # I read the slot an earlier item wrote
            slot = (item + offset) % items
            return text, (
                f"race on shared memory: work-item (group 0, item {item}) reads byte "
                f"{slot * size} of "
            )
    raise AssertionError("unreachable: item n-1 meets one of the two")


def find_planted(seed: int, plant: str, provider: str = "interp") -> tuple[bool, str, str]:
    """Run program `seed` with the bug `plant` under `provider`: (whether its run ended with the
    expected error, the program, what the run gave). A program that cannot carry the bug counts
    as found (nothing to find)."""
    found = planted(seed, plant)
    if found is None:
        return True, "", ""
    text, expected = found
    outcome = run(text, provider)
    return isinstance(outcome, str) and expected in outcome, text, str(outcome)
