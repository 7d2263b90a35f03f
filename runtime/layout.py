"""Tensor layouts: how a logical array of `shape` sits in a buffer's dense storage.

A `Layout` maps index `(i_0, …, i_{n-1})` to storage element `offset + Σ i_k · strides[k]`
(strides and offset in elements, not bytes). `Layout.dense(shape)` is row-major storage; slicing,
transposing, broadcasting and explicit strides make new layouts over the same storage, which is
how `gpuir.api.Buffer` views allocate nothing:

    dense = Layout.dense((4, 6))              # strides (6, 1)
    dense[1:3, ::2]                           # shape (2, 3), strides (6, 2), offset 6
    dense.T                                   # shape (6, 4), strides (1, 6)
    Layout.dense((6,)).broadcast_to((4, 6))   # shape (4, 6), strides (0, 1)

The semantics are numpy's (basic indexing, `transpose`, `broadcast_to`,
`np.lib.stride_tricks.as_strided`), in elements. Strides may be negative (`[::-1]`), as in numpy;
a layout is checked when it is made: extents and offset are non-negative and no element lies
before the start of the storage. `check(size)` is the other half, done when a layout is applied
to a buffer: no element lies at or past its end (`reach`).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType

import numpy as np

Index = int | slice | EllipsisType | None


def _ints(values: Sequence[int] | int, what: str) -> tuple[int, ...]:
    if not isinstance(values, Sequence):
        values = (values,)
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(f"a layout's {what} are integers, got {tuple(values)!r}") from None


def dense_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides of `shape`, in elements."""
    strides: list[int] = []
    step = 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


