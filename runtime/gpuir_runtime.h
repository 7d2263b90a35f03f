/* gpuir_runtime.h: the C ABI that compiled host code calls.
 *
 * `gpu-opt FILE -t host-llvm` prints a program's host module as LLVM IR that calls these
 * functions (`host-to-llvm`, gpuir/lowering/host/host_to_llvm.py); a runtime implements them. In
 * gpuir the implementation is gpuir/runtime/compiled_host.py, over any provider (`cpu` runs
 * the JIT-compiled kernels, `cuda` goes through PyCUDA); a runtime in C links with the host
 * object instead, as gpuir/runtime/native/gpuir_cpu.c does for the cpu provider's native
 * executables (docs/native.md). gpuir/lowering/host/host_abi.py is the same table in Python, and a test checks
 * that the two agree.
 *
 * Conventions:
 * - every function takes `op` last: the id of the op it runs for (the host lowering numbers
 *   the ops that call the runtime in walk order; -1 for a print). A runtime maps an id back
 *   to the op's location for its diagnostic;
 * - a function that fails does not return: the runtime reports the error and unwinds to the
 *   program's entry (gpuir's JIT shim uses setjmp/longjmp around `main`);
 * - device pointers are the addresses the runtime returned (for CUDA: CUdeviceptr values);
 *   a `gpuirStream` is opaque, NULL is the default stream;
 * - `nbytes` of a copy is the pointee's size, or -1 for a `!mem.array<? x T>`: copy what the
 *   source allocation holds from `src` on (so host memory of such a copy comes from
 *   `gpuirHostAlloc`, which knows its size);
 * - blocking functions return when the work is done; `...Async` ones are ordered on their
 *   stream.
 *
 * `@main` (and every other host function) becomes a C function of its scalar parameters
 * (memory tokens vanish; `index` is int64_t), returning its one result, a struct of several,
 * or void.
 */
#ifndef GPUIR_RUNTIME_H
#define GPUIR_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *gpuirStream;

/* Sessions: gpu.init / gpu.auto_init, gpu.deinit / gpu.auto_deinit (nested ones share the
 * device; deinit finishes all pending work). */
void gpuirInit(int64_t op);
void gpuirDeinit(int64_t op);

/* Streams: gpu.stream_init, gpu.stream_sync, gpu.stream_deinit. */
gpuirStream gpuirStreamCreate(int64_t op);
void gpuirStreamSynchronize(gpuirStream stream, int64_t op);
void gpuirStreamDestroy(gpuirStream stream, int64_t op);

/* Global memory: gpu.alloc.block / .asyn, gpu.free.block / .asyn (and a host mem.alloc /
 * mem.free in space 1). */
void *gpuirMemAlloc(int64_t nbytes, int64_t op);
void *gpuirMemAllocAsync(int64_t nbytes, gpuirStream stream, int64_t op);
void gpuirMemFree(void *ptr, int64_t op);
void gpuirMemFreeAsync(void *ptr, gpuirStream stream, int64_t op);

/* Copies: gpu.copy_to_device.* (host to device), gpu.copy_to_host.* (device to host). */
void gpuirMemcpyHtoD(void *dst, void *src, int64_t nbytes, int64_t op);
void gpuirMemcpyHtoDAsync(void *dst, void *src, int64_t nbytes, gpuirStream stream, int64_t op);
void gpuirMemcpyDtoH(void *dst, void *src, int64_t nbytes, int64_t op);
void gpuirMemcpyDtoHAsync(void *dst, void *src, int64_t nbytes, gpuirStream stream, int64_t op);

/* gpu.launch: kernel `name` of the device module on a 1-D grid of `n_groups` work-groups of
 * `n_items` work-items, with `smem_bytes` of dynamic shared memory. `args` holds `nargs`
 * 8-byte slots, one per kernel argument: the value in the slot's low bytes (integers, floats,
 * pointers), or for a struct argument the address of its bytes in C's layout. */
void gpuirLaunchKernel(void *name, int64_t n_groups, int64_t n_items, int64_t smem_bytes,
                       gpuirStream stream, void *args, int64_t nargs, int64_t op);

/* Host memory: mem.alloc / mem.malloc / mem.free in space 0 (zeroed, 16-byte aligned). */
void *gpuirHostAlloc(int64_t nbytes, int64_t op);
void gpuirHostFree(void *ptr, int64_t op);

/* printf.print_format, piece by piece, to the program's output in order: text (`length`
 * bytes of UTF-8), a signed integer in decimal (i1 as 0/1), a float of `bits` 16, 32 or 64
 * widened exactly to double, printed as the shortest decimal that reads back to the same
 * value of its type ("1.5", "1e+20", "inf", "nan"). */
void gpuirPrintString(void *text, int64_t length, int64_t op);
void gpuirPrintInt(int64_t value, int64_t op);
void gpuirPrintFloat(double value, int32_t bits, int64_t op);
/* printf with a C conversion of a float ('f', 'e', 'g'): as C's printf prints it. */
void gpuirPrintFloatSpec(double value, int32_t conversion, int64_t op);
/* mem.print_memref: the memref at data, of the op's pointer type, as mlir-runner prints it. */
void gpuirPrintMemref(void *data, int64_t op);

/* cf.assert in host code: where `condition` is 0, fails at the op with its message. */
void gpuirAssert(int32_t condition, int64_t op);

#ifdef __cplusplus
}
#endif

#endif /* GPUIR_RUNTIME_H */
