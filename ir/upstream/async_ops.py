"""Upstream MLIR's `async` dialect, as MLIR's GPU programs use it, and its import (`ASYNC_OPS`).

Read (MLIR 22's syntax): `%t, %v… = async.execute [[%deps]] [(%x as %y : !async.value<T>, …)]
[-> !async.value<T>, …] { … async.yield %r… : T… }`, `async.await %t : !async.token`,
`%r = async.await %v : !async.value<T>`, `%g = async.create_group %n : !async.group`,
`async.add_to_group %t, %g : !async.token` (its index unused) and `async.await_all %g`. The ops
print in the generic form.

What the import makes (docs/ir-extensions.md): an `async.execute` runs on a stream of its own
(`gpu.stream_init` in a host slot, made where the execute is): the host first waits for each
stream it depends on (`gpu.stream_sync`), then makes the region's ops in place with the stream
as the launches' stream and each `gpu.memcpy` between host and device memory at the region's
top level as `gpu.copy_to_device.asyn` / `copy_to_host.asyn` on it. Any other op of the region
that may touch memory waits for the stream first. `async.await` is a `gpu.stream_sync` of the
execute's stream; `async.await_all` one of the default stream, which waits for every stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects.builtin import IndexType, IntAttr, UnknownLoc
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from gpuir.dialects import gpu
from gpuir.ir.diagnostics import OpError
from gpuir.ir.upstream import gpu_ops
from gpuir.ir.upstream.common import OpTable, Scope, unsupported

if TYPE_CHECKING:
    from gpuir.ir.upstream.host import HostImporter


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!async.token`: an execute's completion."""

    name = "async.token"


@irdl_attr_definition
class GroupType(ParametrizedAttribute, TypeAttribute):
    """`!async.group`: tokens awaited together."""

    name = "async.group"


@irdl_attr_definition
class ValueType(ParametrizedAttribute, TypeAttribute):
    """`!async.value<T>`: a value an execute yields."""

    name = "async.value"
    value_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value_type}>")


@irdl_op_definition
class ExecuteOp(gpu_ops.AsyncOp):
    """`rest`: the `!async.value`s the region takes (its block's arguments are their values)."""

    name = "async.execute"
    token = result_def(TokenType)
    body_results = var_result_def(ValueType)
    body = region_def("single_block")

    @classmethod
    def parse(cls, parser: Parser) -> ExecuteOp:
        _, deps = gpu_ops.parse_async(parser)  # `[%deps]`
        operands: list[SSAValue] = []
        args: list[Parser.Argument] = []

        def operand() -> None:
            operands.append(parser.parse_operand())
            parser.parse_keyword("as")
            name = parser.parse_argument(expect_type=False)
            parser.parse_punctuation(":")
            type_ = parser.parse_type()
            if not isinstance(type_, ValueType):
                parser.raise_error(f"'async.execute' expects !async.value operands, found {type_}")
            args.append(name.resolve(type_.value_type))

        parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, operand)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                results = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region(args)
        return cls.create(
            operands=[*deps, *operands],
            result_types=[TokenType(), *results],
            properties={"n_deps": IntAttr(len(deps))},
            attributes=attributes.data if attributes is not None else {},
            regions=[region],
        )


@irdl_op_definition
class YieldOp(IRDLOperation):
    name = "async.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        operands = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_operand, parser.parse_operand
        )
        if operands:
            parser.parse_punctuation(":")
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(operands=operands or [])


@irdl_op_definition
class AwaitOp(IRDLOperation):
    """`async.await %t : !async.token`, or `%r = async.await %v : !async.value<T>`."""

    name = "async.await"
    operand = operand_def(TokenType | ValueType)
    result = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> AwaitOp:
        awaited = parser.parse_operand()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        if type_ != awaited.type:
            parser.raise_error(f"'async.await' of a {awaited.type} written as {type_}")
        results = [type_.value_type] if isinstance(type_, ValueType) else []
        return cls.create(operands=[awaited], result_types=results)


@irdl_op_definition
class CreateGroupOp(IRDLOperation):
    name = "async.create_group"
    size = operand_def(IndexType)
    result = result_def(GroupType)

    assembly_format = "$size `:` type($result) attr-dict"


@irdl_op_definition
class AddToGroupOp(IRDLOperation):
    name = "async.add_to_group"
    operand = operand_def(TokenType)
    group = operand_def(GroupType)
    rank = result_def(IndexType)

    assembly_format = "$operand `,` $group `:` type($operand) attr-dict"


@irdl_op_definition
class AwaitAllOp(IRDLOperation):
    name = "async.await_all"
    operand = operand_def(GroupType)

    assembly_format = "$operand attr-dict"


UpstreamAsync = Dialect(
    "async",
    [ExecuteOp, YieldOp, AwaitOp, CreateGroupOp, AddToGroupOp, AwaitAllOp],
    [TokenType, GroupType, ValueType],
)


# --- the import -------------------------------------------------------------------------------


STREAM_ORDERED = (gpu_ops.LaunchFuncOp, gpu_ops.LaunchOp, gpu_ops.AllocOp, YieldOp)
"""The ops of an execute's region that need not wait for its stream (they are on it, or
touch no memory)."""


