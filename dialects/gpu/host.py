"""The host ops of the `gpu` dialect: device sessions, streams, device memory and copies."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
)
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from gpuir.dialects.buffer import BufType
from gpuir.dialects.gpu.common import (
    M0,
    M1,
    M4,
    STREAM,
    TokenRegionOp,
    buffer_array_type,
    expect_ptr,
    expect_region_signature,
    expect_same_pointee,
)
from gpuir.dialects.mem import (
    GLOBAL,
    HOST,
    PtrType,
    static_extent_ok,
)

# --- sessions and streams -------------------------------------------------------------------


@irdl_op_definition
class DefaultStreamOp(IRDLOperation):
    name = "gpu.default_stream"
    res = result_def(STREAM)

    assembly_format = "attr-dict"
    traits = traits_def(Pure())

    def __init__(self):
        super().__init__(result_types=[STREAM])


class SessionOpenOp(IRDLOperation):
    """`M<0>` in, `M<0>, M<1>, M<4>` out: open the device."""

    mem = operand_def(M0)
    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res_m4 = result_def(M4)

    assembly_format = "$mem attr-dict"

    def __init__(self, mem: SSAValue):
        super().__init__(operands=[mem], result_types=[M0, M1, M4])


@irdl_op_definition
class InitOp(SessionOpenOp):
    name = "gpu.init"


@irdl_op_definition
class AutoInitOp(SessionOpenOp):
    """A compiler-inserted `gpu.init`; a backend may merge such sessions."""

    name = "gpu.auto_init"


class SessionCloseOp(IRDLOperation):
    """`M<0>, M<1>, M<4>` in, `M<0>` out: finish all pending work, close the device."""

    m0 = operand_def(M0)
    m1 = operand_def(M1)
    m4 = operand_def(M4)
    res_m0 = result_def(M0)

    assembly_format = "$m0 `,` $m1 `,` $m4 attr-dict"

    def __init__(self, m0: SSAValue, m1: SSAValue, m4: SSAValue):
        super().__init__(operands=[m0, m1, m4], result_types=[M0])


@irdl_op_definition
class DeinitOp(SessionCloseOp):
    name = "gpu.deinit"


@irdl_op_definition
class AutoDeinitOp(SessionCloseOp):
    """A compiler-inserted `gpu.deinit`."""

    name = "gpu.auto_deinit"


class HostTokensOp(IRDLOperation):
    """The host ops whose results are the next `M<0>, M<1>`: those results (each op declares
    its operands, in order: IRDL collects a subclass's fields before its base's)."""

    res_m0 = result_def(M0)
    res_m1 = result_def(M1)


@irdl_op_definition
class StreamInitOp(HostTokensOp):
    """Create a stream and store it in a host slot."""

    name = "gpu.stream_init"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    slot = operand_def(PtrType(STREAM, HOST))

    assembly_format = "$m0 `,` $m1 `,` $slot attr-dict"

    def __init__(self, m0: SSAValue, m1: SSAValue, slot: SSAValue):
        super().__init__(operands=[m0, m1, slot], result_types=[M0, M1])


class StreamUseOp(HostTokensOp):
    """`M<0>, M<1>, stream` in, `M<0>, M<1>` out."""

    m0 = operand_def(M0)
    m1 = operand_def(M1)
    stream = operand_def(STREAM)

    assembly_format = "$m0 `,` $m1 `,` $stream attr-dict"

    def __init__(self, m0: SSAValue, m1: SSAValue, stream: SSAValue):
        super().__init__(operands=[m0, m1, stream], result_types=[M0, M1])


@irdl_op_definition
class StreamDeinitOp(StreamUseOp):
    """Finish the stream's pending work, then destroy it."""

    name = "gpu.stream_deinit"


@irdl_op_definition
class StreamSyncOp(StreamUseOp):
    """Wait for all work on the stream."""

    name = "gpu.stream_sync"


@irdl_op_definition
class WithStreamsOp(TokenRegionOp, HostTokensOp):
    """Create `count` streams, run the region with them, destroy them (no implicit sync).

    `%m0, %m1 = gpu.with_streams %a, %b count 2 { ^bb0(%x: !mem.M<0>, …): … gpu.yield … }`
    """

    name = "gpu.with_streams"
    TOKENS: ClassVar[tuple[Attribute, ...]] = (M0, M1)
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    count = prop_def(IntegerAttr[I64])
    body = region_def("single_block")

    def __init__(self, m0: SSAValue, m1: SSAValue, count: int, body: Region):
        super().__init__(
            operands=[m0, m1],
            properties={"count": IntegerAttr(count, 64)},
            regions=[body],
            result_types=[M0, M1],
        )

    def verify_(self) -> None:
        count = self.count.value.data
        if count < 0:
            raise VerifyException(f"'{self.name}' expects a count >= 0, found {count}")
        expect_region_signature(self, self.body, (M0, M1, *[STREAM] * count), (M0, M1))

    @classmethod
    def parse_extra(cls, parser: Parser) -> tuple[int]:
        parser.parse_keyword("count")
        return (parser.parse_integer(allow_boolean=False, allow_negative=False),)

    def print_extra(self, printer: Printer) -> None:
        printer.print_string(f" count {self.count.value.data}")


