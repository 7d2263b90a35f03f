"""DLPack capsules of device memory that numpy cannot describe (the cuda provider's): a
`DLManagedTensor` made with ctypes, in the unversioned `"dltensor"` capsule that every consumer
takes (CuPy, PyTorch, JAX, numpy for host memory).

`capsule(owner, address, device, shape, strides, dtype)` returns the capsule. The tensor and
its shape and strides live in ctypes memory kept, with `owner` (which keeps the memory alive),
until the consumer calls the tensor's deleter; a capsule that no one consumed calls it itself
when it dies. Strides are in elements, as DLPack has them.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import numpy as np

KDL_CPU = 1
KDL_CUDA = 2
CAPSULE_NAME = b"dltensor"
TYPE_CODES = {"i": 0, "u": 1, "f": 2, "b": 6, "c": 5}
"""numpy's kinds → DLPack's type codes (kDLInt, kDLUInt, kDLFloat, kDLBool, kDLComplex)."""


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]  # noqa: RUF012


class DLDataType(ctypes.Structure):
    _fields_ = [  # noqa: RUF012
        ("code", ctypes.c_uint8),
        ("bits", ctypes.c_uint8),
        ("lanes", ctypes.c_uint16),
    ]


class DLTensor(ctypes.Structure):
    _fields_ = [  # noqa: RUF012
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    pass


Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [  # noqa: SLF001  # ctypes' way of a self-referring struct
    ("dl_tensor", DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", Deleter),
]

_alive: dict[int, tuple[object, ...]] = {}
"""Address of each exported tensor → what must live until its deleter runs."""


@Deleter
def _delete(tensor: ctypes._Pointer) -> None:  # type: ignore[name-defined]
    _alive.pop(ctypes.addressof(tensor.contents), None)


# Functions of our own (ctypes.pythonapi's attributes are shared: another module may set
# their argument types).
_PyCapsule_New = ctypes.PYFUNCTYPE(
    ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p
)(("PyCapsule_New", ctypes.pythonapi))
_PyCapsule_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi)
)
_PyCapsule_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi)
)
"""Called on a dying capsule: by its address (a Python object made of it would revive it)."""


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_died(capsule: int) -> None:
    """A capsule that no consumer took (its name is still "dltensor") frees its tensor."""
    if _PyCapsule_IsValid(capsule, CAPSULE_NAME):
        _alive.pop(_PyCapsule_GetPointer(capsule, CAPSULE_NAME), None)


def capsule(
    owner: object,
    address: int,
    device: tuple[int, int],
    shape: Sequence[int],
    strides: Sequence[int] | None,
    dtype: np.dtype,
) -> object:
    """A `"dltensor"` capsule of the memory at `address` (`strides` in elements; None:
    row-major), which keeps `owner` alive until it is consumed and released, or dies."""
    ndim = len(shape)
    dims = (ctypes.c_int64 * max(ndim, 1))(*shape)
    steps = (ctypes.c_int64 * max(ndim, 1))(*strides) if strides is not None else None
    tensor = DLManagedTensor()
    tensor.dl_tensor.data = address
    tensor.dl_tensor.device = DLDevice(*device)
    tensor.dl_tensor.ndim = ndim
    tensor.dl_tensor.dtype = DLDataType(TYPE_CODES[dtype.kind], dtype.itemsize * 8, 1)
    tensor.dl_tensor.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
    if steps is not None:
        tensor.dl_tensor.strides = ctypes.cast(steps, ctypes.POINTER(ctypes.c_int64))
    tensor.dl_tensor.byte_offset = 0
    tensor.deleter = _delete
    where = ctypes.addressof(tensor)
    _alive[where] = (tensor, dims, steps, owner)
    died = ctypes.cast(_capsule_died, ctypes.c_void_p).value
    return _PyCapsule_New(where, CAPSULE_NAME, died)
