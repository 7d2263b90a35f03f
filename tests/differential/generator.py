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

The kernel computes random arithmetic over its own element, a neighbour's, its ids and a scalar
argument: `scf.for` loops over the input, `scf.if` on the item id, and, when the program uses
shared memory, rounds of "store my value in my slot, sync, read another item's slot, sync".
Every program is defined by construction: shift amounts are masked below the width, divisors are
made positive and non-zero (`(b >> 1) | 1`), integer add/sub/mul wrap around, floats use only
add/sub/mul/div/min/max/neg/compare+select (no transcendental functions, no contraction), and
float-to-int conversions are not generated. `maxnumf`/`minnumf` may return either zero of
-0.0 and +0.0, so their result has +0.0 added (which makes any zero +0.0).

`planted(seed, bug)` is program `seed` with one bug planted (`PLANTS`: a read one past the end of
an array, a missing barrier, a buffer freed before the launch that reads it) and the error that
must end its run, at the first faulty access; `find_planted` runs it (`python -m differential
--planted`).

`run(text, provider)` runs a program's `@main` and returns its results; `same(a, b)` compares
two result tuples exactly (integers by value, floats bit for bit, any NaN equal to any NaN:
LLVM does not define which NaN an operation returns).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field

import numpy as np

PLACEMENTS = ("top", "top", "cf-loop", "taken", "group-exit")
INT_TYPES = ("i32", "i64", "index")
FLOAT_TYPES = ("f32", "f64")
WIDTH = {"i32": 32, "i64": 64, "index": 64}

INT_BINARY = (
    "addi",
    "subi",
    "muli",
    "andi",
    "ori",
    "xori",
    "maxsi",
    "minsi",
    "maxui",
    "minui",
)
INT_SHIFTS = ("shli", "shrui", "shrsi")
INT_DIVS = ("divui", "remui", "divsi", "remsi", "ceildivsi", "floordivsi", "ceildivui")
INT_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
FLOAT_BINARY = (
    "addf",
    "subf",
    "mulf",
    "divf",
    "minimumf",
    "maximumf",
    "minnumf",
    "maxnumf",
)
FLOAT_PREDICATES = (
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
)


