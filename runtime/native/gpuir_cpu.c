/* gpuir_cpu.c: the cpu provider's runtime in C, for native executables (docs/native.md).
 *
 * It implements the host ABI (gpuir_runtime.h) the way the Python runtime does over the cpu
 * provider (gpuir/runtime/compiled_host.py, gpuir/runtime/cpu/provider.py): the device session,
 * streams that run eagerly, device memory in pages of its own followed by a guard page, copies
 * checked against the allocations, kernels run by work-group chunks on a pool of threads, and
 * the program's output. It fills the JIT shim's `__gpuir_cb_*` pointers, so the host object is
 * the one the JIT runs.
 *
 * Two modes:
 * - warm (`GPUIR_NATIVE_WARM=1`, how gpu-run calls a cached executable): everything that is
 *   not plainly right (an error of any kind, a fault, an argument this runtime does not read
 *   exactly as gpu-run does) ends the process with status GN_FALLBACK and no output at all:
 *   gpu-run then runs the program its usual way, whose output and diagnostics are the
 *   reference. The output is kept in memory and written at the end.
 * - standalone (otherwise): errors are reported here, at the op, with the kind of error, and
 *   the exit status is 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "native.h"

#define GN_FALLBACK 75
#define ALIGNMENT 64
#define HUGE_BYTES (2 << 20)
#define MAX_ITEMS 1024
#define CHUNKS_PER_WORKER 4
#define SPACE_HOST 0
#define SPACE_GLOBAL 1

static int warm;
static long page_size;

/* --- output and errors ------------------------------------------------------------------ */

static char *out_data;
static size_t out_size, out_capacity;

static void out_write(const char *text, size_t n) {
    if (!warm) {
        fwrite(text, 1, n, stdout);
        return;
    }
    if (out_size + n > out_capacity) {
        size_t capacity = out_capacity ? out_capacity : 4096;
        while (capacity < out_size + n) capacity *= 2;
        char *grown = realloc(out_data, capacity);
        if (!grown) _exit(GN_FALLBACK);
        out_data = grown;
        out_capacity = capacity;
    }
    memcpy(out_data + out_size, text, n);
    out_size += n;
}

static void out_text(const char *text) { out_write(text, strlen(text)); }

/* An error as gpu-run writes it: at `where`, with the source line and caret (`source`), the op
 * (`text`, or NULL) and a note at `note_where` (NULL: none); exit status 1. In warm mode the
 * fallback instead: no output at all. */
static void report(const char *where, const char *source, const char *text, const char *note_where,
                   const char *note_source, const char *note, const char *format, va_list args)
    __attribute__((noreturn));
static void report(const char *where, const char *source, const char *text, const char *note_where,
                   const char *note_source, const char *note, const char *format, va_list args) {
    if (warm) _exit(GN_FALLBACK);
    fflush(stdout);
    static char message[1 << 16];
    vsnprintf(message, sizeof message, format, args);
    fprintf(stderr, "%s: error: %s%s\n", where, message, source);
    if (text) fprintf(stderr, "note: see current operation: %s\n", text);
    if (note_where) fprintf(stderr, "%s: note: %s%s\n", note_where, note, note_source);
    exit(1);
}

/* An error at op `op` (-1: none, then at the program), with a note at op `related`. */
static void fail_with(int64_t op, int64_t related, const char *note, const char *format, ...)
    __attribute__((noreturn, format(printf, 4, 5)));
static void fail_with(int64_t op, int64_t related, const char *note, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int noted = related >= 0 && related < gn_n_ops;
    const char *note_where = noted ? gn_ops[related].where : NULL;
    const char *note_source = noted ? gn_ops[related].source : "";
    if (op >= 0 && op < gn_n_ops)
        report(gn_ops[op].where, gn_ops[op].source, gn_ops[op].text, note_where, note_source, note, format, args);
    report(gn_program, "", NULL, note_where, note_source, note, format, args);
}

#define fail(op, ...) fail_with(op, -1, NULL, __VA_ARGS__)

/* --- floats as gpu-run prints them -------------------------------------------------------- */

static uint16_t half_from_double(double value) {
    uint64_t bits;
    memcpy(&bits, &value, 8);
    uint16_t sign = (uint16_t)((bits >> 48) & 0x8000);
    double magnitude = fabs(value);
    if (isnan(value)) return sign | 0x7e00;
    if (magnitude >= 65520.0) return sign | 0x7c00; /* rounds to infinity */
    if (magnitude < 0x1p-14) {                        /* subnormal: multiples of 2^-24 */
        double scaled = magnitude * 0x1p24;
        double whole = nearbyint(scaled); /* ties to even in the default rounding mode */
        return sign | (uint16_t)whole;
    }
    int exponent;
    double fraction = frexp(magnitude, &exponent); /* [0.5, 1) */
    double mantissa = nearbyint(fraction * 2048.0); /* 11 bits, ties to even */
    if (mantissa == 2048.0) {
        mantissa = 1024.0;
        exponent += 1;
    }
    int biased = exponent - 1 + 15;
    if (biased >= 31) return sign | 0x7c00;
    return sign | (uint16_t)(biased << 10) | (uint16_t)((int)mantissa - 1024);
}

static double half_to_double(uint16_t h) {
    int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double value;
    if (exponent == 0)
        value = ldexp(mantissa, -24);
    else if (exponent == 31)
        value = mantissa ? NAN : INFINITY;
    else
        value = ldexp(mantissa + 1024, exponent - 25);
    return (h & 0x8000) ? -value : value;
}

static int reads_back(const char *text, double value, int bits) {
    if (bits == 64) return strtod(text, NULL) == value;
    if (bits == 32) return strtof(text, NULL) == (float)value;
    return half_from_double(strtod(text, NULL)) == half_from_double(value);
}

/* The shortest decimal of `value` (a float of `bits`, exact in a double) that reads back to
 * it, in numpy's scalar form: positional from 1e-4 to 10^precision (16, 6, 3 for 64, 32, 16
 * bits), else scientific. */
static void format_float(double value, int bits, char *out) {
    if (isnan(value)) {
        strcpy(out, "nan");
        return;
    }
    if (isinf(value)) {
        strcpy(out, value < 0 ? "-inf" : "inf");
        return;
    }
    if (value == 0) {
        strcpy(out, signbit(value) ? "-0.0" : "0.0");
        return;
    }
    char text[64];
    int max_digits = bits == 64 ? 17 : bits == 32 ? 9 : 5;
    for (int precision = 1; precision <= max_digits; precision++) {
        snprintf(text, sizeof text, "%.*e", precision - 1, value);
        if (reads_back(text, value, bits)) break;
    }
    /* text: [-]d[.ddd]e[+-]xx */
    char digits[32];
    int n = 0;
    const char *p = text;
    int negative = *p == '-';
    if (negative) p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[n++] = *p;
    int exponent = atoi(p + 1);
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = 0;
    double magnitude = fabs(value);
    double cutoff = bits == 64 ? 1e16 : bits == 32 ? 1e6 : 1e3;
    char *o = out;
    if (negative) *o++ = '-';
    if (magnitude >= 1e-4 && magnitude < cutoff) {
        if (exponent >= 0) {
            for (int i = 0; i <= exponent; i++) *o++ = i < n ? digits[i] : '0';
            *o++ = '.';
            if (n > exponent + 1)
                for (int i = exponent + 1; i < n; i++) *o++ = digits[i];
            else
                *o++ = '0';
        } else {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -exponent - 1; i++) *o++ = '0';
            for (int i = 0; i < n; i++) *o++ = digits[i];
        }
        *o = 0;
        return;
    }
    *o++ = digits[0];
    if (n > 1) {
        *o++ = '.';
        for (int i = 1; i < n; i++) *o++ = digits[i];
    }
    sprintf(o, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
}

