"""Strided buffer types and views (gpuir.dialects.buffer): the view ops' layouts against numpy's
slicing, transposing and broadcasting; storage_map against the layouts; the type's spelling."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, IntAttr, StridedLayoutAttr, f32
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects import make_context
from gpuir.dialects.buffer import (
    BufType,
    broadcast_type,
    storage_map,
    subview_type,
    transpose_type,
)
from gpuir.runtime.host import HostExecutor
from gpuir.runtime.interp import InterpProvider
from gpuir.runtime.provider import ProviderError

ROOT = Path(__file__).resolve().parent.parent


def elements(view: BufType, root: BufType, storage: np.ndarray) -> np.ndarray:
    """The view's elements, each read where storage_map puts it in the root."""
    amap = storage_map(view, root)
    out = np.empty(view.get_shape(), dtype=storage.dtype)
    nd = storage.reshape(root.get_shape())
    for index in np.ndindex(*view.get_shape()):
        out[index] = nd[tuple(amap.eval(list(index), []))]
    return out


def by_layout(view: BufType, storage: np.ndarray) -> np.ndarray:
    """The view's elements at offset + Σ i_k·stride_k of the flat storage."""
    out = np.empty(view.get_shape(), dtype=storage.dtype)
    for index in np.ndindex(*view.get_shape()):
        position = view.offset() + sum(i * s for i, s in zip(index, view.strides(), strict=True))
        out[index] = storage[position]
    return out


class FakeOp:
    name = "buffer.broadcast"