@dataclass
class Kernel:
    """The state of one kernel body being written: its lines, fresh names and the tokens."""

    rng: random.Random
    type_: str
    length: int
    lines: list[str] = field(default_factory=list)
    tails: list[str] = field(default_factory=list)
    """Blocks that go after the kernel's last block (early returns)."""
    counter: int = 0
    m1: str = "%m1"
    m3: str = "%m3"
    round_offsets: list[int] = field(default_factory=list)
    """The offset of each shared round (item i reads the slot of item (i + offset) % n)."""
    unsynced: bool = False
    """Plant a bug: the next shared round has no barrier between its store and its load."""

    @property
    def is_float(self) -> bool:
        return self.type_ in FLOAT_TYPES

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("  " * indent + line)

    def constant(self, indent: int, type_: str | None = None) -> str:
        type_ = type_ or self.type_
        name = self.fresh("c")
        self.emit(indent, f"{name} = arith.constant {constant_text(self.rng, type_)} : {type_}")
        return name

    def index_constant(self, indent: int, value: int) -> str:
        name = self.fresh("i")
        self.emit(indent, f"{name} = arith.constant {value} : index")
        return name

    def from_index(self, indent: int, value: str) -> str:
        """`value` (an index) as a `T`."""
        if self.type_ == "index":
            return value
        name = self.fresh()
        if self.is_float:
            wide = self.fresh()
            self.emit(indent, f"{wide} = arith.index_cast {value} : index to i64")
            conversion = self.rng.choice(("sitofp", "uitofp"))
            self.emit(indent, f"{name} = arith.{conversion} {wide} : i64 to {self.type_}")
        else:
            self.emit(indent, f"{name} = arith.index_cast {value} : index to {self.type_}")
        return name

    def load(
        self, indent: int, array: str, index: str, token: str, space: int = 1
    ) -> tuple[str, str]:
        """Load `array[index]` (global, or `space`) after `token`; returns the new token and
        the value."""
        ptr, tok, value = self.fresh("p"), self.fresh("t"), self.fresh()
        pointer = array_ptr(self.type_, self.length, space)
        self.emit(indent, f"{ptr} = mem.lea {array}, {index} : {pointer}")
        self.emit(
            indent, f"{tok}, {value} = mem.load {token}, {ptr} : !mem.ptr<{self.type_}, {space}>"
        )
        return tok, value

    def wrapped(self, indent: int, index: str, modulus: str) -> str:
        name = self.fresh("i")
        self.emit(indent, f"{name} = arith.remui {index}, {modulus} : index")
        return name

    # --- expressions --------------------------------------------------------------------------

    def operation(self, indent: int, pool: list[str]) -> str:
        """One random operation on values of `pool`; its result."""
        a, b = self.rng.choice(pool), self.rng.choice(pool)
        if self.rng.random() < 0.15:
            b = self.constant(indent)
        t = self.type_
        name = self.fresh()
        roll = self.rng.random()
        if roll < 0.15:
            predicates = FLOAT_PREDICATES if self.is_float else INT_PREDICATES
            cond = self.fresh("b")
            compare = "cmpf" if self.is_float else "cmpi"
            self.emit(
                indent, f"{cond} = arith.{compare} {self.rng.choice(predicates)}, {a}, {b} : {t}"
            )
            c = self.rng.choice(pool)
            self.emit(indent, f"{name} = arith.select {cond}, {b}, {c} : {t}")
            return name
        if self.is_float:
            if roll < 0.2:
                self.emit(indent, f"{name} = arith.negf {a} : {t}")
                return name
            op = self.rng.choice(FLOAT_BINARY)
            if op not in ("maxnumf", "minnumf"):
                self.emit(indent, f"{name} = arith.{op} {a}, {b} : {t}")
                return name
            # maxnumf/minnumf of -0.0 and +0.0 may be either (MLIR's arith, LLVM's maxnum):
            # adding +0.0 makes the zero +0.0 and leaves every other value as it is.
            either, zero = self.fresh(), self.fresh("c")
            self.emit(indent, f"{either} = arith.{op} {a}, {b} : {t}")
            self.emit(indent, f"{zero} = arith.constant 0.0 : {t}")
            self.emit(indent, f"{name} = arith.addf {either}, {zero} : {t}")
            return name
        if roll < 0.3:
            mask = self.fresh("c")
            amount = self.fresh()
            self.emit(indent, f"{mask} = arith.constant {WIDTH[t] - 1} : {t}")
            self.emit(indent, f"{amount} = arith.andi {b}, {mask} : {t}")
            self.emit(indent, f"{name} = arith.{self.rng.choice(INT_SHIFTS)} {a}, {amount} : {t}")
            return name
        if roll < 0.45:
            one, half, divisor = self.fresh("c"), self.fresh(), self.fresh()
            self.emit(indent, f"{one} = arith.constant 1 : {t}")
            self.emit(indent, f"{half} = arith.shrui {b}, {one} : {t}")
            self.emit(indent, f"{divisor} = arith.ori {half}, {one} : {t}")
            self.emit(indent, f"{name} = arith.{self.rng.choice(INT_DIVS)} {a}, {divisor} : {t}")
            return name
        self.emit(indent, f"{name} = arith.{self.rng.choice(INT_BINARY)} {a}, {b} : {t}")
        return name

    def expression(self, indent: int, pool: list[str], size: int) -> str:
        pool = list(pool)
        for _ in range(size):
            pool.append(self.operation(indent, pool))
        return pool[-1]

    def branch(self, indent: int, pool: list[str], item: str) -> str:
        """`scf.if` on the item id: each side a random expression."""
        bound = self.index_constant(indent, self.rng.randint(0, 8))
        cond, name = self.fresh("b"), self.fresh()
        predicate = self.rng.choice(("ult", "uge", "eq", "ne"))
        self.emit(indent, f"{cond} = arith.cmpi {predicate}, {item}, {bound} : index")
        self.emit(indent, f"{name} = scf.if {cond} -> ({self.type_}) {{")
        then = self.expression(indent + 1, pool, self.rng.randint(1, 4))
        self.emit(indent + 1, f"scf.yield {then} : {self.type_}")
        self.emit(indent, "} else {")
        other = self.expression(indent + 1, pool, self.rng.randint(0, 3))
        self.emit(indent + 1, f"scf.yield {other} : {self.type_}")
        self.emit(indent, "}")
        return name

    def loop(self, indent: int, pool: list[str], flat: str, source: str) -> str:
        """`scf.for` over a few input elements, folding them into an accumulator."""
        zero = self.index_constant(indent, 0)
        trips = self.index_constant(indent, self.rng.randint(1, 6))
        step = self.index_constant(indent, self.rng.choice((1, 1, 2)))
        length = self.index_constant(indent, self.length)
        j, token, acc = self.fresh("j"), self.fresh("t"), self.fresh("acc")
        out_token, name = self.fresh("t"), self.fresh()
        init = self.rng.choice(pool)
        self.emit(
            indent,
            f"{out_token}, {name} = scf.for {j} = {zero} to {trips} step {step} "
            f"iter_args({token} = {self.m1}, {acc} = {init}) -> (!mem.M<1>, {self.type_}) {{",
        )
        at = self.fresh("i")
        self.emit(indent + 1, f"{at} = arith.addi {flat}, {j} : index")
        index = self.wrapped(indent + 1, at, length)
        next_token, value = self.load(indent + 1, source, index, token)
        result = self.expression(indent + 1, [*pool, acc, value], self.rng.randint(1, 3))
        self.emit(indent + 1, f"scf.yield {next_token}, {result} : !mem.M<1>, {self.type_}")
        self.emit(indent, "}")
        self.m1 = out_token
        return name

    def shared_round(self, indent: int, pool: list[str], item: str, n_items: str) -> str:
        """Store a value in my shared slot, sync, read another item's slot, sync."""
        value = self.rng.choice(pool)
        smem_ptr = f"!mem.ptr<!mem.array<? x {self.type_}>, 3>"
        mine, stored = self.fresh("p"), self.fresh("t")
        self.emit(indent, f"{mine} = mem.lea %smem, {item} : {smem_ptr}")
        self.emit(
            indent, f"{stored} = mem.store {self.m3}, {mine}, {value} : !mem.ptr<{self.type_}, 3>"
        )
        s1, s3 = self.fresh("t"), self.fresh("t")
        if self.unsynced:  # the planted bug: nothing orders the store and the other's load
            self.unsynced = False
            self.emit(indent, f"{s1} = mem.remem {self.m1} : !mem.M<1>")
            self.emit(indent, f"{s3} = mem.remem {stored} : !mem.M<3>")
        else:
            self.emit(indent, f"{s1}, {s3} = gpu.sync_work_items {self.m1}, {stored}")
        self.round_offsets.append(self.rng.randint(0, 40))
        offset = self.index_constant(indent, self.round_offsets[-1])
        at = self.fresh("i")
        self.emit(indent, f"{at} = arith.addi {item}, {offset} : index")
        other = self.wrapped(indent, at, n_items)
        theirs, loaded, read = self.fresh("p"), self.fresh("t"), self.fresh()
        self.emit(indent, f"{theirs} = mem.lea %smem, {other} : {smem_ptr}")
        self.emit(indent, f"{loaded}, {read} = mem.load {s3}, {theirs} : !mem.ptr<{self.type_}, 3>")
        e1, e3 = self.fresh("t"), self.fresh("t")
        self.emit(indent, f"{e1}, {e3} = gpu.sync_work_items {s1}, {loaded}")
        self.m1, self.m3 = e1, e3
        return read

    def round_loop(self, pool: list[str], number: int) -> str:
        """Shared rounds in a loop of `cf` blocks with a uniform trip count, which carries a
        per-item value (the barriers are in a block other than the entry)."""
        t = self.type_
        zero, one = self.index_constant(1, 0), self.index_constant(1, 1)
        trips = self.index_constant(1, self.rng.randint(1, 3))
        init = self.rng.choice(pool)
        k, acc, h1, h3 = (f"%rk{number}", f"%racc{number}", f"%rh1_{number}", f"%rh3_{number}")
        head, body, done = f"^rhead{number}", f"^rbody{number}", f"^rexit{number}"
        self.emit(
            1,
            f"cf.br {head}({zero}, {init}, {self.m1}, {self.m3} : index, {t}, "
            "!mem.M<1>, !mem.M<3>)",
        )
        self.lines.append(f"{head}({k}: index, {acc}: {t}, {h1}: !mem.M<1>, {h3}: !mem.M<3>):")
        more = self.fresh("b")
        self.emit(1, f"{more} = arith.cmpi ult, {k}, {trips} : index")
        self.emit(1, f"cf.cond_br {more}, {body}, {done}")
        self.lines.append(f"{body}:")
        self.m1, self.m3 = h1, h3
        read = self.shared_round(1, [acc], "%item", "%n_items")
        following = self.expression(1, [*pool, acc, read], self.rng.randint(1, 3))
        k2 = self.fresh("i")
        self.emit(1, f"{k2} = arith.addi {k}, {one} : index")
        self.emit(
            1,
            f"cf.br {head}({k2}, {following}, {self.m1}, {self.m3} : index, {t}, "
            "!mem.M<1>, !mem.M<3>)",
        )
        self.lines.append(f"{done}:")
        self.m1, self.m3 = h1, h3
        return acc

    def taken_round(self, pool: list[str]) -> str:
        """A shared round in `scf.if` on the item id that every item takes (`item < n_items`;
        the compiler cannot tell)."""
        t = self.type_
        taken, r1, r3, name = self.fresh("b"), self.fresh("t"), self.fresh("t"), self.fresh()
        self.emit(1, f"{taken} = arith.cmpi ult, %item, %n_items : index")
        self.emit(1, f"{r1}, {r3}, {name} = scf.if {taken} -> (!mem.M<1>, !mem.M<3>, {t}) {{")
        m1, m3 = self.m1, self.m3
        read = self.shared_round(2, pool, "%item", "%n_items")
        self.emit(2, f"scf.yield {self.m1}, {self.m3}, {read} : !mem.M<1>, !mem.M<3>, {t}")
        self.emit(1, "} else {")
        other = self.rng.choice(pool)
        self.emit(2, f"scf.yield {m1}, {m3}, {other} : !mem.M<1>, !mem.M<3>, {t}")
        self.emit(1, "}")
        self.m1, self.m3 = r1, r3
        return name

    def group_exit(self, number: int, groups: int) -> None:
        """`if (group >= groups) return;` (whole work-groups leave between barriers)."""
        limit, leave = self.index_constant(1, groups), self.fresh("b")
        self.emit(1, f"{leave} = arith.cmpi uge, %group, {limit} : index")
        self.emit(1, f"cf.cond_br {leave}, ^gexit{number}, ^gstay{number}")
        tokens = "!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
        self.tails.append(
            f"^gexit{number}:\n  func.return {self.m1}, {self.m3}, %m4, %m5 : {tokens}\n"
        )
        self.lines.append(f"^gstay{number}:")

    def warp_round(self, indent: int, pool: list[str]) -> str:
        """A shuffle of a value of `pool` across the warp (a random mode, offset and width;
        where the source is not valid, the lane's own value) and a ballot of a comparison,
        made a `T`; one of them joins the pool."""
        t = self.type_
        value = self.rng.choice(pool)
        mode = self.rng.choice(("xor", "up", "down", "idx"))
        offset, width = self.fresh("c"), self.fresh("c")
        self.emit(indent, f"{offset} = arith.constant {self.rng.randint(0, 34)} : i32")
        choices = (1, 2, 3, 4, 5, 8, 16, 32, 32)
        self.emit(indent, f"{width} = arith.constant {self.rng.choice(choices)} : i32")
        s1, s3, read, ok = self.fresh("t"), self.fresh("t"), self.fresh(), self.fresh("b")
        self.emit(
            indent,
            f'{s1}, {s3}, {read}, {ok} = gpu.shuffle "{mode}" {self.m1}, {self.m3}, {value}, '
            f"{offset}, {width} : {t}",
        )
        shuffled = self.fresh()
        self.emit(indent, f"{shuffled} = arith.select {ok}, {read}, {value} : {t}")
        other, bound = self.rng.choice(pool), self.constant(indent)
        cond = self.fresh("b")
        if self.is_float:
            self.emit(indent, f"{cond} = arith.cmpf olt, {other}, {bound} : {t}")
        else:
            self.emit(indent, f"{cond} = arith.cmpi slt, {other}, {bound} : {t}")
        b1, b3, mask = self.fresh("t"), self.fresh("t"), self.fresh()
        self.emit(indent, f"{b1}, {b3}, {mask} = gpu.ballot {s1}, {s3}, {cond}")
        self.m1, self.m3 = b1, b3
        voted = self.fresh()
        if self.is_float:
            self.emit(indent, f"{voted} = arith.sitofp {mask} : i32 to {t}")
        elif t == "i32":
            voted = mask
        elif t == "i64":
            self.emit(indent, f"{voted} = arith.extui {mask} : i32 to i64")
        else:
            wide = self.fresh()
            self.emit(indent, f"{wide} = arith.extui {mask} : i32 to i64")
            self.emit(indent, f"{voted} = arith.index_cast {wide} : i64 to index")
        pool.append(voted)
        return shuffled if self.rng.random() < 0.5 else voted

    def atomic_round(self, indent: int, pool: list[str], cell: int, kind: str) -> None:
        """Fold a value of `pool` into `%acc[cell]` with an atomic of the cell's `kind` (the
        same for every item and launch, so the result does not depend on their order; the old
        value, which does, is not used; float max/min take the value plus +0.0)."""
        t = self.type_
        value = self.rng.choice(pool)
        if self.is_float:
            zero, plus = self.fresh("c"), self.fresh()
            self.emit(indent, f"{zero} = arith.constant 0.0 : {t}")
            self.emit(indent, f"{plus} = arith.addf {value}, {zero} : {t}")
            value = plus
        at, place = self.index_constant(indent, cell), self.fresh("p")
        self.emit(indent, f"{place} = mem.lea %acc, {at} : {array_ptr(t, CELLS)}")
        token, old = self.fresh("t"), self.fresh()
        self.emit(
            indent,
            f'{token}, {old} = mem.atomic_rmw "{kind}" {self.m1}, {place}, {value} '
            f": !mem.ptr<{t}, 1>",
        )
        self.m1 = token