/* --- allocations ------------------------------------------------------------------------ */

typedef struct {
    uintptr_t base;
    int64_t nbytes;
    int space;
    int freed;
    int live_device; /* made by this session's device, freed at its close */
    void *mapping;   /* device memory: the pages (with the guard page after them) */
    size_t mapped;
    int64_t made_by, freed_by; /* op ids (-1: none) */
} allocation;

static const char *space_name(int space) {
    static const char *names[] = {"host", "global", "space-2", "shared", "local", "space-5"};
    return space >= 0 && space < 6 ? names[space] : "space-?";
}

/* "a 16-byte global allocation (by 'gpu.alloc.block' at f.mlir:3:3)", as gpu-run says it. */
static const char *describe(const allocation *a) {
    static char text[1024];
    const char *what = a->space == SPACE_HOST ? "host allocation" : "global allocation";
    if (a->made_by >= 0 && a->made_by < gn_n_ops)
        snprintf(text, sizeof text, "a %lld-byte %s (by %s)", (long long)a->nbytes, what, gn_ops[a->made_by].described);
    else
        snprintf(text, sizeof text, "a %lld-byte %s", (long long)a->nbytes, what);
    return text;
}

/* " by 'gpu.free.block' at f.mlir:4:3" (or nothing where no op freed it). */
static const char *freed_by(const allocation *a) {
    static char text[512];
    text[0] = 0;
    if (a->freed_by >= 0 && a->freed_by < gn_n_ops) snprintf(text, sizeof text, " by %s", gn_ops[a->freed_by].described);
    return text;
}

static allocation *table;
static size_t n_table, table_capacity;

/* The index of the last allocation whose base is at most `address`, or -1. */
static long table_floor(uintptr_t address) {
    long low = 0, high = (long)n_table - 1, found = -1;
    while (low <= high) {
        long mid = (low + high) / 2;
        if (table[mid].base <= address) {
            found = mid;
            low = mid + 1;
        } else {
            high = mid - 1;
        }
    }
    return found;
}

/* The allocation holding `address` (freed ones included), or NULL. */
static allocation *find(uintptr_t address) {
    long i = table_floor(address);
    if (i < 0) return NULL;
    allocation *a = &table[i];
    int64_t extent = a->nbytes > 0 ? a->nbytes : 1;
    return address < a->base + (uint64_t)extent ? a : NULL;
}

static void table_add(allocation made) {
    /* a reused address replaces what was there */
    long i = table_floor(made.base);
    if (i >= 0 && table[i].base == made.base) {
        table[i] = made;
        return;
    }
    if (n_table == table_capacity) {
        table_capacity = table_capacity ? table_capacity * 2 : 64;
        table = realloc(table, table_capacity * sizeof *table);
        if (!table) fail(-1, "out of memory");
    }
    size_t at = (size_t)(i + 1);
    memmove(&table[at + 1], &table[at], (n_table - at) * sizeof *table);
    table[at] = made;
    n_table++;
}

static size_t round_up(size_t value, size_t step) { return (value + step - 1) / step * step; }

/* `nbytes` zeroed bytes of device memory at the end of their pages, a guard page after them:
 * as the cpu provider's arena lays them out (gpuir/runtime/cpu/arena.py). */
static allocation device_bytes(int64_t nbytes, int64_t op) {
    size_t bytes = round_up((size_t)(nbytes > 0 ? nbytes : 1), ALIGNMENT);
    size_t span = round_up(bytes, (size_t)page_size);
    size_t mapped = span + (size_t)page_size;
    char *start = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (start == MAP_FAILED) fail(op, "out of memory: cannot make a %lld-byte global allocation", (long long)nbytes);
    if (mprotect(start + span, (size_t)page_size, PROT_NONE) != 0) fail(op, "cannot make a guard page");
    if (span >= HUGE_BYTES) madvise(start, span, MADV_HUGEPAGE);
    allocation made = {(uintptr_t)(start + span - bytes), nbytes, SPACE_GLOBAL, 0, 1, start, mapped, op, -1};
    return made;
}

static void release(allocation *a) {
    if (a->mapping) munmap(a->mapping, a->mapped);
    a->mapping = NULL;
}

/* --- the session and streams -------------------------------------------------------------- */

static int is_open, sessions, opened;
static int64_t next_stream = 1;
static int64_t *streams;
static size_t n_streams, streams_capacity;

static void check_open(int64_t op) {
    if (!is_open) fail(op, "cpu: %s needs an open device (gpu.init first)", gn_ops[op].described);
}

static long stream_index(int64_t handle) {
    for (size_t i = 0; i < n_streams; i++)
        if (streams[i] == handle) return (long)i;
    return -1;
}

static void check_stream(void *stream, int64_t op) {
    int64_t handle = (int64_t)(uintptr_t)stream;
    if (handle != 0 && stream_index(handle) < 0)
        fail(op, "cpu: Stream(%lld) does not exist (never created, or destroyed)", (long long)handle);
}

static void close_device(int64_t op) {
    check_open(op);
    for (size_t i = 0; i < n_table; i++) {
        if (table[i].live_device && !table[i].freed) {
            table[i].freed = 1;
            table[i].freed_by = op;
            release(&table[i]);
        }
        table[i].live_device = 0;
    }
    n_streams = 0;
    is_open = 0;
}

static const gn_op *op_of(int64_t op, int kind) {
    if (op < 0 || op >= gn_n_ops || gn_ops[op].kind != kind) fail(op, "internal error: op %lld is not of the runtime call", (long long)op);
    return &gn_ops[op];
}

/* --- the kernels' threads ---------------------------------------------------------------- */

typedef struct {
    char *shared;
    size_t shared_size;
    int64_t progress;
} worker_state;

typedef struct {
    const gn_kernel *kernel;
    int64_t n_groups, n_items, n_chunks, shared_size;
    void *args;
} launch_job;

static int workers = 1;
static worker_state *states;
static __thread worker_state *thread_state; /* the kernel thread's: its group in `progress` */
static int64_t launch_op = -1;                 /* the launch that runs now */
static const gn_kernel *launch_kernel;
static int64_t launch_items;

