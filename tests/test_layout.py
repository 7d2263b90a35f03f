"""`gpuir.runtime.layout.Layout` against numpy: the same slices, transposes, broadcasts and explicit
strides of the same storage reach the same elements.

The storage is `np.arange(n)`, so a numpy view's values are the storage elements it reaches and
`layout.indices()` must equal them. Seeded random cases (hypothesis is not a dependency)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpuir.runtime.layout import Layout, dense_strides

CASES = 400


def random_shape(rng: random.Random, max_ndim: int = 4) -> tuple[int, ...]:
    return tuple(rng.choice([0, 1, 1, 2, 3, 4, 5]) for _ in range(rng.randint(0, max_ndim)))


def random_bound(rng: random.Random, extent: int) -> int | None:
    return rng.choice([None, rng.randint(-extent - 2, extent + 2)])


def random_index(rng: random.Random, shape: tuple[int, ...]) -> tuple[object, ...]:
    """A numpy basic index of `shape`: integers, slices with any step, None, and `...` before
    or after them (always one, so that numpy gives a 0-d view, not a scalar, for integers)."""
    k = rng.randint(0, len(shape))
    front = rng.random() < 0.3
    index: list[object] = [Ellipsis] if front else []
    for extent in shape[len(shape) - k :] if front else shape[:k]:
        if rng.random() < 0.25 and extent > 0:
            index.append(rng.randint(-extent, extent - 1))
        else:
            step = rng.choice([None, 1, 2, 3, -1, -2])
            index.append(slice(random_bound(rng, extent), random_bound(rng, extent), step))
        if rng.random() < 0.1:
            index.append(None)
    return tuple(index) if front else (*index, Ellipsis)


def numpy_layout(view: np.ndarray, storage: np.ndarray) -> Layout:
    """The layout of a numpy view of `storage`, in elements."""
    step = storage.itemsize
    offset = (view.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // step
    return Layout(view.shape, [s // step for s in view.strides], offset)


def assert_same(layout: Layout, view: np.ndarray, storage: np.ndarray) -> None:
    assert layout.shape == view.shape
    assert np.array_equal(layout.indices(), view)
    if view.size:  # the stride of an axis of extent 1 is never used: numpy's may differ
        expected = numpy_layout(view, storage)
        used = [e > 1 for e in view.shape]
        assert layout.offset == expected.offset
        assert all(
            s == t for s, t, u in zip(layout.strides, expected.strides, used, strict=True) if u
        )
        assert layout.span == (int(view.min()), int(view.max()) + 1)
        assert layout.reach == int(view.max()) + 1
    else:
        assert layout.reach == 0
    assert layout.is_contiguous == view.flags["C_CONTIGUOUS"]
    assert layout.is_injective == (np.unique(view).size == view.size)


def test_dense_is_numpy_row_major():
    for shape in [(), (0,), (3,), (2, 3), (4, 1, 5), (2, 0, 3)]:
        storage = np.arange(int(np.prod(shape)))
        assert_same(Layout.dense(shape), storage.reshape(shape), storage)
    assert dense_strides((4, 6)) == (6, 1)
    assert Layout.dense(5, offset=3) == Layout((5,), (1,), 3)


def test_random_slices_are_numpy_basic_indexing():
    rng = random.Random(6)
    for _ in range(CASES):
        shape = random_shape(rng)
        storage = np.arange(int(np.prod(shape)))
        index = random_index(rng, shape)
        expected = storage.reshape(shape)[index]
        got = Layout.dense(shape)[index]
        assert_same(got, expected, storage)
        assert got == Layout.dense(shape).slice(*index)


def test_random_chains_of_slices_transposes_and_broadcasts():
    rng = random.Random(7)
    for _ in range(CASES):
        shape = random_shape(rng, 3)
        storage = np.arange(int(np.prod(shape)) + 3)
        offset = rng.randint(0, 3)
        view = storage[offset:][: int(np.prod(shape))].reshape(shape)
        layout = Layout.dense(shape, offset)
        for _ in range(3):
            step = rng.choice(["slice", "transpose", "broadcast"])
            if step == "slice":
                index = random_index(rng, view.shape)
                view, layout = view[index], layout[index]
            elif step == "transpose":
                perm = list(range(view.ndim))
                rng.shuffle(perm)
                if rng.random() < 0.5:
                    perm = [p - view.ndim for p in perm]  # negative axes, as numpy allows
                view, layout = view.transpose(perm), layout.transpose(perm)
            else:
                target = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
                target += [e if e != 1 else rng.randint(1, 3) for e in view.shape]
                view, layout = np.broadcast_to(view, target), layout.broadcast_to(target)
            assert_same(layout, view, storage)
        assert layout.T == layout.transpose() == layout.transpose(range(layout.ndim)[::-1])


def test_random_explicit_strides_are_numpy_as_strided():
    rng = random.Random(8)
    storage = np.arange(64)
    for _ in range(CASES):
        shape = random_shape(rng, 3)
        strides = [rng.randint(0, 6) for _ in shape]
        base_offset, offset = rng.randint(0, 4), rng.randint(0, 4)
        layout = Layout.dense(1, base_offset).as_strided(shape, strides, offset)
        if layout.reach > storage.size:
            with pytest.raises(ValueError, match=f"reaches {layout.reach} elements"):
                layout.check(storage.size)
            continue
        assert layout.check(storage.size) is layout
        expected = np.lib.stride_tricks.as_strided(
            storage[base_offset + offset :], shape, [s * storage.itemsize for s in strides]
        )
        assert_same(layout, expected, storage)


def test_reach_is_the_extent_formula():
    layout = Layout((3, 4), (5, 2), 7)
    assert layout.reach == 7 + 2 * 5 + 3 * 2 + 1
    assert Layout((3, 0), (5, 2), 7).reach == 0
    assert Layout((), (), 4).reach == 5 and Layout((), (), 4).size == 1
    reversed_rows = Layout.dense((3, 4))[::-1]
    assert reversed_rows == Layout((3, 4), (-4, 1), 8)
    assert reversed_rows.span == (0, 12)


def test_contiguity_injectivity_and_broadcasts():
    assert Layout.dense((2, 3)).is_contiguous
    assert Layout.dense((2, 3))[1:].is_contiguous
    assert not Layout.dense((2, 3))[:, 1:].is_contiguous
    assert Layout((1, 3), (99, 1)).is_contiguous  # an extent of 1 has no stride to speak of
    assert not Layout.dense((2, 3)).T.is_contiguous
    wide = Layout.dense(3).broadcast_to((2, 3))
    assert wide.is_broadcast and not wide.is_injective
    assert Layout((3, 2), (2, 3)).is_injective  # interleaved, but no element twice
    assert not Layout((3, 2), (1, 2)).is_injective  # 0 1 2 / 2 3 4: element 2 twice


def test_checked_on_construction():
    with pytest.raises(ValueError, match=r"needs 2 strides, got \(1,\)"):
        Layout((2, 3), (1,))
    with pytest.raises(ValueError, match=r"extents are non-negative, got shape \(2, -1\)"):
        Layout((2, -1), (1, 1))
    with pytest.raises(ValueError, match="offset is non-negative, got -1"):
        Layout((2,), (1,), -1)
    with pytest.raises(ValueError, match="reaches element -2, before the start of its storage"):
        Layout((3,), (-2,), 2)
    with pytest.raises(TypeError, match="strides are integers"):
        Layout((3,), (1.5,))
    assert Layout((3,), (-2,), 4).span == (0, 5)


def test_applied_to_a_buffer_it_must_fit():
    layout = Layout((4, 4), (1, 4), 1)
    with pytest.raises(
        ValueError,
        match=r"Layout\(shape=\(4, 4\), strides=\(1, 4\), offset=1\) reaches 17 elements, but "
        "the buffer holds 16 elements",
    ):
        layout.check(16)
    assert layout.check(17) is layout
    with pytest.raises(ValueError, match="starts past the end of the buffer, which holds 3"):
        Layout((0,), (1,), 4).check(3)
    assert Layout((0,), (1,), 3).check(3).reach == 0


def test_bad_indices_and_broadcasts_are_numpy_errors():
    layout = Layout.dense((2, 3))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        layout[0, 3]
    with pytest.raises(IndexError, match="index -3 is out of bounds for axis 0 with size 2"):
        layout[-3]
    with pytest.raises(IndexError, match="2-dimensional, but 3 were indexed"):
        layout[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        layout[..., 0, ...]
    with pytest.raises(TypeError, match="indexed by integers, slices, '...' and None, got float"):
        layout[0.5]
    with pytest.raises(TypeError, match="got bool"):
        layout[True]
    with pytest.raises(
        ValueError, match=r"cannot broadcast a layout of shape \(2, 3\) to \(4, 3\)"
    ):
        layout.broadcast_to((4, 3))
    with pytest.raises(ValueError, match=r"to \(3,\)"):
        layout.broadcast_to(3)
    with pytest.raises(ValueError, match=r"\(0, 0\) is no permutation of the 2 axes"):
        layout.transpose((0, 0))
    with pytest.raises(ValueError, match="reaches element -1"):
        layout.as_strided((2,), (-1,))


def test_repr_and_equality():
    layout = Layout.dense((2, 3))[:, ::2]
    assert repr(layout) == "Layout(shape=(2, 2), strides=(3, 2), offset=0)"
    assert layout == Layout([2, 2], [3, 2]) and layout != Layout([2, 2], [3, 2], 1)
    assert hash(layout) == hash(Layout((2, 2), (3, 2), 0))
    assert Layout((np.int64(2),), (np.int32(1),)) == Layout.dense(2)