CELLS = 4
"""The cells of `%acc` that the atomics fold into."""
INT_ATOMICS = ("add", "max", "min", "umax", "umin", "and", "or", "xor")
FLOAT_ATOMICS = ("max", "min")


@dataclass
class Warps:
    """The warp operations and atomics of a kernel, from a stream of their own."""

    rng: random.Random
    shuffles: int
    kinds: tuple[str, ...]
    """Per cell of `%acc` its atomic's kind (none: no atomics)."""


@dataclass
class HostCode(Kernel):
    """Random host code of `@main` (`host_round`, `host_epilogue`): the kernel's expressions,
    with names of their own (`%h…`) and host memory (space 0)."""

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%h{stem}{self.counter}"

    def host_store(self, indent: int, array: str, index: str, token: str, value: str) -> str:
        ptr, tok = self.fresh("p"), self.fresh("t")
        self.emit(
            indent, f"{ptr} = mem.lea {array}, {index} : {array_ptr(self.type_, self.length, 0)}"
        )
        self.emit(indent, f"{tok} = mem.store {token}, {ptr}, {value} : !mem.ptr<{self.type_}, 0>")
        return tok

    def body(self, indent: int, pool: list[str], k: str) -> str:
        """A random expression of `pool`, sometimes in an `scf.if` on `k` (an index)."""
        if self.rng.random() < 0.5:
            return self.branch(indent, pool, k)
        return self.expression(indent, pool, self.rng.randint(1, 4))

    def host_round(self, array: str, token: str) -> str:
        """`array[k] = f(array[k], k)` for every k, a host loop; returns the token after it."""
        zero, length, one = (self.index_constant(1, v) for v in (0, self.length, 1))
        k, t, done = self.fresh("k"), self.fresh("t"), self.fresh("t")
        self.emit(
            1,
            f"{done} = scf.for {k} = {zero} to {length} step {one} "
            f"iter_args({t} = {token}) -> (!mem.M<0>) {{",
        )
        t1, value = self.load(2, array, k, t, space=0)
        result = self.body(2, [value, self.from_index(2, k), self.constant(2)], k)
        t2 = self.host_store(2, array, k, t1, result)
        self.emit(2, f"scf.yield {t2} : !mem.M<0>")
        self.emit(1, "}")
        return done

    def host_epilogue(self, a: str, b: str, token: str) -> tuple[str, str]:
        """Fold both arrays into one value through a scratch array of dynamic size: the first
        loop writes `f(acc, a[k], b[k], k)` into it, the second folds it in reverse. Returns
        the token after freeing the scratch and the value."""
        t = self.type_
        zero, length, one = (self.index_constant(1, v) for v in (0, self.length, 1))
        scratch_type = f"!mem.ptr<!mem.array<? x {t}>, 0>"
        t0, scratch = self.fresh("t"), self.fresh("q")
        self.emit(1, f"{t0}, {scratch} = mem.alloc {token}, {length} : {scratch_type}")
        init = self.constant(1)
        k, tk, acc, t1, folded = (self.fresh(s) for s in ("k", "t", "acc", "t", "v"))
        self.emit(
            1,
            f"{t1}, {folded} = scf.for {k} = {zero} to {length} step {one} "
            f"iter_args({tk} = {t0}, {acc} = {init}) -> (!mem.M<0>, {t}) {{",
        )
        ta, x = self.load(2, a, k, tk, space=0)
        tb, y = self.load(2, b, k, ta, space=0)
        value = self.body(2, [acc, x, y, self.from_index(2, k)], k)
        p, ts = self.fresh("p"), self.fresh("t")
        self.emit(2, f"{p} = mem.lea {scratch}, {k} : {scratch_type}")
        self.emit(2, f"{ts} = mem.store {tb}, {p}, {value} : !mem.ptr<{t}, 0>")
        self.emit(2, f"scf.yield {ts}, {value} : !mem.M<0>, {t}")
        self.emit(1, "}")
        j, tj, acc2, t2, result = (self.fresh(s) for s in ("k", "t", "acc", "t", "v"))
        self.emit(
            1,
            f"{t2}, {result} = scf.for {j} = {zero} to {length} step {one} "
            f"iter_args({tj} = {t1}, {acc2} = {folded}) -> (!mem.M<0>, {t}) {{",
        )
        last = self.index_constant(2, self.length - 1)
        back = self.fresh("i")
        self.emit(2, f"{back} = arith.subi {last}, {j} : index")
        q, tq, z = self.fresh("p"), self.fresh("t"), self.fresh()
        self.emit(2, f"{q} = mem.lea {scratch}, {back} : {scratch_type}")
        self.emit(2, f"{tq}, {z} = mem.load {tj}, {q} : !mem.ptr<{t}, 0>")
        step = self.expression(2, [acc2, z], self.rng.randint(1, 3))
        self.emit(2, f"scf.yield {tq}, {step} : !mem.M<0>, {t}")
        self.emit(1, "}")
        freed = self.fresh("t")
        self.emit(1, f"{freed} = mem.free {t2}, {scratch} : {scratch_type}")
        return freed, result