static pthread_t *threads;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER, work_done = PTHREAD_COND_INITIALIZER;
static launch_job job;
static int64_t generation, next_chunk, finished_workers;

static char *shared_buffer(worker_state *state, int64_t nbytes) {
    if ((int64_t)state->shared_size < nbytes || !state->shared) {
        size_t size = (size_t)(nbytes > ALIGNMENT ? nbytes : ALIGNMENT);
        allocation block = device_bytes((int64_t)size, -1);
        state->shared = (char *)block.base;
        state->shared_size = size;
    }
    return state->shared;
}

static void run_chunks(worker_state *state) {
    const gn_kernel *k = job.kernel;
    char *shared = state->shared;
    for (;;) {
        int64_t chunk = __atomic_fetch_add(&next_chunk, 1, __ATOMIC_RELAXED);
        if (chunk >= job.n_chunks) return;
        int64_t first = job.n_groups * chunk / job.n_chunks;
        int64_t end = job.n_groups * (chunk + 1) / job.n_chunks;
        k->entry(first, end, job.n_items, shared, shared + k->shared_bytes, job.args, &state->progress);
    }
}

static void *worker_main(void *argument) {
    worker_state *state = argument;
    thread_state = state;
    int64_t seen = 0;
    pthread_mutex_lock(&mutex);
    for (;;) {
        while (generation == seen) pthread_cond_wait(&work_ready, &mutex);
        seen = generation;
        pthread_mutex_unlock(&mutex);
        run_chunks(state);
        pthread_mutex_lock(&mutex);
        finished_workers++;
        pthread_cond_signal(&work_done);
    }
    return NULL;
}

