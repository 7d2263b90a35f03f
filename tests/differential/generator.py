"""Random well-formed gpuir programs for differential testing (`cpu` against `interp`).

`generate(seed)` returns the text of one program: a kernel `@k` and a `@main` that allocates two
host and two device arrays of `L` elements of one type `T` (i32, i64, index, f32 or f64),
initialises them on the host with a seeded formula, launches `@k` several times with different
grids (each launch reads one device array and writes the other, so no launch races with itself;
the roles swap between launches), copies both arrays back and returns all `2 * L` elements.

Host code is random too (`HostCode`, from its own seeded stream, so a seed's kernel and
launches do not depend on it): after some launches the host copies back the array the launch
wrote, rewrites each element with a random expression of it and its index (`scf.if` on the
index in half of them) and copies it to the device again; and most programs also return a
fold of both arrays, computed by a host loop that writes each step into a scratch array of
dynamic size (`mem.alloc` with an extent) and a second loop that folds the scratch in reverse.
Some kernels end with an early return in `cf` blocks after their barriers (`if (flat >= L)
return;` before the store, from a stream of their own): the cpu provider runs such a tail per
work-item. The barriers of the shared rounds (again from a stream of their own) are at the
kernel's top level, in a loop of `cf` blocks with a uniform trip count, in an `scf.if` on the
item id that every item takes, or after `if (group >= G) return;` (whole groups leave between
barriers): all but the first run in the cpu provider's resumable form. From a third stream,
some kernels shuffle values across their warps and take ballots (`gpu.shuffle` in a random
mode, offset and width; `gpu.ballot`), and some fold values into four cells with atomics, each
cell with one kind for the whole program (integers: add, max, min, umax, umin, and, or, xor;
floats: max, min), so that the cells' final values do not depend on the order of the items;
`@main` returns the cells too.

Under `cpu` this host code is compiled (`gpuir.runtime.compiled_host`), under `interp`
interpreted: the comparison checks one against the other.

The kernel's text comes from `kernel.py` (`generate_kernel`, whose `Kernel` writes random
expressions, loops, branches, shared, warp and atomic rounds), the host code's from `host.py`;
`planted.py` plants bugs in a program and `running.py` runs and compares programs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from differential.host import HostCode, host_init
from differential.kernel import (
    CELLS,
    FLOAT_ATOMICS,
    FLOAT_TYPES,
    INT_ATOMICS,
    INT_TYPES,
    Warps,
    array_ptr,
    constant_text,
    generate_kernel,
)

PLACEMENTS = ("top", "top", "cf-loop", "taken", "group-exit")


@dataclass(frozen=True)
class Shape:
    """What a generated program does, beyond its text (for the report and regression tests)."""

    type_: str
    length: int
    launches: tuple[tuple[int, int], ...]
    shared_rounds: int
    host_rounds: tuple[int, ...] = ()
    """The launches after which the host changes the array that launch wrote (a copy back, a
    host loop, a copy to the device again)."""
    host_epilogue: bool = False
    """`@main` also returns a fold of both arrays computed by host loops."""
    early_return: int | None = None
    """The kernel ends `if (flat >= early_return) return;` in cf blocks (after its barriers)."""
    placement: str = "top"
    """Where the shared rounds' barriers are: `top` (the kernel's entry block), `cf-loop` (a
    loop of cf blocks), `taken` (an `scf.if` on the item id that every item takes) or
    `group-exit` (after `if (group >= G) return;`)."""
    warp_rounds: int = 0
    """Shuffles and ballots at the kernel's top level (`Kernel.warp_round`)."""
    atomics: tuple[str, ...] = ()
    """Per cell of `%acc` the kind of the atomics that fold into it (`Kernel.atomic_round`)."""
    round_offsets: tuple[int, ...] = ()
    """Per shared round, the offset of the slot each item reads (`Kernel.shared_round`)."""


def generate(seed: int) -> str:
    """The text of program number `seed` (the same text for the same seed, everywhere)."""
    return generate_with_shape(seed)[0]