def constant_text(rng: random.Random, type_: str) -> str:
    if type_ in FLOAT_TYPES:
        return rng.choice(
            (
                f"{rng.randint(-64, 64) / 8}",
                f"{rng.randint(-1000, 1000) / 7:.6e}",
                "0.1",
                "-0.0",
                "0.0",
                "1.0e+30",
                "3.0e-39" if type_ == "f32" else "1.0e-310",
                "65504.0",
            )
        )
    width = WIDTH[type_]
    return str(
        rng.choice(
            (
                rng.randint(-8, 8),
                rng.randint(-1000, 1000),
                rng.randint(-(1 << (width - 1)), (1 << (width - 1)) - 1),
                -(1 << (width - 1)),
                (1 << (width - 1)) - 1,
                -1,
            )
        )
    )


def array_ptr(type_: str, length: int, space: int = 1) -> str:
    return f"!mem.ptr<!mem.array<{length} x {type_}>, {space}>"


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


def generate_kernel(
    rng: random.Random,
    type_: str,
    length: int,
    shared_rounds: int,
    early_return: int | None = None,
    placement: str = "top",
    warps: Warps | None = None,
    plant: str | None = None,
    launches: tuple[tuple[int, int], ...] = (),
) -> tuple[str, Kernel]:
    """The kernel's text (and its state); `plant` (`PLANTS`) puts a bug in it, knowing the
    `launches`."""
    k = Kernel(rng, type_, length)
    k.unsynced = plant == "missing-barrier"
    t = type_
    flat_lines = [
        "%base = arith.muli %group, %n_items : index",
        "%flat = arith.addi %base, %item : index",
    ]
    for line in flat_lines:
        k.emit(1, line)
    k.m1, x = k.load(1, "%src", "%flat", "%m1")
    near_value = rng.randint(1, length - 1)
    if plant == "past-end":  # the last item of the first launch reads src[length]
        groups, items = launches[0]
        near_value = length - (groups * items - 1)
    near = k.index_constant(1, near_value)
    at = k.fresh("i")
    k.emit(1, f"{at} = arith.addi %flat, {near} : index")
    length_c = k.index_constant(1, length)
    wrapped = k.wrapped(1, at, length_c)
    k.m1, y = k.load(1, "%src", at if plant == "past-end" else wrapped, k.m1)  # planted: unwrapped
    pool = [x, y, "%s", k.from_index(1, "%item"), k.from_index(1, "%group"), k.constant(1)]
    if rng.random() < 0.5:
        pool.append(k.from_index(1, "%n_items"))
    for _ in range(rng.randint(2, 6)):
        roll = rng.random()
        if roll < 0.2:
            pool.append(k.branch(1, pool, "%item"))
        elif roll < 0.35:
            pool.append(k.loop(1, pool, "%flat", "%src"))
        else:
            pool.append(k.expression(1, pool, rng.randint(1, 4)))
    for number in range(shared_rounds):
        if placement == "top":
            pool.append(k.shared_round(1, pool, "%item", "%n_items"))
            pool.append(k.expression(1, pool, rng.randint(1, 3)))
        elif placement == "cf-loop":
            pool.append(k.round_loop(pool, number))
        elif placement == "taken":
            pool.append(k.taken_round(pool))
        else:
            assert placement == "group-exit"
            k.group_exit(number, rng.randint(0, 3))
            pool.append(k.shared_round(1, pool, "%item", "%n_items"))
    if warps is not None:  # its own stream: the rest of the kernel stays as it was
        warp_k = Kernel(warps.rng, type_, length, k.lines, k.tails, k.counter, k.m1, k.m3)
        for _ in range(warps.shuffles):
            pool.append(warp_k.warp_round(1, pool))
        for cell in range(len(warps.kinds)):
            for _ in range(warps.rng.randint(0, 2)):
                warp_k.atomic_round(1, pool, cell, warps.kinds[cell])
        k.counter, k.m1, k.m3 = warp_k.counter, warp_k.m1, warp_k.m3
    result = pool[-1]
    tokens = "!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
    tail = "".join(k.tails)
    if early_return is not None:  # `if (flat >= limit) return;` in cf blocks, after the barriers
        limit, skip = k.index_constant(1, early_return), k.fresh("b")
        k.emit(1, f"{skip} = arith.cmpi uge, %flat, {limit} : index")
        k.emit(1, f"cf.cond_br {skip}, ^exit, ^work")
        tail += f"^exit:\n  func.return {k.m1}, {k.m3}, %m4, %m5 : {tokens}\n"
        k.lines.append("^work:")
    out = k.fresh("p")
    k.emit(1, f"{out} = mem.lea %dst, %flat : {array_ptr(t, length)}")
    stored = k.fresh("t")
    k.emit(1, f"{stored} = mem.store {k.m1}, {out}, {result} : !mem.ptr<{t}, 1>")
    smem = f"%smem: !mem.ptr<!mem.array<? x {t}>, 3>,\n              " if shared_rounds else ""
    acc = f", %acc: {array_ptr(t, CELLS)}" if warps is not None and warps.kinds else ""
    header = (
        "func.func @k(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,\n"
        f"              %group: index, %item: index, {smem}%n_items: index, %s: {t},\n"
        f"              %src: {array_ptr(t, length)}, %dst: {array_ptr(t, length)}{acc})\n"
        f"    -> ({tokens}) {{"
    )
    body = "\n".join(k.lines)
    end = f"  func.return {stored}, {k.m3}, %m4, %m5 : {tokens}\n{tail}"
    return f"{header}\n{body}\n{end}}}\n", k


