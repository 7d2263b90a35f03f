# RUN: python %s | filecheck %s
"""Building a program from Python with xDSL's `Builder` and gpuir's op constructors (as
docs/building-ir.md shows), then verifying, printing and running it: a kernel in which item i
stores i * i, and a @main that launches it on 8 items, copies the array back and returns its
last element."""

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint

import gpuir
from gpuir.dialects import gpu, mem
from gpuir.dialects.gpu import KERNEL_TOKENS

N = 8
index = IndexType()
array = mem.ArrayType(N, i32)
device_ptr, host_ptr = mem.PtrType(array, 1), mem.PtrType(array, 0)


def constant(b: Builder, value: int, type_=index):
    return b.insert(arith.ConstantOp(IntegerAttr(value, type_))).result


# the kernel: (tokens of spaces 1, 3, 4, 5, group id, item id, args) -> tokens
kernel_block = Block(arg_types=[*KERNEL_TOKENS, index, index, device_ptr])
m1, m3, m4, m5, group, item, out = kernel_block.args
b = Builder(InsertPoint.at_end(kernel_block))
value = b.insert(arith.IndexCastOp(item, i32)).result
square = b.insert(arith.MuliOp(value, value)).result
slot = b.insert(mem.LeaOp(out, item)).results[0]
stored = b.insert(mem.StoreOp(m1, slot, square)).results[0]
b.insert(func.ReturnOp(stored, m3, m4, m5))
kernel = func.FuncOp.from_region(
    "squares", [*KERNEL_TOKENS, index, index, device_ptr], list(KERNEL_TOKENS), Region(kernel_block)
)

# @main: init, allocate, launch, copy back, read, free, deinit
main_block = Block(arg_types=[mem.MemType(0)])
b = Builder(InsertPoint.at_end(main_block))
m0, d1, d4 = b.insert(gpu.InitOp(main_block.args[0])).results
h0, host = b.insert(mem.AllocOp(m0, host_ptr)).results
a1, dev = b.insert(gpu.AllocBlockOp(d1, device_ptr)).results
stream = b.insert(gpu.DefaultStreamOp()).results[0]
l0, l1, l4 = b.insert(
    gpu.LaunchOp("squares", constant(b, 1), constant(b, N), stream, [h0, a1, d4], [dev])
).results
c0, c1 = b.insert(gpu.CopyToHostBlockOp(l0, l1, dev, host)).results
last = b.insert(mem.LeaOp(host, constant(b, N - 1))).results[0]
r0, result = b.insert(mem.LoadOp(c0, last)).results
f1 = b.insert(gpu.FreeBlockOp(c1, dev)).results[0]
f0 = b.insert(mem.FreeOp(r0, host)).results[0]
done = b.insert(gpu.DeinitOp(f0, f1, l4)).results[0]
b.insert(func.ReturnOp(done, result))
main = func.FuncOp.from_region("main", [mem.MemType(0)], [mem.MemType(0), i32], Region(main_block))

module = ModuleOp([kernel, main])
module.verify()
print(module)
text = str(module)
for provider in ("interp", "cpu"):
    print(provider, gpuir.compile(module, provider=provider).main())
assert str(module) == text  # compiled from a copy

# CHECK:      func.func @squares(
# CHECK:        mem.store
# CHECK:      func.func @main(
# CHECK:        gpu.launch @squares grid(
# CHECK:      interp 49
# CHECK-NEXT: cpu 49