# --- device memory --------------------------------------------------------------------------


class OnStream(IRDLOperation):
    """The `stream` operand of an `.asyn` op, after the operands of its `.block` form: list it
    after that base (`class FreeAsynOp(DeviceFreeOp, OnStream)`), since IRDL collects fields
    along the MRO, each class's before its bases'."""

    stream = operand_def(STREAM)


class DeviceAllocOp(IRDLOperation):
    """A device allocation: the next `M<1>` and the pointer out (each op declares its
    operands)."""

    res_mem = result_def(M1)
    res = result_def(PtrType)

    def verify_(self) -> None:
        ptr = expect_ptr(self, self.res, GLOBAL, "result")
        static_extent_ok(ptr.pointee, self.extent, self)

    def __init__(
        self, m1: SSAValue, ptr_type: PtrType, extent: SSAValue | None = None, stream=None
    ):
        operands = [m1] + ([stream] if stream is not None else []) + [[extent] if extent else []]
        super().__init__(operands=operands, result_types=[M1, ptr_type])


@irdl_op_definition
class AllocBlockOp(DeviceAllocOp):
    """Allocate one `T` in global memory; `extent` iff `T` is `!mem.array<? x …>`."""

    name = "gpu.alloc.block"
    mem = operand_def(M1)
    extent = opt_operand_def(IndexType)

    assembly_format = "$mem (`,` $extent^)? attr-dict `:` type($res)"


@irdl_op_definition
class AllocAsynOp(DeviceAllocOp):
    """Stream-ordered allocation of one `T` in global memory."""

    name = "gpu.alloc.asyn"
    mem = operand_def(M1)
    stream = operand_def(STREAM)
    extent = opt_operand_def(IndexType)

    assembly_format = "$mem (`,` $extent^)? `on` $stream attr-dict `:` type($res)"


class DeviceFreeOp(IRDLOperation):
    mem = operand_def(M1)
    ptr = operand_def(PtrType)
    res_mem = result_def(M1)

    assembly_format = "$mem `,` $ptr attr-dict `:` type($ptr)"

    def verify_(self) -> None:
        expect_ptr(self, self.ptr, GLOBAL, "freed pointer")

    def __init__(self, m1: SSAValue, ptr: SSAValue, stream: SSAValue | None = None):
        operands = [m1, ptr] + ([stream] if stream is not None else [])
        super().__init__(operands=operands, result_types=[M1])


@irdl_op_definition
class FreeBlockOp(DeviceFreeOp):
    name = "gpu.free.block"


@irdl_op_definition
class FreeAsynOp(DeviceFreeOp, OnStream):
    name = "gpu.free.asyn"

    assembly_format = "$mem `,` $ptr `on` $stream attr-dict `:` type($ptr)"


class CopyOp(HostTokensOp):
    """Copies between host and device memory: `src` in `SRC_SPACE`, `dst` in the other."""

    SRC_SPACE: ClassVar[int]
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(PtrType)

    assembly_format = "$m0 `,` $m1 `,` $src `->` $dst attr-dict `:` type($src) `->` type($dst)"

    def verify_(self) -> None:
        dst_space = GLOBAL if self.SRC_SPACE == HOST else HOST
        src = expect_ptr(self, self.src, self.SRC_SPACE, "source")
        dst = expect_ptr(self, self.dst, dst_space, "destination")
        expect_same_pointee(self, src, dst)

    def __init__(self, m0: SSAValue, m1: SSAValue, src: SSAValue, dst: SSAValue, stream=None):
        operands = [m0, m1, src, dst] + ([stream] if stream is not None else [])
        super().__init__(operands=operands, result_types=[M0, M1])


class CopyAsynOp(CopyOp, OnStream):
    """A stream-ordered copy."""

    assembly_format = (
        "$m0 `,` $m1 `,` $src `->` $dst `on` $stream attr-dict `:` type($src) `->` type($dst)"
    )


@irdl_op_definition
class CopyToDeviceBlockOp(CopyOp):
    name = "gpu.copy_to_device.block"
    SRC_SPACE: ClassVar[int] = HOST