def host_init(rng: random.Random, type_: str, length: int, host: str, token: str, tag: str):
    """Lines that fill `host` with `f(k)` for k < length; returns them and the final token."""
    lines = [
        f"  %{tag}_lo = arith.constant 0 : index",
        f"  %{tag}_hi = arith.constant {length} : index",
        f"  %{tag}_one = arith.constant 1 : index",
        f"  %{tag}_done = scf.for %{tag}_k = %{tag}_lo to %{tag}_hi step %{tag}_one"
        f" iter_args(%{tag}_t = {token}) -> (!mem.M<0>) {{",
    ]
    body: list[str] = []
    if type_ in FLOAT_TYPES:
        body += [
            f"%{tag}_w = arith.index_cast %{tag}_k : index to i64",
            f"%{tag}_f = arith.sitofp %{tag}_w : i64 to {type_}",
            f"%{tag}_a = arith.constant {rng.randint(-40, 40) / 4} : {type_}",
            f"%{tag}_b = arith.constant {rng.randint(-100, 100) / 3:.6e} : {type_}",
            f"%{tag}_d = arith.constant {rng.choice((3.0, 7.0, 0.5, 10.0, -1.5))} : {type_}",
            f"%{tag}_fa = arith.mulf %{tag}_f, %{tag}_a : {type_}",
            f"%{tag}_fb = arith.addf %{tag}_fa, %{tag}_b : {type_}",
            f"%{tag}_v = arith.divf %{tag}_fb, %{tag}_d : {type_}",
        ]
    else:
        k = f"%{tag}_k"
        if type_ != "index":
            body.append(f"%{tag}_ki = arith.index_cast %{tag}_k : index to {type_}")
            k = f"%{tag}_ki"
        body += [
            f"%{tag}_a = arith.constant {constant_text(rng, type_)} : {type_}",
            f"%{tag}_b = arith.constant {constant_text(rng, type_)} : {type_}",
            f"%{tag}_ka = arith.muli {k}, %{tag}_a : {type_}",
            f"%{tag}_v = arith.xori %{tag}_ka, %{tag}_b : {type_}",
        ]
    body += [
        f"%{tag}_p = mem.lea {host}, %{tag}_k : {array_ptr(type_, length, 0)}",
        f"%{tag}_t2 = mem.store %{tag}_t, %{tag}_p, %{tag}_v : !mem.ptr<{type_}, 0>",
        f"scf.yield %{tag}_t2 : !mem.M<0>",
    ]
    lines += ["    " + line for line in body] + ["  }"]
    return lines, f"%{tag}_done"


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


