"""Faults of the cpu provider's kernels as errors, not a dead process.

A kernel's launch entry runs under `guarded(...)`, a small function of machine code made once
per process (LLVM IR below, through MCJIT): it records a per-thread fault context
(`pthread_setspecific`), sets a resume point there (`sigsetjmp`) and calls the entry. A
`SIGSEGV`, `SIGBUS` or `SIGFPE` (an integer division by zero) on a thread that is inside a
kernel goes to `__gpuir_fault_handler`, which stores the faulting address and `siglongjmp`s back:
`guarded` unblocks the signals (the resume point does not save the signal mask: no system call
per launch) and returns the signal number, the launch entry having stored in the context the
work-group it was running. A fault on any other thread, or outside a kernel, goes to the handler
that was there before (Python's `faulthandler`, or the default action) as if this one did not
exist.

`__gpuir_barrier_divergence(group, passed)`, which the resumable form of a kernel calls when
the work-items of a group stopped at different barriers (`gpuir.lowering.cpu.resume`), jumps back
the same way, with `DIVERGENCE` in place of a signal.

The cpu provider's device memory lives in its own arena with guard pages
(`gpuir.runtime.cpu.arena`), so the usual overrun faults before it touches anything but device
memory; a kernel that jumps out of the middle of its work leaves device memory as it was at the
fault, and the process, its heap and the provider as they were.

Linux only (the layouts of `siginfo_t` and `struct sigaction` are glibc's on x86-64 and
AArch64); elsewhere `install()` returns False and kernels run unguarded.
"""

from __future__ import annotations

import ctypes
import signal
import struct
import threading
from dataclasses import dataclass
from functools import cache

JMPBUF_BYTES = 1024
"""Room for a `sigjmp_buf` (200 bytes on x86-64 glibc, 312 on AArch64)."""
SIGNO = JMPBUF_BYTES
ADDRESS = JMPBUF_BYTES + 8
PROGRESS = JMPBUF_BYTES + 16
"""Offsets in a fault context: the signal, the faulting address, the work-group being run."""
CONTEXT_BYTES = JMPBUF_BYTES + 32
SIGNALS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE)
DIVERGENCE = 256
"""What a guarded call returns (in place of a signal) when a work-group's items stopped at
different barriers: `__gpuir_barrier_divergence(group, passed)` (the resumable form of
`gpuir.lowering.cpu.resume`) jumps back with it, the barriers passed in the address's place."""
DIVERGENCE_SYMBOL = "__gpuir_barrier_divergence"
SA_SIGINFO = 4
SIG_UNBLOCK = 1
SI_ADDR = 16
"""The offset of `si_addr` in a 64-bit `siginfo_t`."""