@irdl_op_definition
class CopyToDeviceAsynOp(CopyAsynOp):
    name = "gpu.copy_to_device.asyn"
    SRC_SPACE: ClassVar[int] = HOST


@irdl_op_definition
class CopyToHostBlockOp(CopyOp):
    name = "gpu.copy_to_host.block"
    SRC_SPACE: ClassVar[int] = GLOBAL


@irdl_op_definition
class CopyToHostAsynOp(CopyAsynOp):
    name = "gpu.copy_to_host.asyn"
    SRC_SPACE: ClassVar[int] = GLOBAL


class DeviceCopyOp(IRDLOperation):
    """The host ops that make a device copy of host data: their results, the next `M<0>,
    M<1>` and the device pointer (each op declares its operands, in order: IRDL collects a
    subclass's fields before its base's)."""

    res_m0 = result_def(M0)
    res_m1 = result_def(M1)
    res = result_def(PtrType)


class AllocCopyOp(DeviceCopyOp):
    """Allocate a device copy of a host `T` and copy it over (composite)."""

    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)

    assembly_format = "$m0 `,` $m1 `,` $src attr-dict `:` type($src) `->` type($res)"

    def verify_(self) -> None:
        src = expect_ptr(self, self.src, HOST, "source")
        res = expect_ptr(self, self.res, GLOBAL, "result")
        expect_same_pointee(self, src, res, "source and result")
        static_extent_ok(res.pointee, None, self, takes_extent=False)

    def __init__(self, m0: SSAValue, m1: SSAValue, src: SSAValue, stream=None):
        assert isinstance(src.type, PtrType)
        operands = [m0, m1, src] + ([stream] if stream is not None else [])
        super().__init__(
            operands=operands, result_types=[M0, M1, PtrType(src.type.pointee, GLOBAL)]
        )


@irdl_op_definition
class AllocCopyBlockOp(AllocCopyOp):
    name = "gpu.alloc_copy.block"


@irdl_op_definition
class AllocCopyAsynOp(AllocCopyOp, OnStream):
    name = "gpu.alloc_copy.asyn"

    assembly_format = "$m0 `,` $m1 `,` $src `on` $stream attr-dict `:` type($src) `->` type($res)"


def expect_buffer_array(op: IRDLOperation, buf: Attribute, ptr: PtrType) -> None:
    """Check that `ptr` points to the nested arrays of the buffer type `buf`."""
    assert isinstance(buf, BufType)
    if not buf.is_dense():
        raise VerifyException(
            f"'{op.name}' copies dense buffers only (transfers are dense), found the view {buf}: "
            "buffer.copy it into a dense buffer first"
        )
    shape = buf.get_shape()
    if any(extent < 0 for extent in shape[1:]):
        raise VerifyException(
            f"'{op.name}' can only copy buffers whose inner dimensions are static, found {buf}"
        )
    expected = buffer_array_type(buf)
    if ptr.pointee != expected:
        raise VerifyException(
            f"'{op.name}' expects the device pointer to point to {expected} (the shape of {buf}), "
            f"found {ptr.pointee}"
        )


@irdl_op_definition
class BufAllocCopyOp(DeviceCopyOp):
    """A device copy of a host buffer, as nested arrays of the buffer's shape."""

    name = "gpu.buf_alloc_copy"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    buf = operand_def(BufType)

    assembly_format = "$m0 `,` $m1 `,` $buf attr-dict `:` type($buf) `->` type($res)"

    def __init__(self, m0: SSAValue, m1: SSAValue, buf: SSAValue):
        assert isinstance(buf.type, BufType)
        ptr = PtrType(buffer_array_type(buf.type), GLOBAL)
        super().__init__(operands=[m0, m1, buf], result_types=[M0, M1, ptr])

    def verify_(self) -> None:
        expect_buffer_array(self, self.buf.type, expect_ptr(self, self.res, GLOBAL, "result"))


@irdl_op_definition
class BufCopyToHostOp(HostTokensOp):
    """Copy device data back into a host buffer of the same shape."""

    name = "gpu.buf_copy_to_host"
    m0 = operand_def(M0)
    m1 = operand_def(M1)
    src = operand_def(PtrType)
    dst = operand_def(BufType)

    assembly_format = "$m0 `,` $m1 `,` $src `->` $dst attr-dict `:` type($src) `->` type($dst)"

    def __init__(self, m0: SSAValue, m1: SSAValue, src: SSAValue, dst: SSAValue):
        super().__init__(operands=[m0, m1, src, dst], result_types=[M0, M1])

    def verify_(self) -> None:
        expect_buffer_array(self, self.dst.type, expect_ptr(self, self.src, GLOBAL, "source"))