def generate_with_shape(seed: int, plant: str | None = None) -> tuple[str, Shape]:
    """Program `seed` and its shape; with `plant`, the same program with that bug in it (see
    `planted`)."""
    rng = random.Random(seed)
    type_ = rng.choice(INT_TYPES + FLOAT_TYPES)
    length = rng.choice((8, 16, 24, 32))
    shared_rounds = rng.choice((0, 0, 1, 2))
    launches = []
    for _ in range(rng.randint(1, 4)):
        n_items = rng.choice((1, 2, 3, 4, 5, 7, 8, 16, length))
        n_items = min(n_items, length)
        n_groups = rng.randint(1, length // n_items)
        launches.append((n_groups, n_items))
    control = random.Random(f"cf-{seed}")  # its own stream: the other draws stay as they were
    early_return = control.randint(1, length) if control.random() < 0.3 else None
    barriers = random.Random(f"barriers-{seed}")  # its own stream too
    placement = barriers.choice(PLACEMENTS) if shared_rounds else "top"
    warp_rng = random.Random(f"warps-{seed}")  # and another
    warps = None
    if warp_rng.random() < 0.35:
        atomics = FLOAT_ATOMICS if type_ in FLOAT_TYPES else INT_ATOMICS
        kinds = tuple(warp_rng.choice(atomics) for _ in range(CELLS))
        warps = Warps(warp_rng, warp_rng.randint(0, 2), kinds if warp_rng.random() < 0.6 else ())
    kernel, kernel_state = generate_kernel(
        rng, type_, length, shared_rounds, early_return, placement, warps, plant, tuple(launches)
    )
    cells = bool(warps and warps.kinds)
    host_rng = random.Random(f"host-{seed}")  # the kernel and launches are as they were
    host = HostCode(host_rng, type_, length)
    host_rounds = tuple(i for i in range(len(launches) - 1) if host_rng.random() < 0.4)
    epilogue = host_rng.random() < 0.6
    t = type_
    ptr0, ptr1 = array_ptr(t, length, 0), array_ptr(t, length, 1)
    n_results = 2 * length + epilogue + CELLS * cells
    main = [
        f"func.func @main(%m: !mem.M<0>) -> (!mem.M<0>{f', {t}' * n_results}) {{",
        "  %m0, %m1, %m4 = gpu.init %m",
        f"  %h0, %ha = mem.alloc %m0 : {ptr0}",
        f"  %h1, %hb = mem.alloc %h0 : {ptr0}",
    ]
    lines, token = host_init(rng, t, length, "%ha", "%h1", "ia")
    main += lines
    lines, token = host_init(rng, t, length, "%hb", token, "ib")
    main += lines
    main += [
        f"  %d1, %da = gpu.alloc.block %m1 : {ptr1}",
        f"  %e1, %db = gpu.alloc.block %d1 : {ptr1}",
        f"  %u0, %u1 = gpu.copy_to_device.block {token}, %e1, %ha -> %da : {ptr0} -> {ptr1}",
        f"  %w0, %w1 = gpu.copy_to_device.block %u0, %u1, %hb -> %db : {ptr0} -> {ptr1}",
        "  %stream = gpu.default_stream",
    ]
    tokens = ("%w0", "%w1", "%m4")
    acc_arg, acc_type = "", ""
    if cells:
        ptr0c, ptr1c = array_ptr(t, CELLS, 0), array_ptr(t, CELLS, 1)
        rng_cells = random.Random(f"cells-{seed}")
        main += [f"  %ac0, %hacc = mem.alloc %w0 : {ptr0c}"]
        token = "%ac0"
        for cell in range(CELLS):
            value = f"%accv{cell}"
            main += [
                f"  %acci{cell} = arith.constant {cell} : index",
                f"  {value} = arith.constant {constant_text(rng_cells, t)} : {t}",
            ]
            if t in FLOAT_TYPES:  # +0.0 for -0.0: max/min of the two zeros may give either
                main += [
                    f"  %accz{cell} = arith.constant 0.0 : {t}",
                    f"  %accw{cell} = arith.addf {value}, %accz{cell} : {t}",
                ]
                value = f"%accw{cell}"
            main += [
                f"  %accp{cell} = mem.lea %hacc, %acci{cell} : {ptr0c}",
                f"  %accs{cell} = mem.store {token}, %accp{cell}, {value} : !mem.ptr<{t}, 0>",
            ]
            token = f"%accs{cell}"
        main += [
            f"  %ad0, %ad1, %dacc = gpu.alloc_copy.block {token}, %w1, %hacc : {ptr0c} -> {ptr1c}"
        ]
        tokens = ("%ad0", "%ad1", "%m4")
        acc_arg, acc_type = ", %dacc", f", {ptr1c}"
    if plant == "freed":  # the first launch's input, freed before it runs
        main += [f"  %planted_free = gpu.free.block {tokens[1]}, %da : {ptr1}"]
        tokens = (tokens[0], "%planted_free", tokens[2])
    for i, (n_groups, n_items) in enumerate(launches):
        src, dst = ("%da", "%db") if i % 2 == 0 else ("%db", "%da")
        smem = f" smem(!mem.array<? x {t}>, %n{i})" if shared_rounds else ""
        main += [
            f"  %g{i} = arith.constant {n_groups} : index",
            f"  %n{i} = arith.constant {n_items} : index",
            f"  %s{i} = arith.constant {constant_text(rng, t)} : {t}",
            f"  %l{i}_0, %l{i}_1, %l{i}_4 = gpu.launch @k grid(%g{i}, %n{i}) stream(%stream)"
            f"{smem} mems({', '.join(tokens)})",
            f"      args(%n{i}, %s{i}, {src}, {dst}{acc_arg}) : (index, {t}, {ptr1}, {ptr1}{acc_type})",
        ]
        tokens = (f"%l{i}_0", f"%l{i}_1", f"%l{i}_4")
        if i in host_rounds:
            device, array = ("%db", "%hb") if i % 2 == 0 else ("%da", "%ha")
            main += [
                f"  %q{i}_0, %q{i}_1 = gpu.copy_to_host.block {tokens[0]}, {tokens[1]},"
                f" {device} -> {array} : {ptr1} -> {ptr0}"
            ]
            host.lines = []
            changed = host.host_round(array, f"%q{i}_0")
            main += host.lines
            main += [
                f"  %o{i}_0, %o{i}_1 = gpu.copy_to_device.block {changed}, %q{i}_1,"
                f" {array} -> {device} : {ptr0} -> {ptr1}"
            ]
            tokens = (f"%o{i}_0", f"%o{i}_1", tokens[2])
    main += [
        f"  %x0, %x1 = gpu.copy_to_host.block {tokens[0]}, {tokens[1]}, %da -> %ha"
        f" : {ptr1} -> {ptr0}",
        f"  %y0, %y1 = gpu.copy_to_host.block %x0, %x1, %db -> %hb : {ptr1} -> {ptr0}",
    ]
    token = "%y0"
    results = []
    device_token = "%y1"
    if cells:
        ptr0c, ptr1c = array_ptr(t, CELLS, 0), array_ptr(t, CELLS, 1)
        main += [
            f"  %ax0, %ax1 = gpu.copy_to_host.block {token}, %y1, %dacc -> %hacc"
            f" : {ptr1c} -> {ptr0c}"
        ]
        token, device_token = "%ax0", "%ax1"
        for cell in range(CELLS):
            main += [
                f"  %accr{cell}p = mem.lea %hacc, %acci{cell} : {ptr0c}",
                f"  %accr{cell}t, %accr{cell} = mem.load {token}, %accr{cell}p : !mem.ptr<{t}, 0>",
            ]
            token = f"%accr{cell}t"
            results.append(f"%accr{cell}")
    if epilogue:
        host.lines = []
        token, folded = host.host_epilogue("%ha", "%hb", token)
        main += host.lines
        results.append(folded)
    for name, host in (("a", "%ha"), ("b", "%hb")):
        for i in range(length):
            main += [
                f"  %r{name}{i}_i = arith.constant {i} : index",
                f"  %r{name}{i}_p = mem.lea {host}, %r{name}{i}_i : {ptr0}",
                f"  %r{name}{i}_t, %r{name}{i} = mem.load {token}, %r{name}{i}_p"
                f" : !mem.ptr<{t}, 0>",
            ]
            token = f"%r{name}{i}_t"
            results.append(f"%r{name}{i}")
    main += [
        f"  %f1 = gpu.free.block {device_token}, %da : {ptr1}",
        f"  %f2 = gpu.free.block %f1, %db : {ptr1}",
        f"  %f3 = mem.free {token}, %ha : {ptr0}",
        f"  %f4 = mem.free %f3, %hb : {ptr0}",
        f"  %done = gpu.deinit %f4, %f2, {tokens[2]}",
        f"  func.return %done, {', '.join(results)} : !mem.M<0>{f', {t}' * n_results}",
        "}",
    ]
    text = (
        f"// differential program, seed {seed}: {t}, {length} elements, launches {launches}, "
        f"{shared_rounds} shared-memory round(s), host rounds after launches {list(host_rounds)}, "
        f"{'a' if epilogue else 'no'} host fold, early return at {early_return}, "
        f"barriers at {placement}, {warps.shuffles if warps else 0} warp round(s), "
        f"atomics {list(warps.kinds) if warps else []}\n\n" + kernel + "\n" + "\n".join(main) + "\n"
    )
    shape = Shape(
        t,
        length,
        tuple(launches),
        shared_rounds,
        host_rounds,
        epilogue,
        early_return,
        placement,
        warps.shuffles if warps else 0,
        warps.kinds if warps else (),
        tuple(kernel_state.round_offsets),
    )
    return text, shape
