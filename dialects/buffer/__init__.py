"""The `buffer` dialect: host-side multi-dimensional buffers (MimIR's `%buffer.Buf`).

A `!buffer.buf<4x?xf32>` is a row-major buffer in host memory whose extents are static or `?`.
Every op threads the host token `!mem.M<0>`. `buffer-lower-ptr` turns a buffer into a
`!mem.ptr<!mem.array<…>, 0>` (nested arrays, outermost dimension first) and the ops into `mem`
ops, so only the outermost extent may be `?` by then.

A buffer type may carry a strided layout (`!buffer.buf<4x3xf32, strided<[6, 2], offset: 1>>`,
MLIR's strided memref layout): it is then a view of another buffer's storage, made by the view
ops `buffer.subview`, `buffer.transpose`, `buffer.broadcast` and `buffer.view`, which allocate
nothing. Every other op reads and writes through the layout; `storage_map` says where a view's
element lies in the dense buffer it views (`docs/ir-extensions.md`, "Layouts and views").
A subview's offsets and sizes may be `index` values (`buffer.subview %a[%i, 0] [1, %n] [1, 1]`,
MLIR's mixed lists): its type then has a `?` offset or `?` extents (a dynamic view), whose
run-time values `view_offset` and `view_extent` find in the view ops.

Departures from MimIR: MimIR's `constant` is `buffer.lit` (its later name); `buffer.print` is an
addition (MimIR's lit tests print through `print_int_matrix`), with the same output format; so are
layouts and views.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from gpuir.dialects.buffer.ops import (
    AllocOp,
    CopyOp,
    InitOp,
    LitOp,
    PrintOp,
    ReadOp,
    ShapeOp,
    WriteOp,
    expect_dense,
    expect_indices,
    expect_static,
)
from gpuir.dialects.buffer.types import (
    M0,
    BufType,
    is_row_major,
    normalised_layout,
    row_major_strides,
)
from gpuir.dialects.buffer.views import (
    BroadcastOp,
    Mixed,
    SubviewOp,
    TransposeOp,
    ViewOp,
    ViewStorageOp,
    broadcast_type,
    expect_length,
    i64_array,
    is_view,
    mixed,
    parse_int_list,
    parse_mixed_list,
    print_mixed,
    split_position,
    static_entry,
    storage_map,
    subview_type,
    transpose_type,
    view_extent,
    view_offset,
    view_root,
)

__all__ = [
    "AllocOp",
    "BroadcastOp",
    "BufType",
    "CopyOp",
    "InitOp",
    "LitOp",
    "M0",
    "Mixed",
    "PrintOp",
    "ReadOp",
    "ShapeOp",
    "SubviewOp",
    "TransposeOp",
    "ViewOp",
    "ViewStorageOp",
    "WriteOp",
    "broadcast_type",
    "expect_dense",
    "expect_indices",
    "expect_length",
    "expect_static",
    "i64_array",
    "is_row_major",
    "is_view",
    "mixed",
    "normalised_layout",
    "parse_int_list",
    "parse_mixed_list",
    "print_mixed",
    "row_major_strides",
    "split_position",
    "static_entry",
    "storage_map",
    "subview_type",
    "transpose_type",
    "view_extent",
    "view_offset",
    "view_root",
    "Buffer",
]

Buffer = Dialect(
    "buffer",
    [
        AllocOp,
        LitOp,
        InitOp,
        ReadOp,
        WriteOp,
        ShapeOp,
        CopyOp,
        PrintOp,
        SubviewOp,
        TransposeOp,
        BroadcastOp,
        ViewStorageOp,
    ],
    [BufType],
)