class Sigaction(ctypes.Structure):
    """glibc's `struct sigaction` (64-bit Linux)."""

    _fields_ = [  # noqa: RUF012  # ctypes' own protocol
        ("handler", ctypes.c_void_p),
        ("mask", ctypes.c_ulong * (1024 // (8 * ctypes.sizeof(ctypes.c_ulong)))),
        ("flags", ctypes.c_int),
        ("restorer", ctypes.c_void_p),
    ]


IR = f"""
@__gpuir_fault_key = global i32 0
@__gpuir_old_actions = global ptr null
@__gpuir_fault_set = global ptr null

declare i32 @pthread_setspecific(i32, ptr)
declare ptr @pthread_getspecific(i32)
declare i32 @__sigsetjmp(ptr, i32) #0
declare void @siglongjmp(ptr, i32) #1
declare i32 @sigaction(i32, ptr, ptr)
declare i32 @raise(i32)
declare i32 @pthread_sigmask(i32, ptr, ptr)
declare void @abort() #1

define i32 @__gpuir_guarded(ptr %entry, i64 %first, i64 %end, i64 %n, ptr %shared, ptr %smem,
                            ptr %args, ptr %ctx) {{
start:
  %key = load i32, ptr @__gpuir_fault_key
  %a = call i32 @pthread_setspecific(i32 %key, ptr %ctx)
  %r = call i32 @__sigsetjmp(ptr %ctx, i32 0) #0
  %ok = icmp eq i32 %r, 0
  br i1 %ok, label %run, label %faulted
run:
  %progress = getelementptr i8, ptr %ctx, i64 {PROGRESS}
  call void %entry(i64 %first, i64 %end, i64 %n, ptr %shared, ptr %smem, ptr %args,
                   ptr %progress)
  %b = call i32 @pthread_setspecific(i32 %key, ptr null)
  ret i32 0
faulted:
  %c = call i32 @pthread_setspecific(i32 %key, ptr null)
  %set = load ptr, ptr @__gpuir_fault_set
  %u = call i32 @pthread_sigmask(i32 {SIG_UNBLOCK}, ptr %set, ptr null)
  ret i32 %r
}}

; `__gpuir_guarded` with its arguments in a block of 8 words (`CALL_BLOCK`): one argument for
; ctypes to convert instead of eight (a launch from Python costs about 0.6 us less).
define i32 @__gpuir_guarded_block(ptr %b) {{
start:
  %entry = load ptr, ptr %b, align 8
  %p1 = getelementptr i64, ptr %b, i64 1
  %first = load i64, ptr %p1, align 8
  %p2 = getelementptr i64, ptr %b, i64 2
  %end = load i64, ptr %p2, align 8
  %p3 = getelementptr i64, ptr %b, i64 3
  %n = load i64, ptr %p3, align 8
  %p4 = getelementptr i64, ptr %b, i64 4
  %shared = load ptr, ptr %p4, align 8
  %p5 = getelementptr i64, ptr %b, i64 5
  %smem = load ptr, ptr %p5, align 8
  %p6 = getelementptr i64, ptr %b, i64 6
  %args = load ptr, ptr %p6, align 8
  %p7 = getelementptr i64, ptr %b, i64 7
  %ctx = load ptr, ptr %p7, align 8
  %r = call i32 @__gpuir_guarded(ptr %entry, i64 %first, i64 %end, i64 %n, ptr %shared,
                                 ptr %smem, ptr %args, ptr %ctx)
  ret i32 %r
}}

; Back to this thread's guarded call (`__gpuir_guarded`), which returns `%sig`, with `%address`
; in its context; returns where the thread runs none.
define internal void @__gpuir_jump(i64 %address, i32 %sig) {{
start:
  %key = load i32, ptr @__gpuir_fault_key
  %ctx = call ptr @pthread_getspecific(i32 %key)
  %none = icmp eq ptr %ctx, null
  br i1 %none, label %back, label %jump
jump:
  %slot = getelementptr i8, ptr %ctx, i64 {ADDRESS}
  store volatile i64 %address, ptr %slot
  %sigslot = getelementptr i8, ptr %ctx, i64 {SIGNO}
  %sig64 = sext i32 %sig to i64
  store volatile i64 %sig64, ptr %sigslot
  call void @siglongjmp(ptr %ctx, i32 %sig) #1
  unreachable
back:
  ret void
}}

define void @__gpuir_fault_handler(i32 %sig, ptr %info, ptr %uc) {{
start:
  %at = getelementptr i8, ptr %info, i64 {SI_ADDR}
  %address = load i64, ptr %at
  call void @__gpuir_jump(i64 %address, i32 %sig)
  %table = load ptr, ptr @__gpuir_old_actions
  %index = sext i32 %sig to i64
  %offset = mul i64 %index, {ctypes.sizeof(Sigaction)}
  %old = getelementptr i8, ptr %table, i64 %offset
  %d = call i32 @sigaction(i32 %sig, ptr %old, ptr null)
  %e = call i32 @raise(i32 %sig)
  ret void
}}

define void @{DIVERGENCE_SYMBOL}(i64 %group, i64 %passed) #1 {{
start:
  call void @__gpuir_jump(i64 %passed, i32 {DIVERGENCE})
  call void @abort() #1
  unreachable
}}

attributes #0 = {{ returns_twice }}
attributes #1 = {{ noreturn }}
"""

CALL_BLOCK = struct.Struct("<8Q")
"""`__gpuir_guarded_block`'s block: the entry, first and end group, items per group, shared
memory, dynamic shared memory, argument slots and fault context, as `__gpuir_guarded` takes
them."""
BlockFunction = ctypes.CFUNCTYPE(ctypes.c_int32)
"""`__gpuir_guarded_block`, called with the block (a ctypes array passes as its address; no
`argtypes`, which ctypes would check and convert at each call)."""


@dataclass
class Guard:
    """The machine code (kept alive with its engine) and the saved handlers."""

    engine: object
    address: int
    """The address of `__gpuir_guarded(entry, first, end, n_items, shared, smem, args, ctx)`
    (what native code calls: the pool's threads)."""
    old_actions: ctypes.Array  # type: ignore[type-arg]
    fault_set: ctypes.Array  # type: ignore[type-arg]
    call_block: ctypes._CFuncPtr  # type: ignore[name-defined]
    """`__gpuir_guarded_block`: `__gpuir_guarded` with its arguments in a block (`CALL_BLOCK`),
    what Python calls."""


@dataclass
class Fault:
    """What a guarded call that faulted left in its context."""

    signal: int
    """The signal, or `DIVERGENCE`."""
    address: int
    """The faulting address; for `DIVERGENCE`, the barriers the group had passed."""
    group: int
    stops: tuple[int, ...] = ()
    """For `DIVERGENCE`: where each work-item of the group stopped (the runtime reads them)."""


@cache
def install() -> Guard | None:
    """Compile the guard, install the handler for `SIGNALS` (once per process); None where
    it cannot be."""
    try:
        from llvmlite import binding

        from gpuir.lowering.llvm.native import load_libraries, new_host_machine

        load_libraries()
        libc = ctypes.CDLL(None, use_errno=True)
        for name in (
            "pthread_setspecific",
            "pthread_getspecific",
            "__sigsetjmp",
            "siglongjmp",
            "sigaction",
            "raise",
            "pthread_sigmask",
            "abort",
        ):
            binding.add_symbol(name, ctypes.cast(getattr(libc, name), ctypes.c_void_p).value)
        module = binding.parse_assembly(IR)
        module.verify()
        engine = binding.create_mcjit_compiler(module, new_host_machine())
        engine.finalize_object()
        key = ctypes.c_uint32()
        if libc.pthread_key_create(ctypes.byref(key), None) != 0:
            return None
        ctypes.c_uint32.from_address(
            engine.get_global_value_address("__gpuir_fault_key")
        ).value = key.value
        old_actions = (Sigaction * 65)()
        table = engine.get_global_value_address("__gpuir_old_actions")
        ctypes.c_void_p.from_address(table).value = ctypes.addressof(old_actions)
        fault_set = Sigaction().mask.__class__()  # a sigset_t: the signals, unblocked after a fault
        for number in SIGNALS:
            fault_set[(number - 1) // 64] |= 1 << ((number - 1) % 64)
        address = engine.get_global_value_address("__gpuir_fault_set")
        ctypes.c_void_p.from_address(address).value = ctypes.addressof(fault_set)
        action = Sigaction()
        action.handler = engine.get_function_address("__gpuir_fault_handler")
        action.flags = SA_SIGINFO
        for number in SIGNALS:
            if libc.sigaction(int(number), ctypes.byref(action), ctypes.byref(old_actions[number])):
                return None
        address = engine.get_function_address("__gpuir_guarded")
        call_block = BlockFunction(engine.get_function_address("__gpuir_guarded_block"))
        binding.add_symbol(DIVERGENCE_SYMBOL, engine.get_function_address(DIVERGENCE_SYMBOL))
    except (OSError, AttributeError, RuntimeError, ImportError):
        return None
    return Guard(engine, address, old_actions, fault_set, call_block)


def link() -> None:
    """Make the symbols that device code calls known to LLVM: the guard's, else (where there
    is no guard) `abort` in their place."""
    if install() is not None:
        return
    from llvmlite import binding

    libc = ctypes.CDLL(None)
    binding.add_symbol(DIVERGENCE_SYMBOL, ctypes.cast(libc.abort, ctypes.c_void_p).value)


_local = threading.local()


@dataclass
class Context:
    """A thread's fault context: its words, and their address."""

    array: ctypes.Array  # type: ignore[type-arg]
    address: int


def new_context() -> Context:
    """A fault context of its own (a native thread's: `gpuir.runtime.cpu.pool`)."""
    array = (ctypes.c_uint64 * (CONTEXT_BYTES // 8))()
    return Context(array, ctypes.addressof(array))


def context() -> Context:
    """This thread's fault context."""
    found = getattr(_local, "context", None)
    if found is None:
        found = _local.context = new_context()
    return found


def run_guarded(
    guard: Guard, entry: int, first: int, end: int, n_items: int, shared: int, smem: int, argv: int
) -> Fault | None:
    """Call the launch entry at `entry` under the guard; the fault, if it faulted."""
    ctx = context()
    block = (ctypes.c_uint64 * 8)()
    CALL_BLOCK.pack_into(block, 0, entry, first, end, n_items, shared, smem, argv, ctx.address)
    if guard.call_block(block) == 0:
        return None
    return fault_of(ctx.array)


def fault_of(ctx: ctypes.Array) -> Fault:  # type: ignore[type-arg]
    """The fault a guarded call left in `ctx`."""
    return Fault(ctx[SIGNO // 8], ctx[ADDRESS // 8], ctx[PROGRESS // 8])
