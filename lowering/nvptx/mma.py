"""The matrix ops (`gpuir.dialects.gpu.mma`) as NVVM's `wmma` intrinsics (part of
`convert-gpu-to-nvvm`): `wmma.m16n16k16` for the 16x16 tiles of f16 and f32 (sm_70 and newer),
`wmma.m8n8k4` for the tiles of f64 (sm_80 and newer: `check_mma_sm` rejects them for an older
target). A fragment is a lane's `wmma` registers
(`gpuir.lowering.llvm.conversion.fragment_registers`); the tokens pass through.

- `gpu.mma_load` → `llvm.nvvm.wmma.{m16n16k16,m8n8k4}.load.{a,b,c}.{row,col}.stride.
  {f16,f32,f64}.p0` of the address of element `index` (`col` for `transpose`) with the stride
  `lead`;
- `gpu.mma_store` → `…store.d.{row,col}.stride.{f16,f32,f64}.p0`;
- `gpu.mma_compute` → `…mma.{row,col}.{row,col}.{d}.{c}` (f64: `…mma.{row,col}.{row,col}.f64`;
  the operands' layouts from `a_transpose` / `b_transpose`: they must be those the fragments
  were loaded with);
- `gpu.mma_constant` → the scalar in every register; `gpu.mma_elementwise` → the `arith` op on
  each register (`maxf` / `minf` as `maximumf` / `minimumf`: a NaN wins).
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    Float64Type,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from gpuir.dialects import gpu
from gpuir.dialects.gpu.mma import ELEMENTWISE_OPS, FragmentType, scalar_of
from gpuir.dialects.mem import PtrType
from gpuir.ir.diagnostics import OpError
from gpuir.lowering.llvm.conversion import (
    constant,
    fragment_registers,
    from_llvm,
    require_llvm_type,
    to_llvm,
)
from gpuir.lowering.llvm.conversion import (
    ptr_type as ptr_type_of,
)
from gpuir.lowering.llvm.llvm_ext import AddrSpaceCastOp, ExtractElementOp

F64_SM = 80
"""The first architecture with `wmma.m8n8k4` of f64 (`sm_80`)."""


def wmma(type_: FragmentType) -> str:
    """The intrinsics' prefix for a product of fragments such as `type_`."""
    shape = "m8n8k4" if type_.element_type == Float64Type() else "m16n16k16"
    return f"llvm.nvvm.wmma.{shape}"


def type_name(t: Attribute) -> str:
    return {Float32Type(): "f32", Float64Type(): "f64"}.get(t, "f16")


def check_mma_sm(module: ModuleOp, sm: int) -> None:
    """An error at the first matrix op of f64 in `module` when its target `sm` (0: any) is older
    than `sm_80`."""
    if sm == 0 or sm >= F64_SM:
        return
    for op in module.walk():
        types = [*op.operand_types, *op.result_types]
        if any(isinstance(t, FragmentType) and t.element_type == Float64Type() for t in types):
            raise OpError(
                op,
                f"'{op.name}' of f64 (wmma.m8n8k4) needs sm_{F64_SM} or newer, found sm_{sm}",
            )


def fields(b: PatternRewriter, value: SSAValue) -> list[SSAValue]:
    """The registers of a lane's fragment (its llvm struct's fields)."""
    struct = value.type
    assert isinstance(struct, llvm.LLVMStructType)
    return [
        b.insert(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), value, t)).res
        for k, t in enumerate(struct.types.data)
    ]


def struct_of(b: PatternRewriter, type_: llvm.LLVMStructType, values: list[SSAValue]) -> SSAValue:
    made = b.insert(llvm.UndefOp(type_)).res
    for k, value in enumerate(values):
        position = DenseArrayBase.from_list(i64, [k])
        made = b.insert(llvm.InsertValueOp(position, made, value)).res
    return made


def access_operands(
    b: PatternRewriter, op: gpu.MmaLoadOp | gpu.MmaStoreOp
) -> tuple[SSAValue, SSAValue]:
    """The operands of an access's intrinsic: the address of element `index` of the scalars
    `ptr` points to, as a generic address (the translation declares an intrinsic's pointers
    generic), and the stride `lead` as an `i32`."""
    ptr_type = op.ptr.type
    assert isinstance(ptr_type, PtrType)
    scalar = require_llvm_type(scalar_of(ptr_type.pointee), op)
    base, at = to_llvm(b, op.ptr, op), to_llvm(b, op.index, op)
    gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], scalar, ssa_indices=[at], result_type=base.type)
    address = b.insert(AddrSpaceCastOp(b.insert(gep).result, ptr_type_of(0))).results[0]
    return address, constant(b, op.lead.value.data, i32)