# --- planted bugs ------------------------------------------------------------------------------

PLANTS = ("past-end", "missing-barrier", "freed")
"""The bugs `planted` puts into a program:
- `past-end`: the kernel reads its neighbour `src[flat + d]` without wrapping the index, with
  `d` such that the last work-item of the first launch reads `src[L]`, one past the end;
- `missing-barrier`: the first shared round has no barrier between each item's store to its
  slot and its load of another item's slot (only where items do read others' slots);
- `freed`: `@main` frees the first launch's input before the launch."""

SIZES = {"i32": 4, "i64": 8, "index": 8, "f32": 4, "f64": 8}


def planted(seed: int, plant: str) -> tuple[str, str] | None:
    """Program `seed` with the bug `plant`, and the start of the error that must end its run
    (at the first faulty access, in interp's order); None when the program cannot carry this
    bug (no shared round at the kernel's top level, or one whose items read their own slots)."""
    text, shape = generate_with_shape(seed, plant)
    size, length = SIZES[shape.type_], shape.length
    groups, items = shape.launches[0]
    if plant == "past-end":
        who = f"work-item (group {groups - 1}, item {items - 1})"
        return text, (
            f"out of bounds: {who} loads {size} bytes from byte offset {length * size} of a "
            f"{length * size}-byte global allocation"
        )
    if plant == "freed":
        return text, (
            f"use after free: work-item (group 0, item 0) loads {size} bytes from a "
            f"{length * size}-byte global allocation"
        )
    assert plant == "missing-barrier"
    if not shape.shared_rounds or shape.placement != "top" or items < 2:
        return None
    offset = shape.round_offsets[0] % items
    if offset == 0:
        return None
    for item in range(1, items):  # items run in order: store to my slot, then load another's
        if (item - offset) % items < item:  # an earlier item read my slot
            return text, (
                f"race on shared memory: work-item (group 0, item {item}) writes byte "
                f"{item * size} of "
            )
        if (item + offset) % items < item:  # I read the slot an earlier item wrote
            slot = (item + offset) % items
            return text, (
                f"race on shared memory: work-item (group 0, item {item}) reads byte "
                f"{slot * size} of "
            )
    raise AssertionError("unreachable: item n-1 meets one of the two")


