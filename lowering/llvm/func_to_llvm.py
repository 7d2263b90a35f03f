"""`convert-func-to-llvm`: `func.func`/`call`/`return` of device code to `llvm.func`/`call`/`return`.

Signatures take llvm types (`index` → `i64`, or `i32` in a module with
`gpu.index_bitwidth = 32`; `!mem.ptr<T, a>` → `!llvm.ptr<a>`); a function
with several results returns a literal struct of them (packed with `llvm.insertvalue`, unpacked
at each call with `llvm.extractvalue`), one result is returned as is, none is `void`.

A kernel's `index` parameters are `i64` whatever the index type (the kernel ABI): with 32-bit
index values each is truncated to `i32` once, at the kernel's entry. Device functions that are
not kernels take and return the index type.

Struct values (a struct kernel argument, `!llvm.struct<(i32, index)>`) get their fields' llvm
types (`index` → `i64` always: a struct is laid out in memory; `!mem.ptr<T, a>` →
`!llvm.ptr<a>`), and the llvm ops that build and read them (`llvm.mlir.undef`, `llvm.mlir.zero`,
`llvm.insertvalue`, `llvm.extractvalue`) are rebuilt on the converted struct (an `index` field
read or written with 32-bit index values is truncated or sign-extended).

Linkage: kernels and declarations are `external`; every other function with a body is
`internal` (device code is a closed world: `split-apply` put every device function in this
module, so LLVM may inline and drop them). A kernel keeps `gpu.kernel` and gets `nvvm.kernel`,
which the translation to LLVM IR turns into the `ptx_kernel` calling convention.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerType,
    ModuleOp,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter

from gpuir.ir.diagnostics import OpError
from gpuir.ir.pass_manager import Statistic
from gpuir.lowering.llvm.cf_to_llvm import convert_block_arguments
from gpuir.lowering.llvm.conversion import (
    KERNEL_ATTR,
    NVVM_KERNEL_ATTR,
    DeviceModulePass,
    all_to_llvm,
    from_llvm,
    from_memory,
    index_type,
    is_legal,
    llvm_type,
    require_llvm_type,
    to_llvm,
    to_memory,
)
from gpuir.passes.locations import rewrite_once


def result_type(op: func.FuncOp | func.CallOp, types: tuple[Attribute, ...]) -> Attribute:
    """`void`, the one result's llvm type, or a struct of the results' llvm types."""
    index = index_type(op)
    converted = [require_llvm_type(t, op, "a result of type", index) for t in types]
    if not converted:
        return llvm.LLVMVoidType()
    if len(converted) == 1:
        return converted[0]
    return llvm.LLVMStructType.from_type_list(converted)


def convert_function(function: func.FuncOp) -> None:
    index = index_type(function)
    kernel = KERNEL_ATTR in function.attributes
    inputs = []
    for t in function.function_type.inputs.data:
        new = llvm_type(t, i64 if kernel else index)  # a kernel's index parameter: the ABI's i64
        if new is None:
            raise OpError(
                function,
                f"@{function.sym_name.data} takes a parameter of type {t}, which has no LLVM "
                "equivalent",
            )
        inputs.append(new)
    output = result_type(function, function.function_type.outputs.data)
    linkage = "external" if kernel or function.is_declaration else "internal"
    body = Rewriter.move_region_contents_to_new_regions(function.body)
    new = llvm.FuncOp(
        function.sym_name,
        llvm.LLVMFunctionType(inputs, output),
        linkage=llvm.LinkageAttr(linkage),
        body=body,
    )
    new.attributes |= {k: v for k, v in function.attributes.items() if k not in ("sym_visibility",)}
    new.location = function.location
    if kernel:
        new.attributes[NVVM_KERNEL_ATTR] = UnitAttr()
    if new.body.blocks and kernel:
        truncate_index_parameters(new.body.blocks[0], index)
    if new.body.blocks:
        convert_block_arguments(new.body.blocks[0], index)
    Rewriter.replace_op(function, new)


def truncate_index_parameters(entry: Block, index: IntegerType) -> None:
    """A kernel's `index` parameters become `i64` (the ABI); with a narrower index type each is
    truncated to it once, at the entry, for its users."""
    if index == i64:
        return
    b = Builder(InsertPoint.at_start(entry))
    for arg in entry.args:
        if not isinstance(arg.type, IndexType):
            continue
        param = Rewriter.replace_value_with_new_type(arg, i64)
        if not param.uses:
            continue
        narrow = b.insert(llvm.TruncOp(param, index))
        cast = b.insert(UnrealizedConversionCastOp.get([narrow.results[0]], [IndexType()]))
        param.replace_uses_with_if(cast.results[0], lambda use, t=narrow: use.operation is not t)


class CallLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter):
        args = all_to_llvm(rewriter, op.arguments, op)
        returned = result_type(op, tuple(op.result_types))
        call = rewriter.insert(
            llvm.CallOp(
                op.callee,
                *args,
                return_type=None if isinstance(returned, llvm.LLVMVoidType) else returned,
            )
        )
        if len(op.results) <= 1:
            values = [call.returned] if call.returned is not None else []
        else:
            assert call.returned is not None
            values = [
                rewriter.insert(
                    llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), call.returned, t)
                ).results[0]
                for i, t in enumerate(returned.types.data)  # type: ignore[union-attr]
            ]
        rewriter.replace(
            op,
            [],
            [from_llvm(rewriter, v, r.type) for v, r in zip(values, op.results, strict=True)],
        )


def pack(b: Builder, values: list[SSAValue]) -> SSAValue:
    struct = llvm.LLVMStructType.from_type_list([v.type for v in values])
    packed = b.insert(llvm.UndefOp(struct)).res
    for i, value in enumerate(values):
        position = DenseArrayBase.from_list(i64, [i])
        packed = b.insert(llvm.InsertValueOp(position, packed, value)).res
    return packed


class ReturnLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter):
        values = all_to_llvm(rewriter, op.arguments, op)
        if len(values) > 1:
            values = [pack(Builder(InsertPoint.before(op)), values)]
        rewriter.replace(op, llvm.ReturnOp(values[0] if values else None))


class StructOpLowering(RewritePattern):
    """`llvm.mlir.undef` / `llvm.mlir.zero` / `llvm.insertvalue` / `llvm.extractvalue` on a
    struct whose fields are not all llvm types yet (`index`, `!mem.ptr`): rebuilt on the
    converted struct (`index` is `i64` in a struct), with casts to the types their users still
    expect."""

    OP_TYPES = (llvm.UndefOp, llvm.ZeroOp, llvm.InsertValueOp, llvm.ExtractValueOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, self.OP_TYPES) or all(
            is_legal(v.type) for v in (*op.operands, *op.results)
        ):
            return
        if isinstance(op, llvm.UndefOp | llvm.ZeroOp):
            new: Operation = type(op).create(
                result_types=[require_llvm_type(op.res.type, op, "a value of type")]
            )
        elif isinstance(op, llvm.InsertValueOp):
            container = to_llvm(rewriter, op.container, op)
            new = llvm.InsertValueOp(op.position, container, to_memory(rewriter, op.value, op))
        else:
            container = to_llvm(rewriter, op.container, op)
            new = llvm.ExtractValueOp(
                op.position, container, require_llvm_type(op.res.type, op, "a value of type")
            )
        rewriter.insert(new)
        rewriter.replace(op, [], [from_memory(rewriter, new.results[0], op.results[0].type, op)])


@dataclass(frozen=True)
class ConvertFuncToLlvmPass(DeviceModulePass):
    """`func` functions, calls and returns to their llvm dialect forms."""

    name = "convert-func-to-llvm"

    functions = Statistic("num-functions-lowered", "Number of functions made llvm.func")
    lowered = Statistic(
        "num-ops-lowered", "Number of calls, returns and struct ops lowered to the llvm dialect"
    )

    def lower_module(self, module: ModuleOp) -> None:
        for function in [f for f in module.ops if isinstance(f, func.FuncOp)]:
            convert_function(function)
            self.functions.add()
        rewrite_once(module, [CallLowering(), ReturnLowering(), StructOpLowering()], self.lowered)
