"""`gpuir.runtime.dlpack`, the DLPack capsules of the cuda provider's buffers, read by a real
consumer: numpy takes a kDLCPU capsule of host memory made the same way, without a copy, with
strides, and calls the deleter when it lets go."""

from __future__ import annotations

import gc

import numpy as np

from gpuir.runtime import dlpack


class Exporter:
    """Host memory exported through `dlpack.capsule` (as a cuda buffer is, with kDLCPU)."""

    def __init__(self, array: np.ndarray, shape=None, strides=None):
        self.array, self.shape, self.strides = array, shape or array.shape, strides

    def __dlpack__(self, **kwargs: object) -> object:
        address = self.array.ctypes.data
        return dlpack.capsule(self, address, (1, 0), self.shape, self.strides, self.array.dtype)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (dlpack.KDL_CPU, 0)


def test_numpy_reads_the_capsule_without_a_copy_and_releases_it():
    array = np.arange(12, dtype=np.float32).reshape(3, 4)
    shared = np.from_dlpack(Exporter(array))
    assert np.array_equal(shared, array) and shared.ctypes.data == array.ctypes.data
    assert len(dlpack._alive) == 1
    del shared
    gc.collect()
    assert len(dlpack._alive) == 0


def test_strides_are_in_elements():
    array = np.arange(12, dtype=np.int64).reshape(3, 4)
    transposed = np.from_dlpack(Exporter(array, (4, 3), (1, 4)))
    assert np.array_equal(transposed, array.T)


def test_every_kind_of_element():
    for dtype in (np.int8, np.uint16, np.int32, np.uint64, np.float16, np.float64, np.bool_):
        array = np.ones(5, dtype)
        assert np.from_dlpack(Exporter(array)).dtype == dtype