static int workers_from_environment(void) {
    const char *setting = getenv("GPUIR_CPU_THREADS");
    if (setting && *setting) {
        char *end;
        long n = strtol(setting, &end, 10);
        if (*end || n < 1) fail(-1, "$GPUIR_CPU_THREADS must be a positive integer, found '%s'", setting);
        return (int)n;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    return 1;
}

static void start_workers(void) {
    workers = workers_from_environment();
    states = calloc((size_t)workers, sizeof *states);
    threads = calloc((size_t)workers, sizeof *threads);
    for (int w = 1; w < workers; w++) {
        if (pthread_create(&threads[w], NULL, worker_main, &states[w]) != 0) {
            workers = w;
            break;
        }
    }
}

/* --- kernel printf (gpuir/runtime/device_print.py) ---------------------------------------- */

#define PRINT_CAPACITY (1 << 20)
/* The printing kernels' globals (gpuir/lowering/llvm/print_abi.py), where they print. */
extern int64_t __gpuir_print_buffer __attribute__((weak));
extern int64_t __gpuir_print_capacity __attribute__((weak));
extern int64_t __gpuir_print_cursor __attribute__((weak));
static uint8_t *print_buffer;

static void print_start(void) {
    if (!print_buffer && !(print_buffer = calloc(1, PRINT_CAPACITY))) fail(-1, "out of memory");
    __gpuir_print_buffer = (int64_t)(uintptr_t)print_buffer;
    __gpuir_print_capacity = PRINT_CAPACITY;
    __gpuir_print_cursor = 0;
}

/* A byte as its Latin-1 character, in UTF-8 (as printf.print_char). */
static void out_byte(unsigned char c) {
    unsigned char utf8[2] = {c, 0};
    if (c < 0x80) {
        out_write((char *)utf8, 1);
        return;
    }
    utf8[0] = (unsigned char)(0xc0 | (c >> 6));
    utf8[1] = (unsigned char)(0x80 | (c & 0x3f));
    out_write((char *)utf8, 2);
}

/* %c with its flags and width ("%-5c"): the byte, padded with spaces (runtime/scalars.py:
 * c_format). */
static void print_byte(unsigned char c, const char *format) {
    int left = strchr(format, '-') != NULL;
    int width = atoi(format + 1 + strspn(format + 1, "-+ #0"));
    for (int i = 1; !left && i < width; i++) out_write(" ", 1);
    out_byte(c);
    for (int i = 1; left && i < width; i++) out_write(" ", 1);
}

/* A value of a record as gpu-run prints it (runtime/scalars.py: format_value), or with C's
 * conversion `format`, its integer argument of `bits` bits (runtime/scalars.py: c_format). */
static void print_value(uint64_t slot, const gn_scalar *type, const char *format, int32_t bits) {
    char text[2048]; /* a conversion's width and precision are at most 512 (build.py) */
    char conversion = format ? format[strlen(format) - 1] : 0;
    if (type->kind == 'i') {
        int width = type->width;
        long long value = width == 1 ? (long long)(slot & 1) : width >= 64 ? (long long)slot : ((slot >> (width - 1)) & 1) ? (long long)(slot & ((1ULL << width) - 1)) - (long long)(1ULL << width) : (long long)(slot & ((1ULL << width) - 1));
        unsigned long long mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1, bits_of = (unsigned long long)value & mask;
        if (!format) {
            snprintf(text, sizeof text, "%lld", value);
        } else if (conversion == 'c') {
            print_byte((unsigned char)value, format);
            return;
        } else if (conversion == 'd' || conversion == 'i') { /* the argument's signed value */
            long long narrow = bits < 64 && ((bits_of >> (bits - 1)) & 1) ? (long long)(bits_of | ~mask) : (long long)bits_of;
            snprintf(text, sizeof text, format, narrow);
        } else {
            snprintf(text, sizeof text, format, bits_of);
        }
    } else {
        double value; /* the slot holds the value widened to double, exactly */
        memcpy(&value, &slot, 8);
        if (!format) {
            format_float(value, type->width, text);
        } else {
            snprintf(text, sizeof text, format, value);
        }
    }
    out_text(text);
}

/* The launch's records as text, in the order they were claimed. */
static void print_finish(const gn_kernel *k, int64_t op) {
    const uint64_t *slots = (const uint64_t *)print_buffer;
    int64_t claimed = __gpuir_print_cursor, end = claimed < PRINT_CAPACITY ? claimed : PRINT_CAPACITY;
    int64_t at = 0;
    while (at + 8 <= end) {
        uint64_t header = slots[at / 8];
        int64_t ident = (int64_t)(header >> 32) - 1, count = (int64_t)(header & 0xffffffff);
        if (ident < 0 || ident >= gn_n_formats || at + 8 * (1 + count) > end) break;
        const gn_format *f = &gn_formats[ident];
        if (count != f->n_values) break;
        const uint64_t *values = &slots[at / 8 + 1];
        at += 8 * (1 + count);
        if (f->kind == GN_PRINT_CHAR) { /* a code point below 256, in UTF-8 */
            out_byte((unsigned char)values[0]);
        } else if (f->kind == GN_PRINT_INT) {
            print_value(values[0], &f->types[0], NULL, 0);
        } else {
            for (int32_t i = 0; i < f->n_pieces; i++) {
                const gn_piece *piece = &f->pieces[i];
                out_text(piece->literal);
                if (piece->value >= 0) print_value(values[piece->value], &f->types[piece->value], piece->format, piece->bits);
            }
        }
    }
    if (claimed > end) { /* gpu-run warns, at the launch: the warm run leaves that to it */
        if (warm) _exit(GN_FALLBACK);
        fflush(stdout);
        fprintf(stderr, "%s: warning: cpu: the printf output of @%s was cut: %lld bytes of records did not fit the %d-byte print buffer%s\n", gn_ops[op].where, k->name, (long long)(claimed - end), PRINT_CAPACITY, gn_ops[op].source);
    }
}

static void run_launch(const gn_kernel *k, int64_t n_groups, int64_t n_items, int64_t smem, void *args, int64_t op) {
    int64_t shared_size = k->shared_bytes + smem;
    thread_state = &states[0];
    launch_op = op, launch_kernel = k, launch_items = n_items;
    for (int w = 0; w < workers; w++) shared_buffer(&states[w], shared_size);
    if (gn_n_formats > 0) { /* a printing module: its groups in order, on this thread */
        char *shared = states[0].shared;
        print_start();
        k->entry(0, n_groups, n_items, shared, shared + k->shared_bytes, args, &states[0].progress);
        print_finish(k, op);
        return;
    }
    if (workers == 1 || n_groups < 2) {
        char *shared = states[0].shared;
        k->entry(0, n_groups, n_items, shared, shared + k->shared_bytes, args, &states[0].progress);
        return;
    }
    int64_t chunks = (int64_t)workers * CHUNKS_PER_WORKER;
    job = (launch_job){k, n_groups, n_items, chunks < n_groups ? chunks : n_groups, shared_size, args};
    pthread_mutex_lock(&mutex);
    next_chunk = 0;
    finished_workers = 0;
    generation++;
    pthread_cond_broadcast(&work_ready);
    pthread_mutex_unlock(&mutex);
    run_chunks(&states[0]);
    pthread_mutex_lock(&mutex);
    while (finished_workers < workers - 1) pthread_cond_wait(&work_done, &mutex);
    pthread_mutex_unlock(&mutex);
}

/* --- faults in kernels (gpuir/runtime/cpu/errors.py) --------------------------------------- */

#define NEAR (1 << 16)
static int faulted;

/* Where `address` is, next to the device allocations and the threads' shared memory, in the
 * cpu provider's words; " (outside device memory)" where it is in none of their pages. */
static void describe_address(uintptr_t address, char *out, size_t size) {
    if (!address) {
        snprintf(out, size, " (a null pointer, or an address outside the address space)");
        return;
    }
    uintptr_t best = UINTPTR_MAX;
    const char *relation = NULL, *what = NULL;
    int inside = 0;
    for (size_t i = 0; i < n_table + (size_t)workers; i++) {
        uintptr_t data, start, end;
        size_t nbytes;
        const char *name;
        if (i < n_table) {
            if (!table[i].mapping) continue;
            data = table[i].base, nbytes = (size_t)table[i].nbytes, name = describe(&table[i]);
            start = (uintptr_t)table[i].mapping, end = start + table[i].mapped;
        } else {
            worker_state *w = &states[i - n_table];
            if (!w->shared) continue;
            data = (uintptr_t)w->shared, nbytes = w->shared_size, name = "a work-group's shared memory";
            start = data & ~(uintptr_t)(page_size - 1), end = data + round_up(nbytes, (size_t)page_size) + (size_t)page_size;
        }
        inside |= address >= start && address < end;
        if (address >= data + nbytes && address - (data + nbytes) < best) {
            best = address - (data + nbytes), relation = "past the end of", what = name;
        } else if (address < data && data - address < best) {
            best = data - address, relation = "before the start of", what = name;
        }
        if (what == name && relation) { /* keep the name: describe() reuses its buffer */
            static char kept[1024];
            snprintf(kept, sizeof kept, "%s", name);
            what = kept;
        }
    }
    if (relation && best <= NEAR)
        snprintf(out, size, " (%llu bytes %s %s)", (unsigned long long)best, relation, what);
    else
        snprintf(out, size, inside ? " (in no device allocation)" : " (outside device memory)");
}

static void on_signal(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    if (warm) _exit(GN_FALLBACK);
    if (__atomic_exchange_n(&faulted, 1, __ATOMIC_SEQ_CST)) pause(); /* one thread reports */
    if (launch_op < 0 || !thread_state) {
        static const char text[] = "error: the program faulted outside its kernels\n";
        if (write(2, text, sizeof text - 1) < 0) _exit(1);
        _exit(1);
    }
    const char *words = signal_number == SIGSEGV ? "an illegal memory access" : signal_number == SIGBUS ? "an illegal memory access (bus error)" : signal_number == SIGFPE ? "an integer division by zero" : NULL;
    char word_buffer[32], where[1200] = "", near[1100];
    if (!words) {
        snprintf(word_buffer, sizeof word_buffer, "signal %d", signal_number);
        words = word_buffer;
    }
    if (signal_number != SIGFPE) {
        describe_address((uintptr_t)info->si_addr, near, sizeof near);
        snprintf(where, sizeof where, " at address %#llx%s", (unsigned long long)(uintptr_t)info->si_addr, near);
    }
    fail(launch_op, "cpu: %s in @%s%s, in work-group %lld", words, launch_kernel->name, where, (long long)thread_state->progress);
}

/* --- a resumable kernel's barrier divergence, in interp's words (runtime/cpu/errors.py) ------ */

/* Work-item numbers as "0-3, 5, 7-8": those of `stops` (n of them) from `lo` to `hi` equal to
 * `value`, or (`other`) different from it. */
static void item_ranges(const int32_t *stops, int64_t lo, int64_t hi, int32_t value, int other, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (int64_t i = lo; i < hi; i++) {
        if ((stops[i] == value) == other) continue;
        int64_t j = i;
        while (j + 1 < hi && (stops[j + 1] == value) != other) j++;
        used += (size_t)snprintf(out + used, used < size ? size - used : 0, used ? ", %lld" : "%lld", (long long)i);
        if (j > i) used += (size_t)snprintf(out + used, used < size ? size - used : 0, "-%lld", (long long)j);
        i = j;
    }
}

static const char *barrier_words(const gn_kernel *k, int32_t number) {
    return number >= 1 && number <= k->n_barriers ? k->barriers[number - 1].described : "(unknown op)";
}

static int32_t barrier_site(const gn_kernel *k, int32_t number) {
    return number >= 1 && number <= k->n_barriers ? k->barriers[number - 1].site : -1;
}

/* The error at site `site` (else at the launch), with a note at site `noted` (-1: none). */
static void fail_at_site(int32_t site, int32_t noted, const char *note, const char *format, ...) __attribute__((noreturn, format(printf, 4, 5)));
static void fail_at_site(int32_t site, int32_t noted, const char *note, const char *format, ...) {
    va_list args;
    va_start(args, format);
    const char *note_where = noted >= 0 ? gn_sites[noted].where : NULL;
    const char *note_source = noted >= 0 ? gn_sites[noted].source : "";
    if (site >= 0)
        report(gn_sites[site].where, gn_sites[site].source, gn_sites[site].text, note_where, note_source, note, format, args);
    const gn_op *o = &gn_ops[launch_op];
    report(o->where, o->source, o->text, note_where, note_source, note, format, args);
}

static int is_warp_op(const gn_kernel *k, int32_t number) {
    if (number < 1 || number > k->n_barriers) return 0;
    const char *name = k->barriers[number - 1].name;
    return strcmp(name, "gpu.shuffle") == 0 || strcmp(name, "gpu.ballot") == 0;
}

/* Called by a resumable kernel whose group's items stopped at different barriers: the items'
 * stops (0: returned, b: at barrier b) are in the thread's shared memory. */
void __gpuir_barrier_divergence(int64_t group, int64_t passed) {
    if (warm) _exit(GN_FALLBACK);
    if (__atomic_exchange_n(&faulted, 1, __ATOMIC_SEQ_CST)) pause(); /* one thread reports */
    const gn_kernel *k = launch_kernel;
    if (!k || k->resume_state < 0 || !thread_state) fail(launch_op, "barrier divergence in group %lld", (long long)group);
    const int32_t *stops = (const int32_t *)(thread_state->shared + k->resume_state);
    int64_t n = launch_items;
    static char same[1 << 14], rest[1 << 14];
    for (int64_t start = 0; start < n; start += 32) { /* a warp's lanes that part at a warp op */
        int64_t end = start + 32 < n ? start + 32 : n, first = -1, other = -1;
        for (int64_t i = start; i < end && first < 0; i++)
            if (is_warp_op(k, stops[i])) first = i;
        if (first < 0) continue;
        for (int64_t i = start; i < end && other < 0; i++)
            if (stops[i] != stops[first]) other = i;
        if (other < 0) continue;
        item_ranges(stops, start, end, stops[first], 0, same, sizeof same);
        item_ranges(stops, start, end, stops[other], 0, rest, sizeof rest);
        char where[600];
        if (stops[other] == 0)
            snprintf(where, sizeof where, "returned from the kernel");
        else
            snprintf(where, sizeof where, "wait at %s", barrier_words(k, stops[other]));
        fail_at_site(barrier_site(k, stops[first]), -1, NULL,
                     "barrier divergence in group %lld: work-item(s) %s wait at %s (a warp operation), but work-item(s) %s of the same warp (work-items %lld-%lld) %s; every lane of a warp must reach a warp operation together",
                     (long long)group, same, barrier_words(k, stops[first]), rest, (long long)start, (long long)(end - 1), where);
    }
    int64_t waiting = -1, returned = -1;
    for (int64_t i = 0; i < n; i++) {
        if (stops[i] != 0 && waiting < 0) waiting = i;
        if (stops[i] == 0 && returned < 0) returned = i;
    }
    int32_t first = waiting >= 0 ? stops[waiting] : 0;
    int32_t site = barrier_site(k, first);
    if (waiting >= 0 && returned >= 0) {
        item_ranges(stops, 0, n, 0, 1, same, sizeof same);
        item_ranges(stops, 0, n, 0, 0, rest, sizeof rest);
        fail_at_site(site, -1, NULL,
                     "barrier divergence in group %lld: work-item(s) %s wait at %s (barrier %lld of the group), but work-item(s) %s returned from the kernel after %lld barrier(s), without reaching it",
                     (long long)group, same, barrier_words(k, first), (long long)(passed + 1), rest, (long long)passed);
    }
    int64_t other_item = 0;
    for (int64_t i = 0; i < n; i++)
        if (stops[i] != first) {
            other_item = i;
            break;
        }
    int32_t other = stops[other_item];
    int32_t other_site = barrier_site(k, other);
    item_ranges(stops, 0, n, first, 0, same, sizeof same);
    item_ranges(stops, 0, n, other, 0, rest, sizeof rest);
    const char *suffix = "";
    if (site >= 0 && site == other_site)
        suffix = strcmp(gn_sites[site].name, "gpu.synced_scope") == 0 ? " (the entry and the exit of one synced scope)" : " (reached through different calls)";
    char note[64];
    snprintf(note, sizeof note, "where work-item %lld waits", (long long)other_item);
    fail_at_site(site, other_site, note,
                 "barrier divergence in group %lld: work-item(s) %s wait at %s, but work-item(s) %s wait at %s%s; every work-item of a group must reach the same barriers",
                 (long long)group, same, barrier_words(k, first), rest, barrier_words(k, other), suffix);
}

/* --- the ABI's functions (the shim's callbacks: 0 = done, a result through the last
 * pointer; they never fail back: `fail` ends the process) ----------------------------------- */

static int32_t cb_init(int64_t op) {
    op_of(op, GN_INIT);
    if (sessions == 0) {
        opened = !is_open;
        if (opened) {
            is_open = 1;
            n_streams = 0;
        }
    }
    sessions++;
    return 0;
}

static int32_t cb_deinit(int64_t op) {
    op_of(op, GN_DEINIT);
    if (sessions == 0) fail(op, "%s closes a device that is not open", gn_ops[op].described);
    sessions--;
    if (sessions == 0) {
        check_open(op); /* synchronize */
        if (opened) close_device(op);
        opened = 0;
    }
    return 0;
}

static int32_t cb_stream_create(int64_t op, void **result) {
    op_of(op, GN_STREAM_CREATE);
    check_open(op);
    if (n_streams == streams_capacity) {
        streams_capacity = streams_capacity ? streams_capacity * 2 : 16;
        streams = realloc(streams, streams_capacity * sizeof *streams);
        if (!streams) fail(op, "out of memory");
    }
    streams[n_streams++] = next_stream;
    *result = (void *)(uintptr_t)next_stream++;
    return 0;
}

static int32_t cb_stream_sync(void *stream, int64_t op) {
    op_of(op, GN_STREAM_SYNC);
    check_open(op);
    check_stream(stream, op);
    return 0;
}

static int32_t cb_stream_destroy(void *stream, int64_t op) {
    op_of(op, GN_STREAM_DESTROY);
    check_open(op);
    if (!stream) fail(op, "cpu: the default stream cannot be destroyed");
    check_stream(stream, op);
    long i = stream_index((int64_t)(uintptr_t)stream);
    streams[i] = streams[--n_streams];
    return 0;
}

static void *alloc_device(int64_t nbytes, void *stream, int64_t op) {
    op_of(op, GN_ALLOC);
    if (nbytes < 0) fail(op, "cannot allocate %lld bytes", (long long)nbytes);
    check_open(op);
    check_stream(stream, op);
    allocation made = device_bytes(nbytes, op);
    table_add(made);
    return (void *)made.base;
}

static int32_t cb_alloc(int64_t nbytes, int64_t op, void **result) {
    *result = alloc_device(nbytes, NULL, op);
    return 0;
}

static int32_t cb_alloc_async(int64_t nbytes, void *stream, int64_t op, void **result) {
    *result = alloc_device(nbytes, stream, op);
    return 0;
}

/* A free of `ptr` as memory of `space` by `who` ("" or "host code "): it must be the start of
 * a live allocation there. */
static allocation *freeable(void *ptr, int space, const char *who, int64_t op) {
    if (!ptr) fail(op, "%sfrees a null pointer", who);
    allocation *a = find((uintptr_t)ptr);
    if (!a) fail(op, "%sfrees address %#llx, which is in no allocation", who, (unsigned long long)(uintptr_t)ptr);
    if (a->freed) {
        const char *by = freed_by(a);
        fail_with(op, a->freed_by, "freed here", "use after free: %sfrees %s a second time (freed%s)", who, describe(a), by);
    }
    if (a->space != space) fail(op, "%sfrees %s as %s memory", who, describe(a), space_name(space));
    if ((uintptr_t)ptr != a->base) fail(op, "%sfrees byte offset %lld of %s, not its start", who, (long long)((uintptr_t)ptr - a->base), describe(a));
    return a;
}

static void free_device(void *ptr, void *stream, int64_t op) {
    op_of(op, GN_FREE);
    check_open(op);
    check_stream(stream, op);
    allocation *a = freeable(ptr, SPACE_GLOBAL, "", op);
    a->freed = 1;
    a->freed_by = op;
    release(a);
}

static int32_t cb_free(void *ptr, int64_t op) {
    free_device(ptr, NULL, op);
    return 0;
}

static int32_t cb_free_async(void *ptr, void *stream, int64_t op) {
    free_device(ptr, stream, op);
    return 0;
}

/* One side of a copy, as gpu-run resolves it: the allocation holding `address` (or, for a
 * pointer typed as host memory outside every allocation, the slot of its static size). */
typedef struct {
    allocation *allocation;
    int slot;
} side;

static side resolve(uintptr_t address, int type_space, int dynamic) {
    side found = {find(address), 0};
    if (!found.allocation && type_space == SPACE_HOST && address && !dynamic) found.slot = 1;
    return found;
}

static void check_space(side s, int expected, const char *role, int64_t op) {
    int space = s.allocation ? s.allocation->space : SPACE_HOST;
    if ((s.allocation || s.slot) && space != expected)
        fail(op, "cpu: the copy's %s is %s memory, expected %s memory", role, space_name(space), space_name(expected));
}

/* memory.check_access: `verb` is "reads 8 bytes from" or "writes 8 bytes to". */
static void check_access(side s, uintptr_t address, int64_t nbytes, const char *verb, int64_t op) {
    allocation *a = s.allocation;
    if (s.slot) return;
    if (!a) fail(op, "out of bounds: %s address %#llx, which is in no allocation", verb, (unsigned long long)address);
    if (a->freed) {
        const char *by = freed_by(a);
        fail_with(op, a->freed_by, "freed here", "use after free: %s %s, freed%s", verb, describe(a), by);
    }
    int64_t offset = (int64_t)(address - a->base);
    if (offset < 0 || offset + nbytes > a->nbytes)
        fail_with(op, a->made_by, "allocated here", "out of bounds: %s byte offset %lld of %s (bytes %lld to %lld, valid 0 to %lld)", verb, (long long)offset, describe(a), (long long)offset, (long long)(offset + nbytes - 1), (long long)(a->nbytes - 1));
}

static void copy(void *dst, void *src, void *stream, int64_t op, int kind) {
    const gn_op *o = op_of(op, kind);
    check_open(op);
    check_stream(stream, op);
    int to_device = kind == GN_COPY_TO_DEVICE;
    int dynamic = o->size < 0;
    side source = resolve((uintptr_t)src, o->src_space, dynamic);
    side target = resolve((uintptr_t)dst, o->dst_space, 0);
    int64_t nbytes = o->size;
    if (dynamic) { /* a `?` array: what the source's allocation holds from src on */
        int64_t stride = -o->size, rest = 0;
        if (source.allocation) rest = source.allocation->nbytes - (int64_t)((uintptr_t)src - source.allocation->base);
        nbytes = rest > 0 ? rest / stride * stride : 0;
    }
    check_space(source, to_device ? SPACE_HOST : SPACE_GLOBAL, "source", op);
    check_space(target, to_device ? SPACE_GLOBAL : SPACE_HOST, "destination", op);
    char verb[64];
    snprintf(verb, sizeof verb, "reads %lld bytes from", (long long)nbytes);
    check_access(source, (uintptr_t)src, nbytes, verb, op);
    snprintf(verb, sizeof verb, "writes %lld bytes to", (long long)nbytes);
    check_access(target, (uintptr_t)dst, nbytes, verb, op);
    if (nbytes) memmove(dst, src, (size_t)nbytes);
}

/* The four copies: `nbytes` is the host code's view of the size; the op's own (`copy`) decides,
 * as gpu-run's does. */
#define COPY_CALLBACKS(name, kind)                                                              \
    static int32_t name(void *dst, void *src, int64_t nbytes, int64_t op) {                     \
        (void)nbytes;                                                                           \
        copy(dst, src, NULL, op, kind);                                                         \
        return 0;                                                                               \
    }                                                                                           \
    static int32_t name##_async(void *dst, void *src, int64_t nbytes, void *stream, int64_t op) { \
        (void)nbytes;                                                                           \
        copy(dst, src, stream, op, kind);                                                       \
        return 0;                                                                               \
    }