def random_subview(
    rng: random.Random, shape: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """Random offsets, sizes and strides (1 to 3) of a subview that fits in `shape`."""
    offsets = [rng.randrange(n) for n in shape]
    strides = [rng.randint(1, 3) for _ in shape]
    sizes = [
        rng.randint(1, (n - o - 1) // s + 1)
        for n, o, s in zip(shape, offsets, strides, strict=True)
    ]
    return offsets, sizes, strides


def numpy_subview(
    array: np.ndarray, offsets: list[int], sizes: list[int], strides: list[int]
) -> np.ndarray:
    """The subview's elements as numpy slices them."""
    return array[
        tuple(
            slice(o, o + (z - 1) * s + 1, s)
            for o, z, s in zip(offsets, sizes, strides, strict=True)
        )
    ]


def random_views(rng: random.Random, root: BufType, array: np.ndarray, steps: int):
    """A chain of random views of `root` with the numpy array each one should equal."""
    view, expected = root, array
    for _ in range(steps):
        shape = view.get_shape()
        kind = rng.choice(["subview", "transpose", "broadcast"])
        if kind == "subview" and all(shape):
            offsets, sizes, strides = random_subview(rng, shape)
            view = subview_type(view, offsets, sizes, strides)
            expected = numpy_subview(expected, offsets, sizes, strides)
        elif kind == "transpose":
            permutation = list(range(len(shape)))
            rng.shuffle(permutation)
            view = transpose_type(view, permutation)
            expected = expected.transpose(permutation)
        elif len(shape) < 4:
            target = [rng.randint(1, 3)] + [rng.choice([n, 3]) if n == 1 else n for n in shape]
            view = broadcast_type(FakeOp(), view, target)  # type: ignore[arg-type]
            expected = np.broadcast_to(expected, target)
    return view, expected


@pytest.mark.parametrize("seed", range(40))
def test_view_layouts_match_numpy_and_storage_map_finds_their_elements(seed: int):
    rng = random.Random(seed)
    shape = [rng.randint(1, 5) for _ in range(rng.randint(1, 3))]
    root = BufType(shape, f32)
    storage = np.arange(int(np.prod(shape)), dtype=np.int64)
    view, expected = random_views(rng, root, storage.reshape(shape), rng.randint(1, 4))
    assert np.array_equal(by_layout(view, storage), expected)
    assert np.array_equal(elements(view, root, storage), expected)


def test_storage_map_is_plain_sums_when_nothing_carries():
    root = BufType([4, 6], f32)
    transposed = transpose_type(root, [1, 0])
    assert str(storage_map(transposed, root)) == "(d0, d1) -> (d1, d0)"
    every_other = subview_type(root, [1, 1], [3, 2], [1, 3])
    assert str(storage_map(every_other, root)) == "(d0, d1) -> ((d0 + 1), ((d1 * 3) + 1))"
    flat = BufType.strided([2, 12], f32, [12, 1])
    assert flat.is_dense()
    assert "floordiv 6" in str(storage_map(flat, root))


def test_buffer_view_reinterprets_storage_like_numpy_as_strided():
    root = BufType([4, 6], f32)
    storage = np.arange(24)
    view = BufType.strided([3, 2], f32, [8, 2], 3)
    expected = np.lib.stride_tricks.as_strided(storage[3:], (3, 2), (8 * 8, 2 * 8))
    assert np.array_equal(elements(view, root, storage), expected)


def test_a_dense_layout_is_dropped_so_both_spellings_are_one_type():
    assert BufType.strided([2, 6], f32, [6, 1]) == BufType([2, 6], f32)
    assert BufType.strided([1, 6], f32, [99, 1]) == BufType([1, 6], f32)
    assert BufType.strided([2, 6], f32, [6, 1], 6) != BufType([2, 6], f32)
    parsed = Parser(make_context(), "!buffer.buf<2x6xf32, strided<[6, 1]>>").parse_type()
    assert parsed == BufType([2, 6], f32) and str(parsed) == "!buffer.buf<2x6xf32>"
    # Built around the constructor, the redundant spelling is a verifier error.
    with pytest.raises(VerifyException, match="is the dense one of"):
        BufType.new((ArrayAttr([IntAttr(2), IntAttr(6)]), f32, StridedLayoutAttr([6, 1], 0)))


def test_host_executor_runs_view_ops_without_buffer_lower_ptr():
    """The executor's own buffer ops (no pass lowered them) print what the lit test expects of
    the lowered program."""
    path = ROOT / "tests" / "lit" / "run" / "views-host.mlir"
    text = path.read_text()
    module = Parser(make_context(), text, str(path)).parse_module()
    module.verify()
    out = io.StringIO()
    results = HostExecutor(module, InterpProvider(), out).run_main([])
    expected = [
        line.split("CHECK-NEXT:" if "CHECK-NEXT:" in line else "CHECK:", 1)[1].strip()
        for line in text.splitlines()
        if ("// CHECK:" in line or "// CHECK-NEXT:" in line)
    ]
    printed = [line.strip() for line in out.getvalue().splitlines()]
    assert printed == expected[:-1]
    assert [int(v) for v, _ in results] == [int(expected[-1])]


@pytest.mark.parametrize("seed", range(40))
def test_storage_map_of_explicit_layouts_matches_numpy_as_strided(seed: int):
    """buffer.view's layouts: any strides, so positions carry between the root's dimensions."""
    rng = random.Random(seed)
    shape = [rng.randint(1, 5) for _ in range(rng.randint(1, 3))]
    root = BufType(shape, f32)
    size = int(np.prod(shape))
    storage = np.arange(size, dtype=np.int64)
    while True:
        view_shape = [rng.randint(1, 4) for _ in range(rng.randint(0, 3))]
        strides = [rng.randint(0, 7) for _ in view_shape]
        offset = rng.randint(0, size - 1)
        view = BufType.strided(view_shape, f32, strides, offset)
        if view.storage_span() <= size:
            break
    expected = np.lib.stride_tricks.as_strided(
        storage[view.offset() :], view.get_shape(), [s * 8 for s in view.strides()]
    )
    assert np.array_equal(elements(view, root, storage), expected)


def test_host_executor_copies_only_dense_buffers_to_the_device():
    text = """
    func.func @main(%m: !mem.M<0>) -> !mem.M<0> {
      %m0, %a = buffer.init %m dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
      %t = buffer.transpose %a [1, 0] : !buffer.buf<2x2xf32> to !buffer.buf<2x2xf32, strided<[1, 2]>>
      %h0, %d1, %c4 = gpu.init %m0
      %h1, %d2, %p = gpu.buf_alloc_copy %h0, %d1, %t
          : !buffer.buf<2x2xf32, strided<[1, 2]>> -> !mem.ptr<!mem.array<2 x !mem.array<2 x f32>>, 1>
      %h2 = gpu.deinit %h1, %d2, %c4
      func.return %h2 : !mem.M<0>
    }"""
    module = Parser(make_context(), text, "views.mlir").parse_module()
    with pytest.raises(VerifyException, match="copies dense buffers only"):
        module.verify()
    # the executor checks it too, for IR that was built without verifying it
    with pytest.raises(ProviderError, match="copies dense buffers only, found the view"):
        HostExecutor(module, InterpProvider(), io.StringIO()).run_main([])


@pytest.mark.parametrize("seed", range(20))
def test_dynamic_subviews_storage_map_with_the_run_time_offset_matches_numpy(seed: int):
    """A subview with every offset dynamic (`?` offset in its type) and a transpose of it: the
    storage_map of the dynamic type, given the run-time offset as its extra dimension, finds
    numpy's elements (the offset being the one the static subview's type has)."""
    rng = random.Random(seed)
    shape = [rng.randint(1, 5) for _ in range(rng.randint(1, 3))]
    root = BufType(shape, f32)
    storage = np.arange(int(np.prod(shape)), dtype=np.int64)
    offsets, sizes, strides = random_subview(rng, shape)
    static = subview_type(root, offsets, sizes, strides)
    dynamic = subview_type(root, [DYNAMIC_INDEX] * len(shape), sizes, strides)
    assert dynamic.is_dynamic_view() and dynamic.offset() == DYNAMIC_INDEX
    expected = numpy_subview(storage.reshape(shape), offsets, sizes, strides)
    permutation = list(range(len(shape)))
    rng.shuffle(permutation)
    for view, array in (
        (dynamic, expected),
        (transpose_type(dynamic, permutation), expected.transpose(permutation)),
    ):
        amap = storage_map(view, root)
        assert amap.num_dims == view.rank + 1
        nd = storage.reshape(shape)
        for index in np.ndindex(*view.get_shape()):
            position = tuple(amap.eval([*index, static.offset()], []))
            assert nd[position] == array[index]