@dataclass(frozen=True, init=False)
class Layout:
    """A checked strided layout: `shape`, `strides` (elements), `offset` (elements, of the
    element at index `(0, …, 0)`). See the module docstring."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int

    def __init__(self, shape: Sequence[int], strides: Sequence[int], offset: int = 0):
        shape, strides = _ints(shape, "extents"), _ints(strides, "strides")
        offset = operator.index(offset)
        if len(shape) != len(strides):
            raise ValueError(f"a layout of shape {shape} needs {len(shape)} strides, got {strides}")
        if any(extent < 0 for extent in shape):
            raise ValueError(f"a layout's extents are non-negative, got shape {shape}")
        if offset < 0:
            raise ValueError(f"a layout's offset is non-negative, got {offset}")
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "strides", strides)
        object.__setattr__(self, "offset", offset)
        if self.span[0] < 0:
            raise ValueError(
                f"{self!r} reaches element {self.span[0]}, before the start of its storage"
            )

    @classmethod
    def dense(cls, shape: Sequence[int] | int, offset: int = 0) -> Layout:
        """Row-major storage of `shape` (from element `offset`)."""
        shape = _ints(shape, "extents")
        return cls(shape, dense_strides(shape), offset)

    def __repr__(self) -> str:
        return f"Layout(shape={self.shape}, strides={self.strides}, offset={self.offset})"

    # --- what it covers ---------------------------------------------------------------------

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of logical elements."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def span(self) -> tuple[int, int]:
        """The storage elements `[first, end)` the layout touches (lowest to highest); `(0, 0)`
        for a layout with no elements."""
        if self.size == 0:
            return (0, 0)
        low = high = self.offset
        for extent, stride in zip(self.shape, self.strides, strict=True):
            low += min(0, (extent - 1) * stride)
            high += max(0, (extent - 1) * stride)
        return (low, high + 1)

    @property
    def reach(self) -> int:
        """How many storage elements a buffer needs for this layout: one past the highest
        element, `offset + Σ (shape_k - 1) · strides_k + 1` for non-negative strides; 0 when
        the layout has no elements."""
        return self.span[1]

    @property
    def is_contiguous(self) -> bool:
        """Row-major and gap-free (numpy's C-contiguous: extents of 1 do not count): the
        elements are storage `[offset, offset + size)` in order."""
        if self.size <= 1:
            return True
        expected = 1
        for extent, stride in zip(reversed(self.shape), reversed(self.strides), strict=True):
            if extent == 1:
                continue
            if stride != expected:
                return False
            expected *= extent
        return True

    @property
    def is_broadcast(self) -> bool:
        """Some axis of more than one element has stride 0 (a `broadcast_to`)."""
        return any(e > 1 and s == 0 for e, s in zip(self.shape, self.strides, strict=True))

    @property
    def is_injective(self) -> bool:
        """No two indices share a storage element, so the layout can be written through.
        Exact (it compares the elements), so it costs as much as `indices()`."""
        if self.is_contiguous:
            return True
        if self.is_broadcast:
            return False
        return np.unique(self.indices()).size == self.size

    def indices(self) -> np.ndarray:
        """The storage element of every index: an `int64` array of `shape`."""
        out = np.full(self.shape, self.offset, dtype=np.int64)
        for axis, (extent, stride) in enumerate(zip(self.shape, self.strides, strict=True)):
            steps = np.arange(extent, dtype=np.int64) * stride
            out += steps.reshape((extent,) + (1,) * (self.ndim - axis - 1))
        return out

    def check(self, size: int, what: str = "the buffer") -> Layout:
        """This layout, if it stays within a storage of `size` elements; else a ValueError
        naming both."""
        if self.reach > size:
            raise ValueError(
                f"{self!r} reaches {self.reach} elements, but {what} holds {size} elements"
            )
        if self.offset > size:  # no elements, but its first one would be past the end
            raise ValueError(f"{self!r} starts past the end of {what}, which holds {size} elements")
        return self

    # --- new layouts over the same storage ---------------------------------------------------

    def slice(self, *index: Index) -> Layout:
        """numpy basic indexing: per axis an integer (the axis goes; negative counts from the
        end), a slice (any step, negative too), `...` (the axes not named) or None (a new axis
        of extent 1)."""
        if index.count(Ellipsis) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        named = sum(i is not None and i is not Ellipsis for i in index)
        if named > self.ndim:
            raise IndexError(
                f"too many indices for a layout: it is {self.ndim}-dimensional, but {named} were "
                "indexed"
            )
        if Ellipsis in index:
            at = index.index(Ellipsis)
            index = index[:at] + (slice(None),) * (self.ndim - named) + index[at + 1 :]
        else:
            index = index + (slice(None),) * (self.ndim - named)
        shape: list[int] = []
        strides: list[int] = []
        offset = self.offset
        axis = 0
        empty = False
        moves = 0
        for item in index:
            if item is None:
                shape.append(1)
                strides.append(0)
                continue
            extent, stride = self.shape[axis], self.strides[axis]
            if isinstance(item, slice):
                start, _, step = item.indices(extent)
                length = len(range(*item.indices(extent)))
                shape.append(length)
                strides.append(stride * step)
                empty |= length == 0
                moves += start * stride if length else 0
            else:
                try:
                    if isinstance(item, bool | np.bool_):
                        raise TypeError
                    i = operator.index(item)
                except TypeError:
                    raise TypeError(
                        "a layout is indexed by integers, slices, '...' and None, got "
                        f"{type(item).__name__}"
                    ) from None
                if not -extent <= i < extent:
                    raise IndexError(
                        f"index {i} is out of bounds for axis {axis} with size {extent}"
                    )
                moves += (i + extent if i < 0 else i) * stride
            axis += 1
        return Layout(shape, strides, offset if empty else offset + moves)

    def __getitem__(self, index: Index | tuple[Index, ...]) -> Layout:
        return self.slice(*index) if isinstance(index, tuple) else self.slice(index)

    def transpose(self, perm: Sequence[int] | None = None) -> Layout:
        """The axes permuted: axis k of the result is axis `perm[k]` (negative counts from the
        end); by default reversed."""
        if perm is None:
            perm = tuple(reversed(range(self.ndim)))
        axes = tuple(operator.index(p) + (self.ndim if p < 0 else 0) for p in perm)
        if sorted(axes) != list(range(self.ndim)):
            raise ValueError(f"{tuple(perm)} is no permutation of the {self.ndim} axes")
        return Layout([self.shape[a] for a in axes], [self.strides[a] for a in axes], self.offset)

    @property
    def T(self) -> Layout:  # noqa: N802  # numpy's name
        return self.transpose()

    def broadcast_to(self, shape: Sequence[int] | int) -> Layout:
        """numpy's broadcast: the axes line up from the right; an axis of extent 1 repeats
        (stride 0), new leading axes too."""
        shape = _ints(shape, "extents")
        if len(shape) < self.ndim or any(extent < 0 for extent in shape):
            raise ValueError(f"cannot broadcast a layout of shape {self.shape} to {shape}")
        lead = len(shape) - self.ndim
        strides = [0] * lead
        for extent, old, stride in zip(shape[lead:], self.shape, self.strides, strict=True):
            if old == extent:
                strides.append(stride)
            elif old == 1:
                strides.append(0)
            else:
                raise ValueError(f"cannot broadcast a layout of shape {self.shape} to {shape}")
        return Layout(shape, strides, self.offset)

    def as_strided(
        self, shape: Sequence[int] | int, strides: Sequence[int] | int, offset: int = 0
    ) -> Layout:
        """Explicit `shape` and `strides` (elements) from this layout's first element moved by
        `offset` elements: `np.lib.stride_tricks.as_strided` in elements."""
        return Layout(_ints(shape, "extents"), _ints(strides, "strides"), self.offset + offset)