COPY_CALLBACKS(cb_copy_to_device, GN_COPY_TO_DEVICE)
COPY_CALLBACKS(cb_copy_to_host, GN_COPY_TO_HOST)

static int32_t cb_launch(void *name, int64_t n_groups, int64_t n_items, int64_t smem, void *stream, void *slots, int64_t count, int64_t op) {
    const gn_op *o = op_of(op, GN_LAUNCH);
    const gn_kernel *k = &gn_kernels[o->kernel];
    if (name) {
        k = NULL;
        for (int i = 0; i < gn_n_kernels; i++)
            if (strcmp(gn_kernels[i].name, name) == 0) k = &gn_kernels[i];
        if (!k) fail(op, "cpu: the device module has no kernel @%s", (const char *)name);
    }
    if (o->size && smem < 0) fail(op, "'gpu.launch' asks for a negative shared extent (%lld)", (long long)(smem / o->size));
    check_open(op);
    check_stream(stream, op);
    if (n_groups < 1 || n_items < 1 || n_items > MAX_ITEMS)
        fail(op, "cpu: invalid launch configuration of @%s: %lld work-group(s) of %lld work-item(s) (at least 1 group of 1 to %d items)", k->name, (long long)n_groups, (long long)n_items, MAX_ITEMS);
    if (count != k->n_params) fail(op, "cpu: @%s takes %d argument(s), the launch passes %lld", k->name, k->n_params, (long long)count);
    uint64_t args[count > 0 ? count : 1];
    memcpy(args, slots, (size_t)count * 8);
    for (int64_t i = 0; i < count; i++) {
        char kind = k->params[i];
        if (kind == 'b') {
            args[i] &= 1;
        } else if (kind == 'g' || kind == 'h') {
            allocation *a = find((uintptr_t)args[i]);
            if (a && a->freed) {
                const char *by = freed_by(a);
                fail_with(op, a->freed_by, "freed here", "use after free: cpu: argument %lld of @%s points into %s, freed%s", (long long)i, k->name, describe(a), by);
            }
            if ((a && a->space == SPACE_HOST) || (!a && kind == 'h' && args[i]))
                fail(op, "cpu: argument %lld of @%s points into host memory, which device code cannot access (host memory)", (long long)i, k->name);
        }
    }
    run_launch(k, n_groups, n_items, smem, args, op);
    return 0;
}

