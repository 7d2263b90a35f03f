"""The kernel of a generated program (`generator.generate`): `generate_kernel` writes `@k`
through `Kernel`, the state of its body being written.

The kernel computes random arithmetic over its own element, a neighbour's, its ids and a scalar
argument: `scf.for` loops over the input, `scf.if` on the item id, and, when the program uses
shared memory, rounds of "store my value in my slot, sync, read another item's slot, sync".
Every program is defined by construction: shift amounts are masked below the width, divisors are
made positive and non-zero (`(b >> 1) | 1`), integer add/sub/mul wrap around, floats use only
add/sub/mul/div/min/max/neg/compare+select (no transcendental functions, no contraction), and
float-to-int conversions are not generated. `maxnumf`/`minnumf` may return either zero of
-0.0 and +0.0, so their result has +0.0 added (which makes any zero +0.0).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from gpuir.lowering.llvm.llvm_ir import FCMP_PREDICATES

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
FLOAT_PREDICATES = FCMP_PREDICATES[1:-1]
"""`arith.cmpf`'s predicates but the constant ones (`false`, `true`)."""


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
