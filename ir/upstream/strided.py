"""The importer's strided memrefs, as MLIR's `--gpu-decompose-memrefs` (and
`--expand-strided-metadata`) write them: `memref.extract_strided_metadata %m` (on the host,
before a gpu.launch) gives `%m`'s base buffer, a `memref<T>`, and its offset, sizes and
strides; `memref.reinterpret_cast %base to offset: [o], sizes: [z…], strides: [t…]` (in the
kernel) is a view of that memory whose element (i…) is the element at row-major position
`o + Σ i_k · t_k` (`common.Linear`), read and written with `memref.load` / `memref.store` (of
rank 0 where the pass folds the indices into the offset).

The base buffer is the whole memory (a gpu.launch takes its pointer as it takes the memref's),
so a kernel's reinterpret_casts of it reach every element of the memory; the memory's indices
are the position divided by its static inner extents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation, SSAValue

from gpuir.dialects.mem import ArrayType, PtrType
from gpuir.ir.upstream import gpu_ops
from gpuir.ir.upstream.common import (
    Index,
    Linear,
    OpTable,
    Ref,
    Scope,
    SharedImporter,
    add,
    index,
    mul,
    unsupported,
)

if TYPE_CHECKING:
    from gpuir.ir.upstream.kernel import KernelImporter


def row_major_strides(ref: Ref) -> list[Index]:
    """The strides in elements of the memory `ref`'s pointer points to (its static inner
    extents'); none for a `memref<T>`."""
    assert isinstance(ref.ptr.type, PtrType)
    pointee = ref.ptr.type.pointee
    if not isinstance(pointee, ArrayType):
        return []
    strides: list[Index] = [1]
    inner = pointee.element_type
    extents = []
    while isinstance(inner, ArrayType):
        extents.append(inner.size.data)
        inner = inner.element_type
    for extent in reversed(extents):
        strides.insert(0, extent * strides[0])  # type: ignore[operator]
    return strides


class BaseBuffer(Ref):
    """An `extract_strided_metadata`'s base buffer: the memory `memory` as a `memref<T>`, whose
    device copy is the memory's, whenever it is made (MLIR puts the op where the memref is
    made, before its `gpu.host_register`)."""

    def __init__(self, memory: Ref):
        self.memory = memory
        super().__init__(memory.ptr, memory.dims, memory.space, None, Linear(0, []))

    @property  # type: ignore[override]
    def mirror(self) -> Ref | None:
        found = self.memory.mirror
        if found is None:
            return None
        return Ref(found.ptr, found.dims, found.space, view=Linear(0, []))

    @mirror.setter
    def mirror(self, value: Ref | None) -> None:
        if value is not None:  # registered as a memref<T>: the memory is
            self.memory.mirror = value


def extract_strided_metadata(
    self: SharedImporter, op: memref.ExtractStridedMetaDataOp, b: Builder, s: Scope
) -> None:
    """The memref's base buffer (its memory, `Linear` of offset 0), its offset and strides in
    elements of the memory (a subview's composed with the memory's), and its sizes."""
    source = self.ref(op, op.source, s, view=True)
    view = source.view
    if isinstance(view, Linear):
        offset, strides = view.offset, list(view.strides)
    else:
        inner = row_major_strides(source)
        if view is None:
            offset, strides = 0, inner
        else:
            offset = 0
            for o, t in zip(view.offsets, inner, strict=True):
                offset = add(b, offset, mul(b, o, t))
            strides = [mul(b, u, t) for u, t in zip(view.strides, inner, strict=True)]
    s.refs[op.base_buffer] = BaseBuffer(base_of(op, source, s))
    made = [offset, *source.dims, *strides]
    for result, value in zip([op.offset, *op.sizes, *op.strides], made, strict=True):
        s.values[result] = index(b, value) if isinstance(value, int) else value


def base_of(op: memref.ExtractStridedMetaDataOp, ref: Ref, s: Scope) -> Ref:
    """The memory `ref` is a view of: its pointer's, with the memory's extents where the
    importer knows them (a subview keeps only its own: the memory's inner extents are its
    pointer's)."""
    if ref.view is None:
        return ref
    for other in s.refs.values():
        if other.ptr is ref.ptr and other.view is None:
            return other
    raise unsupported(op, "of a view whose memory the importer does not know here")


def reinterpret_cast(
    self: SharedImporter, op: memref.ReinterpretCastOp, b: Builder, s: Scope
) -> None:
    """A `Linear` view of the source's memory (whatever view the source is: the cast starts
    from its base), of the cast's sizes."""
    source = self.ref(op, op.source, s, view=True)
    offsets, sizes, strides = self.offsets_sizes_strides(op, s)
    if len(offsets) != 1 or len(sizes) != len(strides):
        raise unsupported(op, "with other than one offset and a stride per size")
    dims = [index(b, d) if isinstance(d, int) else d for d in sizes]
    view = Linear(offsets[0], strides)
    mirror = None
    if source.mirror is not None:
        mirror = Ref(source.mirror.ptr, dims, source.mirror.space, view=view)
    s.refs[op.result] = Ref(source.ptr, dims, source.space, mirror, view)


STRIDED_OPS: OpTable = {
    memref.ExtractStridedMetaDataOp: extract_strided_metadata,
    memref.ReinterpretCastOp: reinterpret_cast,
}
"""The strided memref ops, on the host and in kernels."""


@dataclass
class LaunchMade:
    """A kernel that takes a `memref<T>` (a base buffer, once `--gpu-kernel-outlining` has
    moved its reinterpret_casts into it): gpuir's pointer to the memory has the memory's shape,
    which the kernel's type does not say, so the kernel is made at each launch for the
    pointers the launch gives it (`made`, by their types), not with the other kernels."""

    kernel: gpu_ops.FuncOp
    device_functions: dict[str, Operation]
    """The other functions of its gpu.module, inlined into it."""
    made: dict[tuple[Attribute, ...], str] = field(default_factory=dict)


def made_at_launch(kernel: gpu_ops.FuncOp) -> bool:
    """Whether a kernel is made at its launches (`LaunchMade`): it takes a `memref<T>`."""
    params = kernel.function_type.inputs.data
    return any(isinstance(t, MemRefType) and not t.get_shape() for t in params)


def kernel_for_launch(
    self: KernelImporter,
    op: gpu_ops.LaunchFuncOp,
    path: tuple[str, ...],
    args: list[SSAValue],
    s: Scope,
) -> str:
    """The name of the kernel `path` made for the pointers of this launch's `args` (made here
    where no launch before gave it pointers of those types)."""
    found = self.by_launch[path]  # type: ignore[attr-defined]
    params = list(found.kernel.body.blocks[0].args)[: len(args)]
    pointers: dict[SSAValue, Attribute] = {}
    for param, arg in zip(params, args, strict=True):
        if arg in s.refs:
            ref = s.refs[arg]
            pointers[param] = (ref.mirror if ref.mirror is not None else ref).ptr.type
    key = tuple(pointers.values())
    if key not in found.made:
        name = self.fresh(found.kernel.sym_name.data)
        found.made[key] = name
        before = self.device_functions
        self.device_functions = found.device_functions
        try:
            self.kernel(found.kernel.body, params, name, found.kernel, pointers=pointers)
        finally:
            self.device_functions = before
    return found.made[key]