static int32_t cb_host_alloc(int64_t nbytes, int64_t op, void **result) {
    op_of(op, GN_HOST_ALLOC);
    if (nbytes < 0) fail(op, "cannot allocate %lld bytes", (long long)nbytes);
    void *data = NULL;
    size_t size = round_up((size_t)(nbytes > 0 ? nbytes : 1), 16);
    if (posix_memalign(&data, 16, size) != 0) fail(op, "out of memory: cannot make a %lld-byte host allocation", (long long)nbytes);
    memset(data, 0, size);
    allocation made = {(uintptr_t)data, nbytes, SPACE_HOST, 0, 0, NULL, 0, op, -1};
    table_add(made);
    *result = data;
    return 0;
}

static int32_t cb_host_free(void *ptr, int64_t op) {
    op_of(op, GN_HOST_FREE);
    allocation *a = freeable(ptr, SPACE_HOST, "host code ", op);
    a->freed = 1; /* its bytes stay: a later access of compiled host code is unchecked */
    a->freed_by = op;
    return 0;
}

static int32_t cb_print_string(void *text, int64_t length, int64_t op) {
    (void)op;
    out_write(text, (size_t)length);
    return 0;
}

static int32_t cb_print_int(int64_t value, int64_t op) {
    (void)op;
    char text[32];
    snprintf(text, sizeof text, "%lld", (long long)value);
    out_text(text);
    return 0;
}