def stream_of(self: HostImporter, op: Operation, awaited: SSAValue, s: Scope) -> SSAValue:
    """The stream of the execute that made `awaited` (its token or a value it yields)."""
    owner = awaited.owner
    token = owner.token if isinstance(owner, ExecuteOp) else awaited
    found = s.values.get(token)
    if found is None:
        raise unsupported(op, "of a token the importer did not make (an async.execute's)")
    return found


def sync(self: HostImporter, stream: SSAValue, b: Builder, s: Scope) -> None:
    s.tokens[0], s.tokens[1] = b.insert(gpu.StreamSyncOp(s.tokens[0], s.tokens[1], stream)).results


def execute(self: HostImporter, op: ExecuteOp, b: Builder, s: Scope) -> None:
    """An `async.execute`: its region's ops on a stream of their own (module docstring)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ExecuteOp):
            raise unsupported(op, "inside another async.execute is not supported")
        parent = parent.parent_op()
    waited: list[SSAValue] = []
    for awaited in op.values:
        stream = stream_of(self, op, awaited, s)
        if stream not in waited:
            sync(self, stream, b, s)
            waited.append(stream)
    stream = self.new_stream(b, s)
    s.values[op.token] = stream
    block = op.body.block
    for arg, value in zip(block.args, op.rest, strict=True):
        if value in s.refs:
            s.refs[arg] = s.refs[value]
        else:
            s.values[arg] = self.mapped(op, [value], s)[0]
    default, self.stream = self.stream, stream
    try:
        region(self, op, stream, b, s)
    finally:
        self.stream = default


def region(self: HostImporter, op: ExecuteOp, stream: SSAValue, b: Builder, s: Scope) -> None:
    """The ops of `op`'s region at `b`: a copy between host and device on `stream`, any op
    that may touch memory after the host waits for the stream's copies."""
    pending = False
    for inner in op.body.block.ops:
        target = b.insertion_point.block
        last = target.last_op
        if isinstance(inner, YieldOp):
            for result, value in zip(op.body_results, inner.values, strict=True):
                if value in s.refs:
                    s.refs[result] = s.refs[value]
                else:
                    s.values[result] = self.mapped(inner, [value], s)[0]
        elif (
            isinstance(inner, gpu_ops.MemcpyOp) and not inner.deps and async_copy(self, inner, b, s)
        ):
            pending = True
        else:
            if pending and not (isinstance(inner, STREAM_ORDERED) or is_pure(inner)):
                sync(self, stream, b, s)
                pending = False
            self.import_op(inner, b, s)
        made = target.first_op if last is None else last.next_op
        for new in (m for first in _after(made) for m in first.walk()):
            if isinstance(new.location, UnknownLoc):
                new.location = inner.location


def _after(op: Operation | None):
    while op is not None:
        yield op
        op = op.next_op


def is_pure(op: Operation) -> bool:
    return op.dialect_name() in ("arith", "math") and not op.regions


def async_copy(self: HostImporter, op: gpu_ops.MemcpyOp, b: Builder, s: Scope) -> bool:
    """A `gpu.memcpy` between host and device memory as a copy on the importer's stream; False
    (nothing made) for any other."""
    dst, src = (self.ref(op, v, s) for v in op.rest)
    if (src.space, dst.space) == (0, 1):
        copy = gpu.CopyToDeviceAsynOp(s.tokens[0], s.tokens[1], src.ptr, dst.ptr, self.stream)
    elif (src.space, dst.space) == (1, 0):
        copy = gpu.CopyToHostAsynOp(s.tokens[0], s.tokens[1], src.ptr, dst.ptr, self.stream)
    else:
        return False
    s.tokens[0], s.tokens[1] = b.insert(copy).results
    return True


def await_(self: HostImporter, op: AwaitOp, b: Builder, s: Scope) -> None:
    sync(self, stream_of(self, op, op.operand, s), b, s)
    if op.result:
        value = op.operand
        if value in s.refs:
            s.refs[op.result[0]] = s.refs[value]
        else:
            s.values[op.result[0]] = self.mapped(op, [value], s)[0]


def create_group(self: HostImporter, op: CreateGroupOp, b: Builder, s: Scope) -> None:
    pass  # await_all waits for every stream


def add_to_group(self: HostImporter, op: AddToGroupOp, b: Builder, s: Scope) -> None:
    stream_of(self, op, op.operand, s)
    if op.rank.uses:
        raise unsupported(op, "whose index is used is not supported")


def await_all(self: HostImporter, op: AwaitAllOp, b: Builder, s: Scope) -> None:
    if not isinstance(op.operand.owner, CreateGroupOp):
        raise OpError(op, "importing upstream MLIR: no async.create_group makes this group")
    sync(self, b.insert(gpu.DefaultStreamOp()).results[0], b, s)


ASYNC_OPS: OpTable = {
    ExecuteOp: execute,
    AwaitOp: await_,
    CreateGroupOp: create_group,
    AddToGroupOp: add_to_group,
    AwaitAllOp: await_all,
}
"""The `async` ops host code imports."""
