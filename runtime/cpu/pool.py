"""The cpu provider's threads: a pool of native threads that run a launch's chunks of
work-groups, with no Python (and no GIL) between a launch and its last chunk.

A launch is split into chunks of consecutive work-groups. `Pool.run(...)`, called from Python
through ctypes (the GIL released), publishes the launch to the helper threads and takes chunks
itself until none is left; each helper takes chunks too, until none is left, and then waits for
the next launch. A chunk is claimed with one compare-and-swap on the launch's *ticket*: the
launch's number in its high 32 bits, the next chunk's index in its low 32 bits; a helper that
wakes late, after its launch has ended, finds the ticket of another launch and claims nothing.
When the calling thread runs out of chunks it closes the ticket (nothing more can be claimed)
and waits only for the chunks that were claimed to finish: a helper that was asleep throughout
never delays a launch.

Waiting spins first (`SPIN_SECONDS`, with the CPU's pause hint), then sleeps on a condition
variable: a helper that finished a launch a moment ago starts the next one at once, as
OpenMP's threads do, and an idle pool costs nothing.

Each thread runs its chunks under the fault guard (`gpuir.runtime.cpu.faults`, where there is
one) with a fault context of its own (`Pool.contexts[w]`, `w` = 0 for the calling thread); a
chunk that faults stops its thread's work and the launch's claims, and leaves in its context
the guard's result (`RESULT`), the signal's address and the group (`PROGRESS`). `run` returns
the faults, by thread; the caller reads each thread's shared memory (`shared[w]`) for a
divergence's stops.

The machine code is LLVM IR (below), compiled once per process with MCJIT, like the fault
guard; the pool is one per process (`pool(workers)`), its threads POSIX threads made with
`pthread_create` and stopped at exit. Where it cannot be made, `pool` returns None and the cpu
provider runs every launch on the calling thread.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import platform
import struct
import threading
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cache

from gpuir.runtime.cpu import faults

SPIN_SECONDS = 0.001
"""How long a waiting thread spins before it sleeps."""
CHECK_EVERY = 64
"""Spins between two readings of the clock."""

# The pool's words (8 bytes each).
GEN, QUIT, TICKET, COMPLETED, ENTRY, N_GROUPS, N_ITEMS, STATIC = range(8)
ARGS, N_CHUNKS, SHARED, CONTEXTS, FAILED, WORKERS, GUARDED, SPIN_NS = range(8, 16)
LAUNCH = struct.Struct("<6q")
"""The words a launch sets, from `ENTRY` on: the entry, the groups, the items per group, the
static shared memory, the argument slots and the chunks. Python writes them (`Pool.run`)
before it calls `__gpuir_pool_run(pool)`, which publishes them: one ctypes argument instead of
seven (ctypes converts each integer argument at each call: 2.8 us for seven on a 2-vCPU
machine, against 0.3 us for the pool's words as the only argument)."""
MUTEX, WORK, DONE = 256, 320, 384
"""Byte offsets of the mutex and the two condition variables (64 bytes each: glibc's are 40 and
48 bytes)."""
POOL_BYTES = 512
RESULT = faults.JMPBUF_BYTES + 24
"""The slot of a fault context where a thread's chunk leaves the guard's result (0: none)."""
CHUNK_MASK = 0xFFFFFFFF


def pause_hint() -> tuple[str, str]:
    """The declaration and the call of this CPU's spin-wait hint (none where unknown)."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return "declare void @llvm.x86.sse2.pause()", "call void @llvm.x86.sse2.pause()"
    if machine in ("aarch64", "arm64"):
        return "declare void @llvm.aarch64.hint(i32)", "call void @llvm.aarch64.hint(i32 1)"
    return "", ""


def word(name: str, pool: str, index: int) -> str:
    """`%name = getelementptr` of the pool's word `index`."""
    return f"%{name} = getelementptr i64, ptr %{pool}, i64 {index}"


def ir_text() -> str:
    declare_pause, pause = pause_hint()
    return f"""
declare i32 @pthread_mutex_lock(ptr)
declare i32 @pthread_mutex_unlock(ptr)
declare i32 @pthread_cond_wait(ptr, ptr)
declare i32 @pthread_cond_broadcast(ptr)
declare i32 @clock_gettime(i32, ptr)
{declare_pause}

define internal i64 @now() {{
entry:
  %ts = alloca [2 x i64], align 8
  %r = call i32 @clock_gettime(i32 1, ptr %ts)
  %s = load i64, ptr %ts, align 8
  %pns = getelementptr i64, ptr %ts, i64 1
  %ns = load i64, ptr %pns, align 8
  %a = mul i64 %s, 1000000000
  %t = add i64 %a, %ns
  ret i64 %t
}}

; Spin while `done(pool, value)` is false, for the pool's spin time; true when it became true.
define internal i1 @spin(ptr %pool, ptr %at, i64 %value, i1 %equal) {{
entry:
  {word("pspin", "pool", SPIN_NS)}
  %limit = load i64, ptr %pspin, align 8
  %start = call i64 @now()
  br label %test
test:
  %k = phi i64 [0, %entry], [%k1, %again], [%k1, %clock]
  %v = load atomic i64, ptr %at acquire, align 8
  %same = icmp eq i64 %v, %value
  %hit = xor i1 %same, %equal
  %found = xor i1 %hit, true
  br i1 %found, label %yes, label %again
again:
  {pause}
  %k1 = add i64 %k, 1
  %low = and i64 %k1, {CHECK_EVERY - 1}
  %look = icmp eq i64 %low, 0
  br i1 %look, label %clock, label %test
clock:
  %t = call i64 @now()
  %elapsed = sub i64 %t, %start
  %over = icmp uge i64 %elapsed, %limit
  br i1 %over, label %no, label %test
yes:
  ret i1 true
no:
  ret i1 false
}}

; Wait until the word at `at` equals `value` (`equal`) or differs from it (not `equal`), or the
; pool stops: spin first, then sleep on the condition variable `cond` (at its byte offset).
define internal void @await(ptr %pool, ptr %at, i64 %value, i1 %equal, i64 %cond) {{
entry:
  %hot = call i1 @spin(ptr %pool, ptr %at, i64 %value, i1 %equal)
  br i1 %hot, label %out, label %sleep
sleep:
  {word("pquit", "pool", QUIT)}
  %pmutex = getelementptr i8, ptr %pool, i64 {MUTEX}
  %pcond = getelementptr i8, ptr %pool, i64 %cond
  %l = call i32 @pthread_mutex_lock(ptr %pmutex)
  br label %test
test:
  %v = load atomic i64, ptr %at acquire, align 8
  %q = load atomic i64, ptr %pquit acquire, align 8
  %same = icmp eq i64 %v, %value
  %hit = xor i1 %same, %equal
  %found = xor i1 %hit, true
  %stop = icmp ne i64 %q, 0
  %either = or i1 %found, %stop
  br i1 %either, label %awake, label %block
block:
  %w = call i32 @pthread_cond_wait(ptr %pcond, ptr %pmutex)
  br label %test
awake:
  %u = call i32 @pthread_mutex_unlock(ptr %pmutex)
  br label %out
out:
  ret void
}}

; The chunks thread `w` claims of launch `g`, each run under the guard; `notify`: wake the
; calling thread after each (helpers do, the calling thread need not).
define internal void @run_chunks(ptr %pool, i64 %w, i64 %g, i1 %notify) {{
entry:
  {word("pcontexts", "pool", CONTEXTS)}
  %contexts = load ptr, ptr %pcontexts, align 8
  %pctx = getelementptr ptr, ptr %contexts, i64 %w
  %ctx = load ptr, ptr %pctx, align 8
  {word("pticket", "pool", TICKET)}
  {word("pchunks", "pool", N_CHUNKS)}
  {word("pfailed", "pool", FAILED)}
  {word("pcompleted", "pool", COMPLETED)}
  %gen = and i64 %g, {CHUNK_MASK}
  br label %claim
claim:
  %t = load atomic i64, ptr %pticket acquire, align 8
  %tg = lshr i64 %t, 32
  %tc = and i64 %t, {CHUNK_MASK}
  %n_chunks = load i64, ptr %pchunks, align 8
  %failed = load atomic i64, ptr %pfailed monotonic, align 8
  %ours = icmp eq i64 %tg, %gen
  %open = icmp ult i64 %tc, %n_chunks
  %fine = icmp eq i64 %failed, 0
  %a = and i1 %ours, %open
  %b = and i1 %a, %fine
  br i1 %b, label %try, label %done
try:
  %t1 = add i64 %t, 1
  %x = cmpxchg ptr %pticket, i64 %t, i64 %t1 acq_rel monotonic
  %won = extractvalue {{ i64, i1 }} %x, 1
  br i1 %won, label %run, label %claim
run:
  {word("pgroups", "pool", N_GROUPS)}
  %n_groups = load i64, ptr %pgroups, align 8
  %m0 = mul i64 %n_groups, %tc
  %first = udiv i64 %m0, %n_chunks
  %tc1 = add i64 %tc, 1
  %m1 = mul i64 %n_groups, %tc1
  %end = udiv i64 %m1, %n_chunks
  {word("pentry", "pool", ENTRY)}
  %entryfn = load ptr, ptr %pentry, align 8
  {word("pitems", "pool", N_ITEMS)}
  %n_items = load i64, ptr %pitems, align 8
  {word("pargs", "pool", ARGS)}
  %args = load ptr, ptr %pargs, align 8
  {word("pshared", "pool", SHARED)}
  %sharedtable = load ptr, ptr %pshared, align 8
  %pbuffer = getelementptr ptr, ptr %sharedtable, i64 %w
  %shared = load ptr, ptr %pbuffer, align 8
  {word("pstatic", "pool", STATIC)}
  %static = load i64, ptr %pstatic, align 8
  %smem = getelementptr i8, ptr %shared, i64 %static
  {word("pguarded", "pool", GUARDED)}
  %guarded = load ptr, ptr %pguarded, align 8
  %unguarded = icmp eq ptr %guarded, null
  br i1 %unguarded, label %plain, label %guard
plain:
  %pprogress = getelementptr i8, ptr %ctx, i64 {faults.PROGRESS}
  call void %entryfn(i64 %first, i64 %end, i64 %n_items, ptr %shared, ptr %smem, ptr %args,
                     ptr %pprogress)
  br label %ran
guard:
  %r32 = call i32 %guarded(ptr %entryfn, i64 %first, i64 %end, i64 %n_items, ptr %shared,
                           ptr %smem, ptr %args, ptr %ctx)
  br label %ran
ran:
  %r = phi i32 [0, %plain], [%r32, %guard]
  %faulted = icmp ne i32 %r, 0
  br i1 %faulted, label %fault, label %count
fault:
  %presult = getelementptr i8, ptr %ctx, i64 {RESULT}
  %r64 = sext i32 %r to i64
  store i64 %r64, ptr %presult, align 8
  store atomic i64 1, ptr %pfailed release, align 8
  br label %count
count:
  %c = atomicrmw add ptr %pcompleted, i64 1 acq_rel
  br i1 %notify, label %wake, label %next
wake:
  %pmutex = getelementptr i8, ptr %pool, i64 {MUTEX}
  %pdone = getelementptr i8, ptr %pool, i64 {DONE}
  %l = call i32 @pthread_mutex_lock(ptr %pmutex)
  %cb = call i32 @pthread_cond_broadcast(ptr %pdone)
  %u = call i32 @pthread_mutex_unlock(ptr %pmutex)
  br label %next
next:
  br i1 %faulted, label %done, label %claim
done:
  ret void
}}

; A helper thread (`pthread_create`'s start routine): `arg` points to (pool, w).
define ptr @__gpuir_pool_helper(ptr %arg) {{
entry:
  %pool = load ptr, ptr %arg, align 8
  %pw = getelementptr i64, ptr %arg, i64 1
  %w = load i64, ptr %pw, align 8
  {word("pgen", "pool", GEN)}
  {word("pquit", "pool", QUIT)}
  br label %wait
wait:
  %seen = phi i64 [0, %entry], [%g, %work]
  call void @await(ptr %pool, ptr %pgen, i64 %seen, i1 false, i64 {WORK})
  br label %look
look:
  %q = load atomic i64, ptr %pquit acquire, align 8
  %quit = icmp ne i64 %q, 0
  br i1 %quit, label %exit, label %work
work:
  %g = load atomic i64, ptr %pgen acquire, align 8
  call void @run_chunks(ptr %pool, i64 %w, i64 %g, i1 true)
  br label %wait
exit:
  ret ptr null
}}

; A launch, from the calling thread, whose words (`LAUNCH`) the caller has written: publish it,
; take chunks, close it, wait for its chunks; whether a chunk faulted.
define i64 @__gpuir_pool_run(ptr %pool) {{
entry:
  {word("pgen", "pool", GEN)}
  {word("pticket", "pool", TICKET)}
  {word("pcompleted", "pool", COMPLETED)}
  {word("pfailed", "pool", FAILED)}
  {word("pchunks", "pool", N_CHUNKS)}
  {word("pworkers", "pool", WORKERS)}
  {word("pcontexts", "pool", CONTEXTS)}
  %pmutex = getelementptr i8, ptr %pool, i64 {MUTEX}
  %pwork = getelementptr i8, ptr %pool, i64 {WORK}
  %workers = load i64, ptr %pworkers, align 8
  %contexts = load ptr, ptr %pcontexts, align 8
  br label %clear
clear:
  %i = phi i64 [0, %entry], [%i1, %clear]
  %pctx = getelementptr ptr, ptr %contexts, i64 %i
  %ctx = load ptr, ptr %pctx, align 8
  %presult = getelementptr i8, ptr %ctx, i64 {RESULT}
  store i64 0, ptr %presult, align 8
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %workers
  br i1 %more, label %clear, label %publish
publish:
  store atomic i64 0, ptr %pfailed monotonic, align 8
  store atomic i64 0, ptr %pcompleted monotonic, align 8
  %l = call i32 @pthread_mutex_lock(ptr %pmutex)
  %g0 = load atomic i64, ptr %pgen monotonic, align 8
  %g = add i64 %g0, 1
  %gen = and i64 %g, {CHUNK_MASK}
  %ticket = shl i64 %gen, 32
  store atomic i64 %ticket, ptr %pticket release, align 8
  store atomic i64 %g, ptr %pgen release, align 8
  %b = call i32 @pthread_cond_broadcast(ptr %pwork)
  %u = call i32 @pthread_mutex_unlock(ptr %pmutex)
  call void @run_chunks(ptr %pool, i64 0, i64 %g, i1 false)
  %closed = or i64 %ticket, {CHUNK_MASK}
  %old = atomicrmw xchg ptr %pticket, i64 %closed acq_rel
  %reached = and i64 %old, {CHUNK_MASK}
  %n_chunks = load i64, ptr %pchunks, align 8
  %fewer = icmp ult i64 %reached, %n_chunks
  %claimed = select i1 %fewer, i64 %reached, i64 %n_chunks
  call void @await(ptr %pool, ptr %pcompleted, i64 %claimed, i1 true, i64 {DONE})
  %failed = load atomic i64, ptr %pfailed acquire, align 8
  ret i64 %failed
}}

; Stop the helpers (they return from `__gpuir_pool_helper`).
define void @__gpuir_pool_stop(ptr %pool) {{
entry:
  {word("pquit", "pool", QUIT)}
  %pmutex = getelementptr i8, ptr %pool, i64 {MUTEX}
  %pwork = getelementptr i8, ptr %pool, i64 {WORK}
  %l = call i32 @pthread_mutex_lock(ptr %pmutex)
  store atomic i64 1, ptr %pquit release, align 8
  %b = call i32 @pthread_cond_broadcast(ptr %pwork)
  %u = call i32 @pthread_mutex_unlock(ptr %pmutex)
  ret void
}}
"""


PoolFunction = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
RunFunction = ctypes.CFUNCTYPE(ctypes.c_int64)
"""`__gpuir_pool_run`, called with the pool's words (a ctypes array passes as its address)."""


@dataclass
class Pool:
    """The native pool of `workers` threads (the calling thread and `workers - 1` helpers)."""

    engine: object
    workers: int
    words: ctypes.Array  # type: ignore[type-arg]
    contexts: list[faults.Context]
    run_code: ctypes._CFuncPtr  # type: ignore[name-defined]
    stop_code: ctypes._CFuncPtr  # type: ignore[name-defined]
    context_table: ctypes.Array  # type: ignore[type-arg]
    shared_table: ctypes.Array  # type: ignore[type-arg]
    helper_args: ctypes.Array  # type: ignore[type-arg]
    threads: list[int] = field(default_factory=list)
    shared: list[int] | None = None
    """The list of shared-memory buffers in the table."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """One launch at a time."""
    alive: bool = True

    def run(
        self,
        entry: int,
        n_groups: int,
        n_items: int,
        static: int,
        argv: int,
        n_chunks: int,
        shared: list[int],
        held: bool = False,
    ) -> list[tuple[int, faults.Fault]]:
        """Run the launch entry at `entry` over `n_groups` groups in `n_chunks` chunks (at most
        2^32 - 1); thread `w` uses the shared-memory buffer at `shared[w]` (static shared
        memory, then dynamic from `static` bytes on; a list that is not changed afterwards,
        the table is written again only for another list). The faults, by thread. `held`:
        the caller holds `lock` already."""
        with nullcontext() if held else self.lock:
            if shared is not self.shared:
                self.shared = shared
                for w, address in enumerate(shared):
                    self.shared_table[w] = address
            LAUNCH.pack_into(
                words := self.words, 8 * ENTRY, entry, n_groups, n_items, static, argv, n_chunks
            )
            if not self.run_code(words):
                return []
            return [
                (w, faults.fault_of(context.array))
                for w, context in enumerate(self.contexts)
                if context.array[RESULT // 8]
            ]

    def stop(self) -> None:
        """Stop the helpers and wait for them (at exit)."""
        if not self.alive:
            return
        self.alive = False
        self.stop_code(ctypes.addressof(self.words))
        libc = ctypes.CDLL(None)
        for thread in self.threads:
            libc.pthread_join(ctypes.c_ulong(thread), None)
        self.threads = []

    def forget(self) -> None:
        """In a child process after `fork`: the helpers are not there (and the mutex may be
        held), so the pool is not used."""
        self.alive = False
        self.threads = []
        self.lock = threading.Lock()


@cache
def pool(workers: int) -> Pool | None:
    """The process's pool of `workers` threads, made at the first call; None where it cannot
    be made (no POSIX threads, or fewer than 2 workers)."""
    if workers < 2:
        return None
    try:
        return _make(workers)
    except (OSError, AttributeError, RuntimeError, ImportError):
        return None


def _make(workers: int) -> Pool | None:
    from llvmlite import binding

    from gpuir.lowering.llvm.native import load_libraries, new_host_machine

    load_libraries()
    libc = ctypes.CDLL(None, use_errno=True)
    names = (
        "pthread_mutex_lock",
        "pthread_mutex_unlock",
        "pthread_cond_wait",
        "pthread_cond_broadcast",
        "clock_gettime",
    )
    for name in names:
        binding.add_symbol(name, ctypes.cast(getattr(libc, name), ctypes.c_void_p).value)
    module = binding.parse_assembly(ir_text())
    module.verify()
    engine = binding.create_mcjit_compiler(module, new_host_machine())
    engine.finalize_object()
    words = (ctypes.c_int64 * (POOL_BYTES // 8))()
    base = ctypes.addressof(words)
    if libc.pthread_mutex_init(ctypes.c_void_p(base + MUTEX), None) != 0:
        return None
    for offset in (WORK, DONE):
        if libc.pthread_cond_init(ctypes.c_void_p(base + offset), None) != 0:
            return None
    contexts = [faults.new_context() for _ in range(workers)]
    context_table = (ctypes.c_void_p * workers)(*(c.address for c in contexts))
    shared_table = (ctypes.c_void_p * workers)()
    guard = faults.install()
    words[CONTEXTS] = ctypes.addressof(context_table)
    words[SHARED] = ctypes.addressof(shared_table)
    words[WORKERS] = workers
    words[GUARDED] = 0 if guard is None else guard.address
    words[SPIN_NS] = int(SPIN_SECONDS * 1e9)
    helper_args = (ctypes.c_int64 * (2 * workers))()
    made = Pool(
        engine,
        workers,
        words,
        contexts,
        RunFunction(engine.get_function_address("__gpuir_pool_run")),
        PoolFunction(engine.get_function_address("__gpuir_pool_stop")),
        context_table,
        shared_table,
        helper_args,
    )
    helper = ctypes.c_void_p(engine.get_function_address("__gpuir_pool_helper"))
    for w in range(1, workers):
        helper_args[2 * w], helper_args[2 * w + 1] = base, w
        thread = ctypes.c_ulong()
        arg = ctypes.c_void_p(ctypes.addressof(helper_args) + 16 * w)
        if libc.pthread_create(ctypes.byref(thread), None, helper, arg) != 0:
            made.stop()
            return None
        made.threads.append(thread.value)
    atexit.register(made.stop)
    os.register_at_fork(after_in_child=made.forget)
    return made