def find_planted(seed: int, plant: str, provider: str = "interp") -> tuple[bool, str, str]:
    """Run program `seed` with the bug `plant` under `provider`: (whether its run ended with the
    expected error, the program, what the run gave). A program that cannot carry the bug counts
    as found (nothing to find)."""
    found = planted(seed, plant)
    if found is None:
        return True, "", ""
    text, expected = found
    outcome = run(text, provider)
    return isinstance(outcome, str) and expected in outcome, text, str(outcome)


# --- running and comparing -----------------------------------------------------------------------


CHECKED = "cpu --check"
"""The provider name `run` takes for `CpuProvider(check=True)`."""


def run(text: str, provider: str) -> tuple[object, ...] | str:
    """`@main`'s results under `provider` (a name, or `CHECKED`), or the error it ends with
    (as text)."""
    import gpuir

    try:
        if provider == CHECKED:
            from gpuir.runtime.cpu import CpuProvider

            results = gpuir.compile(
                text, provider=CpuProvider(check=True), out=io.StringIO()
            ).main()
            return results if isinstance(results, tuple) else (results,)
        results = gpuir.compile(text, provider=provider, out=io.StringIO()).main()
    except Exception as e:  # noqa: BLE001  # a failure is an outcome to compare
        return f"{type(e).__name__}: {e}"
    return results if isinstance(results, tuple) else (results,)


def _bits(value: object) -> object:
    if isinstance(value, np.floating):
        return "nan" if np.isnan(value) else value.tobytes()
    return int(value)  # type: ignore[arg-type]


def same(a: tuple[object, ...] | str, b: tuple[object, ...] | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return len(a) == len(b) and all(_bits(x) == _bits(y) for x, y in zip(a, b, strict=True))


def compare(seed: int) -> tuple[bool, str, object, object]:
    """Run program `seed` under `cpu` and `interp`: (agree, text, cpu's, interp's)."""
    text = generate(seed)
    found, expected = run(text, "cpu"), run(text, "interp")
    return same(found, expected), text, found, expected
