"""The host code of a generated program's `@main` (`generator.generate`): `host_init` fills a host
array with a seeded formula; `HostCode` writes random host loops with the kernel's expressions
(`kernel.Kernel`), with names of their own and host memory."""

from __future__ import annotations

import random
from dataclasses import dataclass

from differential.kernel import FLOAT_TYPES, Kernel, array_ptr, constant_text


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