static int32_t cb_print_float(double value, int32_t bits, int64_t op) {
    (void)op;
    char text[64];
    format_float(value, bits, text);
    out_text(text);
    return 0;
}

static int32_t cb_print_float_spec(double value, int32_t conversion, int64_t op) {
    (void)op;
    char text[512];
    if (isnan(value)) {
        out_text(signbit(value) ? "-nan" : "nan");
        return 0;
    }
    char format[] = "%?";
    format[1] = (char)conversion;
    snprintf(text, sizeof text, format, value);
    out_text(text);
    return 0;
}

static int32_t cb_print_memref(void *data, int64_t op) {
    (void)data;
    fail(op, "mem.print_memref is not part of native executables");
}

/* The shim's pointers (gpuir/lowering/host/host_to_llvm.py: add_runtime_shim). */
extern void *__gpuir_cb_gpuirInit, *__gpuir_cb_gpuirDeinit, *__gpuir_cb_gpuirStreamCreate,
    *__gpuir_cb_gpuirStreamSynchronize, *__gpuir_cb_gpuirStreamDestroy, *__gpuir_cb_gpuirMemAlloc,
    *__gpuir_cb_gpuirMemAllocAsync, *__gpuir_cb_gpuirMemFree, *__gpuir_cb_gpuirMemFreeAsync,
    *__gpuir_cb_gpuirMemcpyHtoD, *__gpuir_cb_gpuirMemcpyHtoDAsync, *__gpuir_cb_gpuirMemcpyDtoH,
    *__gpuir_cb_gpuirMemcpyDtoHAsync, *__gpuir_cb_gpuirLaunchKernel, *__gpuir_cb_gpuirHostAlloc,
    *__gpuir_cb_gpuirHostFree, *__gpuir_cb_gpuirPrintString, *__gpuir_cb_gpuirPrintInt,
    *__gpuir_cb_gpuirPrintFloat, *__gpuir_cb_gpuirPrintFloatSpec, *__gpuir_cb_gpuirPrintMemref;

static void install_callbacks(void) {
    __gpuir_cb_gpuirInit = (void *)cb_init;
    __gpuir_cb_gpuirDeinit = (void *)cb_deinit;
    __gpuir_cb_gpuirStreamCreate = (void *)cb_stream_create;
    __gpuir_cb_gpuirStreamSynchronize = (void *)cb_stream_sync;
    __gpuir_cb_gpuirStreamDestroy = (void *)cb_stream_destroy;
    __gpuir_cb_gpuirMemAlloc = (void *)cb_alloc;
    __gpuir_cb_gpuirMemAllocAsync = (void *)cb_alloc_async;
    __gpuir_cb_gpuirMemFree = (void *)cb_free;
    __gpuir_cb_gpuirMemFreeAsync = (void *)cb_free_async;
    __gpuir_cb_gpuirMemcpyHtoD = (void *)cb_copy_to_device;
    __gpuir_cb_gpuirMemcpyHtoDAsync = (void *)cb_copy_to_device_async;
    __gpuir_cb_gpuirMemcpyDtoH = (void *)cb_copy_to_host;
    __gpuir_cb_gpuirMemcpyDtoHAsync = (void *)cb_copy_to_host_async;
    __gpuir_cb_gpuirLaunchKernel = (void *)cb_launch;
    __gpuir_cb_gpuirHostAlloc = (void *)cb_host_alloc;
    __gpuir_cb_gpuirHostFree = (void *)cb_host_free;
    __gpuir_cb_gpuirPrintString = (void *)cb_print_string;
    __gpuir_cb_gpuirPrintInt = (void *)cb_print_int;
    __gpuir_cb_gpuirPrintFloat = (void *)cb_print_float;
    __gpuir_cb_gpuirPrintFloatSpec = (void *)cb_print_float_spec;
    __gpuir_cb_gpuirPrintMemref = (void *)cb_print_memref;
}

/* --- @main's arguments and results ------------------------------------------------------- */

/* An error in @main's arguments, at @main, as gpu-run words it. */
static void fail_at_main(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fail_at_main(const char *format, ...) {
    va_list args;
    va_start(args, format);
    report(gn_main_where, gn_main_source, NULL, NULL, "", NULL, format, args);
}

static int plain_decimal(const char *text) {
    const char *p = text + (*text == '-' || *text == '+');
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++) digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++) digits++;
    if (!digits) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '-' || *p == '+';
        if (*p < '0' || *p > '9') return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    return *p == 0;
}