def layout(flag: object) -> str:
    return "row" if flag is None else "col"


class MmaLoadToWmma(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.MmaLoadOp, rewriter: PatternRewriter):
        type_ = op.res.type
        address, lead = access_operands(rewriter, op)
        name = (
            f"{wmma(type_)}.load.{type_.kind.data}.{layout(op.transpose)}.stride."
            f"{type_name(type_.element_type)}.p0"
        )
        registers = fragment_registers(type_)
        single = len(registers.types.data) == 1  # an f64 operand: the intrinsic gives a double
        returned = registers.types.data[0] if single else registers
        call = rewriter.insert(llvm.CallIntrinsicOp(name, [address, lead], [returned]))
        made = struct_of(rewriter, registers, [call.results[0]]) if single else call.results[0]
        result = from_llvm(rewriter, made, type_)
        rewriter.replace(op, [], [op.m1, op.m3, result])


class MmaStoreToWmma(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.MmaStoreOp, rewriter: PatternRewriter):
        type_ = op.value.type
        assert isinstance(type_, FragmentType)
        address, lead = access_operands(rewriter, op)
        registers = fields(rewriter, to_llvm(rewriter, op.value, op))
        kind = type_name(type_.element_type)
        name = f"{wmma(type_)}.store.d.{layout(op.transpose)}.stride.{kind}.p0"
        rewriter.insert(llvm.CallIntrinsicOp(name, [address, *registers, lead], []))
        rewriter.replace(op, [], [op.m1, op.m3])


class MmaComputeToWmma(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.MmaComputeOp, rewriter: PatternRewriter):
        type_ = op.res.type
        registers = [
            r for v in (op.a, op.b, op.c) for r in fields(rewriter, to_llvm(rewriter, v, op))
        ]
        kind = type_name(type_.element_type)
        types = kind if kind == "f64" else f"{kind}.{kind}"  # f64: named by its operands' type
        name = f"{wmma(type_)}.mma.{layout(op.a_transpose)}.{layout(op.b_transpose)}.{types}"
        call = llvm.CallIntrinsicOp(name, registers, [fragment_registers(type_)])
        result = from_llvm(rewriter, rewriter.insert(call).results[0], type_)
        rewriter.replace(op, [], [op.m1, op.m3, result])


class MmaConstantToRegisters(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.MmaConstantOp, rewriter: PatternRewriter):
        type_ = op.res.type
        registers = fragment_registers(type_)
        field = registers.types.data[0]
        value = op.value
        if isinstance(field, VectorType):
            pair = rewriter.insert(llvm.UndefOp(field)).res
            for k in range(2):
                at = constant(rewriter, k, i32)
                pair = rewriter.insert(llvm.InsertElementOp(pair, value, at)).res
            value = pair
        made = struct_of(rewriter, registers, [value] * len(registers.types.data))
        rewriter.replace(op, [], [op.m1, op.m3, from_llvm(rewriter, made, type_)])


class MmaElementwiseToArith(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: gpu.MmaElementwiseOp, rewriter: PatternRewriter):
        type_ = op.res.type
        inputs = [fields(rewriter, to_llvm(rewriter, v, op)) for v in op.values]
        results = [
            register_op(rewriter, op.kind.data, registers)
            for registers in zip(*inputs, strict=True)
        ]
        made = struct_of(rewriter, fragment_registers(type_), results)
        rewriter.replace(op, [], [op.m1, op.m3, from_llvm(rewriter, made, type_)])


def register_op(b: PatternRewriter, kind: str, registers: tuple[SSAValue, ...]) -> SSAValue:
    """`gpu.mma_elementwise`'s op on one register: a `float`, or a `<2 x half>` half by half
    (gpuir's `arith` lowering takes scalars)."""
    type_ = registers[0].type
    if not isinstance(type_, VectorType):
        return scalar_op(b, kind, registers)
    pair = b.insert(llvm.UndefOp(type_)).res
    for k in range(2):
        at = constant(b, k, i32)
        halves = tuple(
            b.insert(ExtractElementOp(r, at, type_.element_type)).results[0] for r in registers
        )
        pair = b.insert(llvm.InsertElementOp(pair, scalar_op(b, kind, halves), at)).res
    return pair


def scalar_op(b: PatternRewriter, kind: str, values: tuple[SSAValue, ...]) -> SSAValue:
    return b.insert(ELEMENTWISE_OPS[kind](*values)).results[0]  # type: ignore[call-arg]


MMA_PATTERNS = (
    MmaLoadToWmma,
    MmaStoreToWmma,
    MmaComputeToWmma,
    MmaConstantToRegisters,
    MmaElementwiseToArith,
)
