/* native.h: the tables that a native executable's generated part gives the runtime in
 * gpuir_cpu.c (gpuir/runtime/native/build.py writes them from the compiled program).
 *
 * A native executable is a program's compiled host object (its `@main` behind the JIT shim's
 * entry `__gpuir_main_main`, each ABI call through a `__gpuir_cb_*` pointer), its cpu kernels'
 * object (one launch entry per kernel), this runtime, and these tables: the kernels, the host
 * ops that call the runtime (by op id, as the host lowering numbers them) and `@main`'s
 * signature. docs/native.md describes the whole.
 */
#ifndef GPUIR_NATIVE_H
#define GPUIR_NATIVE_H

#include <stdint.h>

typedef void (*gn_entry)(int64_t first, int64_t end, int64_t n_items, void *shared, void *smem,
                         void *args, void *progress);

/* An op of the device module that a diagnostic points at (as gn_op's fields). */
typedef struct {
    const char *where, *source, *text, *name;
} gn_site;

/* A barrier of a kernel in the resumable form (gpuir/lowering/cpu/resume.py), by number - 1:
 * its op's name, "'gpu.sync_work_items' at f.mlir:3:5", and its op (-1: not found). */
typedef struct {
    const char *name, *described;
    int32_t site;
} gn_barrier;

typedef struct {
    const char *name;
    gn_entry entry;
    int64_t shared_bytes; /* static shared memory */
    int32_t n_params;     /* arguments after the ids and the shared pointers */
    const char *params;   /* per argument: 'g' a pointer to global memory, 'h' a pointer to host
                             memory, 'b' an i1, 'v' any other scalar */
    int64_t resume_state; /* the resumable form: where the items' stops are in shared memory */
    int32_t n_barriers;
    const gn_barrier *barriers;
} gn_kernel;

enum gn_kind {
    GN_INIT = 1,
    GN_DEINIT,
    GN_STREAM_CREATE,
    GN_STREAM_SYNC,
    GN_STREAM_DESTROY,
    GN_ALLOC,
    GN_FREE,
    GN_COPY_TO_DEVICE,
    GN_COPY_TO_HOST,
    GN_LAUNCH,
    GN_HOST_ALLOC,
    GN_HOST_FREE,
};

typedef struct {
    int32_t kind;      /* enum gn_kind */
    int32_t kernel;    /* GN_LAUNCH: index into gn_kernels */
    int64_t size;      /* a copy: the source pointee's bytes, or minus its element size for a
                          `?` array; a launch with a shared array: its element size, else 0 */
    int32_t src_space; /* a copy: the address spaces of its source and destination types */
    int32_t dst_space;
    /* for diagnostics, as gpu-run writes them: */
    const char *where;     /* "file:line:col", or the program's name where the op has none */
    const char *source;    /* "\n<the source line>\n<a caret under the column>", or "" */
    const char *text;      /* the op in generic form ("see current operation") */
    const char *described; /* "'gpu.alloc.block' at file:line:col" */
} gn_op;

/* A scalar of @main's signature: 'i' an integer of `width` bits (index: 64), 'f' a float of
 * `width` bits; `text` is its type as gpu-run names it ("i32", "index"). */
typedef struct {
    char kind;
    int32_t width;
    const char *text;
} gn_scalar;

/* Kernel printf (gpuir/runtime/device_print.py): a print call's record is a header slot and
 * one 8-byte slot per value; its text is pieces: a literal, then value `value` (-1: none) in
 * gpu-run's text (`format` NULL) or as C's printf prints it with `format` ("%-8.3f", "%08llx":
 * an integer's argument as `bits` 8, 16, 32 or 64 bits, passed as long long; "%c" a byte). */
typedef struct {
    const char *literal;
    int32_t value;
    const char *format;
    int32_t bits;
} gn_piece;

enum gn_print_kind { GN_PRINT_FORMAT, GN_PRINT_INT, GN_PRINT_CHAR };

typedef struct {
    int32_t kind; /* enum gn_print_kind */
    int32_t n_values;
    const gn_scalar *types;
    int32_t n_pieces;
    const gn_piece *pieces;
} gn_format;

extern const gn_format gn_formats[];
extern const int32_t gn_n_formats; /* 0: the kernels do not print */

extern const gn_site gn_sites[];
extern const gn_kernel gn_kernels[];
extern const int32_t gn_n_kernels;
extern const gn_op gn_ops[];
extern const int32_t gn_n_ops;
extern const gn_scalar gn_params[];
extern const int32_t gn_n_params;
extern const gn_scalar gn_results[];
extern const int32_t gn_n_results;
extern const char gn_program[]; /* the program's file, for diagnostics */
/* @main's location and source (as gn_op's `where` and `source`), and its parameter types
 * ("index, f32", or "none"), for the diagnostics of its arguments. */
extern const char gn_main_where[], gn_main_source[], gn_param_types[];

/* The host code's entry (the JIT shim's): `@main`'s parameters and results in 8-byte slots;
 * non-zero when a runtime call failed. */
int32_t __gpuir_main_main(void *args, void *results);

#endif /* GPUIR_NATIVE_H */