static int has_nonzero_digit(const char *text) {
    for (const char *p = text; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9') return 1;
    return 0;
}

/* An integer as Python's int(text, 0), else int(text, 10), reads it: a sign, then decimal
 * digits, or 0x/0o/0b and digits of that base (`bits`: a bit pattern, which may take the
 * unsigned range). 0 where it is not one, or has more than 127 bits (then gpu-run words it). */
static int parse_integer(const char *text, __int128 *value, int *bits) {
    const char *p = text;
    int negative = *p == '-';
    p += *p == '-' || *p == '+';
    int base = 10;
    *bits = 0;
    if (p[0] == '0' && p[1] && strchr("xXoObB", p[1])) {
        base = strchr("xX", p[1]) ? 16 : strchr("oO", p[1]) ? 8 : 2;
        *bits = 1;
        p += 2;
    }
    if (!*p) return 0;
    unsigned __int128 magnitude = 0;
    for (; *p; p++) {
        int digit = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : 99;
        if (digit >= base) return 0;
        if (magnitude >> 120) {
            if (warm) _exit(GN_FALLBACK);
            return 0;
        }
        magnitude = magnitude * (unsigned)base + (unsigned)digit;
    }
    *value = negative ? -(__int128)magnitude : (__int128)magnitude;
    return 1;
}

static void format_wide(__int128 value, char *out) {
    char digits[64];
    int n = 0, negative = value < 0;
    unsigned __int128 magnitude = negative ? -(unsigned __int128)value : (unsigned __int128)value;
    do {
        digits[n++] = (char)('0' + (int)(magnitude % 10));
        magnitude /= 10;
    } while (magnitude);
    if (negative) *out++ = '-';
    while (n) *out++ = digits[--n];
    *out = 0;
}

/* Argument `i` of @main into its slot, read as gpu-run reads it (runtime/scalars.py: parse):
 * integers of any base in the type's signed range (a bit pattern also in its unsigned range);
 * floats as the C library reads them, rounded once to the type. In warm mode, a float that is
 * not a plain decimal rounding to a normal number or zero is gpu-run's to read. */
static uint64_t read_argument(const char *text, const gn_scalar *type, int i) {
    if (type->kind == 'i') {
        int width = type->width, bits;
        __int128 value;
        if (width == 1 && (strcasecmp(text, "true") == 0 || strcasecmp(text, "false") == 0)) return strcasecmp(text, "true") == 0;
        if (strchr(text, '_') || strchr(text, ' ')) {
            if (warm) _exit(GN_FALLBACK);
        }
        if (!parse_integer(text, &value, &bits)) fail_at_main("argument %d of @main: '%s' is not an integer (expected %s)", i + 1, text, type->text);
        __int128 low = width == 1 ? 0 : -((__int128)1 << (width - 1)), high = width == 1 ? 1 : ((__int128)1 << (width - 1)) - 1;
        if (!((value >= low && value <= high) || (bits && value >= 0 && value < ((__int128)1 << width)))) {
            char shown[64], from[64], to[64];
            format_wide(value, shown);
            format_wide(low, from);
            format_wide(high, to);
            if (width == 1) fail_at_main("argument %d of @main: %s does not fit in %s (from %s to %s)", i + 1, shown, type->text, from, to);
            fail_at_main("argument %d of @main: %s does not fit in %s (from %s to %s; a bit pattern may be written in hex, up to %#llx)", i + 1, shown, type->text, from, to, (unsigned long long)(((unsigned __int128)1 << width) - 1));
        }
        return width >= 64 ? (uint64_t)value : (uint64_t)value & ((1ULL << width) - 1);
    }
    char *end;
    errno = 0;
    double wide = strtod(text, &end);
    if (end == text || *end) fail_at_main("argument %d of @main: '%s' is not a number (expected %s)", i + 1, text, type->text);
    if (warm && !plain_decimal(text)) _exit(GN_FALLBACK);
    uint64_t slot = 0;
    if (type->width == 16) {
        /* the double nearest the number, then the half nearest that: the half nearest the
         * number, unless the double fell on a tie of halves (then gpu-run rounds it) */
        uint16_t half = half_from_double(wide);
        double below = half_to_double(half), other = half_to_double((uint16_t)(half + (fabs(wide) > fabs(below) ? 1 : -1)));
        int tie = wide != below && fabs(wide - below) == fabs(other - below) / 2;
        if (warm && (errno == ERANGE || tie || (half & 0x7c00) == 0x7c00 || ((half & 0x7c00) == 0 && (half & 0x3ff)) || ((half & 0x7fff) == 0 && has_nonzero_digit(text)))) _exit(GN_FALLBACK);
        slot = half;
    } else if (type->width == 32) {
        errno = 0;
        float value = strtof(text, NULL);
        if (warm && (errno == ERANGE || isinf(value) || (value != 0 && !isnormal(value)) || (value == 0 && has_nonzero_digit(text)))) _exit(GN_FALLBACK);
        memcpy(&slot, &value, 4);
    } else {
        if (warm && (errno == ERANGE || isinf(wide) || (wide != 0 && !isnormal(wide)) || (wide == 0 && has_nonzero_digit(text)))) _exit(GN_FALLBACK);
        memcpy(&slot, &wide, 8);
    }
    return slot;
}

static void print_result(uint64_t slot, const gn_scalar *type) {
    char text[64];
    if (type->kind == 'i') {
        int width = type->width;
        long long value;
        if (width == 1)
            value = (long long)(slot & 1);
        else if (width >= 64)
            value = (long long)slot;
        else {
            uint64_t bits = slot & ((1ULL << width) - 1);
            value = (bits >> (width - 1)) ? (long long)bits - (long long)(1ULL << width) : (long long)bits;
        }
        snprintf(text, sizeof text, "%lld\n", value);
        out_text(text);
        return;
    }
    double value;
    if (type->width == 64) {
        memcpy(&value, &slot, 8);
    } else if (type->width == 32) {
        float single;
        memcpy(&single, &slot, 4);
        value = single;
    } else {
        value = half_to_double((uint16_t)slot);
    }
    format_float(value, type->width, text);
    out_text(text);
    out_text("\n");
}

int main(int argc, char **argv) {
    const char *mode = getenv("GPUIR_NATIVE_WARM");
    warm = mode && strcmp(mode, "1") == 0;
    page_size = sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO;
    int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) sigaction(signals[i], &action, NULL);
    if (argc - 1 != gn_n_params) fail_at_main("@main takes %d argument(s) (%s), got %d", gn_n_params, gn_param_types, argc - 1);
    uint64_t args[gn_n_params > 0 ? gn_n_params : 1], results[gn_n_results > 0 ? gn_n_results : 1];
    for (int i = 0; i < gn_n_params; i++) args[i] = read_argument(argv[i + 1], &gn_params[i], i);
    install_callbacks();
    start_workers();
    if (__gpuir_main_main(args, results) != 0) fail(-1, "internal error: a runtime call failed");
    for (int i = 0; i < gn_n_results; i++) print_result(results[i], &gn_results[i]);
    if (warm && out_size && fwrite(out_data, 1, out_size, stdout) != out_size) _exit(GN_FALLBACK);
    if (fflush(stdout) != 0) _exit(warm ? GN_FALLBACK : 1);
    _exit(0); /* the pool's threads wait for work: end without joining them */
}
