"""The token-order check: two accesses that no token chain orders, to the same bytes, one of
them a write. Tokens that remember their place in the chains (`Token`, `consume`, `ordered`),
each machine's accesses (`TokenOrder`), and the step wrapper that tracks them
(`tracking_step`). docs/interp.md, "Token order", says how.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import func, scf
from xdsl.ir import Attribute, Operation, SSAValue

from gpuir.dialects.mem import MemType
from gpuir.ir.diagnostics import describe_op
from gpuir.runtime.memory import Allocation, Pointer, space_name
from gpuir.runtime.provider import ProviderError
from gpuir.runtime.scalars import TOKEN


class Chain:
    """A run of tokens, each consumed once so far; `parent` is the token it branches off from
    (None: a root), which `op` consumed again."""

    __slots__ = ("op", "parent")

    def __init__(self, parent: Token | None, op: Operation | None):
        self.parent = parent
        self.op = op


class Token:
    """A token value `!mem.M<a>` at run time: the `pos`-th of its `chain`; `consumer` is the
    first op that consumed it (None: not consumed yet)."""

    __slots__ = ("chain", "consumer", "pos")

    def __init__(self, chain: Chain, pos: int):
        self.chain = chain
        self.pos = pos
        self.consumer: Operation | None = None

    def __repr__(self) -> str:
        return "TOKEN"


def root() -> Token:
    """The token a function's caller (gpu-run, a launch) passes in."""
    return Token(Chain(None, None), 0)


def consume(token: Token, op: Operation) -> Token:
    """The token `op` makes of `token`: the next of its chain, or a new chain's first when
    `token` was consumed already."""
    if token.consumer is None:
        token.consumer = op
        return Token(token.chain, token.pos + 1)
    return Token(Chain(token, op), 1)


def _path(token: Token) -> list[tuple[Chain, int]]:
    """The chains from `token` back to its root, with the position reached on each."""
    found = [(token.chain, token.pos)]
    while (parent := found[-1][0].parent) is not None:
        found.append((parent.chain, parent.pos))
    return found


def ordered(a: Token, b: Token) -> bool:
    """Whether the op that made `a` runs before the op that made `b` on every order the chains
    allow (`a` lies before `b` on `b`'s way back to its root)."""
    if a is b:
        return True  # one op's own accesses (an atomic's read and write)
    chain, pos = b.chain, b.pos
    target = a.chain
    while chain is not target:
        parent = chain.parent
        if parent is None:
            return False
        chain, pos = parent.chain, parent.pos
        if chain is target:
            return a.pos <= pos
    return a.pos < pos


def fork_of(a: Token, b: Token) -> Chain | None:
    """The branch where the chains of `a` and `b` part (the earlier one when both branch off
    their common chain); None when one lies on the other's way back."""
    path_a = _path(a)
    index_a = {chain: i for i, (chain, _) in enumerate(path_a)}
    path_b = _path(b)
    for j, (chain, _) in enumerate(path_b):
        i = index_a.get(chain)
        if i is None:
            continue
        branches = [path[k - 1][0] for path, k in ((path_a, i), (path_b, j)) if k > 0]
        return min(branches, key=lambda c: c.parent.pos if c.parent else 0, default=None)
    return None


Access = tuple[Token, Operation, "tuple[Operation, str] | None"]
"""An access: the token its op consumed, the op, and for a launch the kernel's op and the
work-item that made it."""


class _Bytes:
    """What a byte saw since its last write: that write, and the reads after it that no later
    read is ordered after."""

    __slots__ = ("reads", "write")

    def __init__(self) -> None:
        self.write: Access | None = None
        self.reads: list[Access] = []


class TokenOrder:
    """The accesses of one machine (host code, a work-item), per allocation and byte."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[Allocation, dict[int, _Bytes]]] = {}

    def _bytes(self, allocation: Allocation) -> dict[int, _Bytes]:
        found = self.seen.get(id(allocation))
        if found is None or found[0] is not allocation:
            found = self.seen[id(allocation)] = (allocation, {})
        return found[1]

    def access(
        self,
        who: Any,
        op: Operation,
        ptr: Pointer,
        nbytes: int,
        write: bool,
        via: tuple[Operation, str] | None = None,
    ) -> None:
        """Record `who`'s access of `nbytes` at `ptr` by `op`, made with the token `op`
        consumed for the pointer's space (`who.events`); a diagnostic on a conflict. `via`:
        the kernel's op and work-item that made the access of a launch `op`."""
        allocation = ptr.allocation
        token = who.events.get(ptr.space)
        if allocation is None or type(token) is not Token:
            return  # an untracked token: ordered with everything
        seen = self._bytes(allocation)
        this = (token, op, via)
        for byte in range(ptr.offset, ptr.offset + nbytes):
            state = seen.get(byte)
            if state is None:
                state = seen[byte] = _Bytes()
            last = state.write
            if last is not None and not ordered(last[0], token):
                _report(who, this, write, last, True, allocation, byte)
            if write:
                for read in state.reads:
                    if not ordered(read[0], token):
                        _report(who, this, True, read, False, allocation, byte)
                state.write = this
                state.reads = []
            else:
                state.reads = [r for r in state.reads if not ordered(r[0], token)]
                state.reads.append(this)

    def free(self, who: Any, op: Operation, ptr: Pointer) -> None:
        """`op` frees `ptr`'s allocation: a write of every byte of it that was accessed."""
        allocation = ptr.allocation
        token = who.events.get(ptr.space)
        if allocation is None or type(token) is not Token:
            return
        this = (token, op, None)
        for byte, state in sorted(self._bytes(allocation).items()):
            for other, wrote in [(state.write, True), *((r, False) for r in state.reads)]:
                if other is not None and not ordered(other[0], token):
                    _report(who, this, True, other, wrote, allocation, byte, "frees")


def _report(
    who: Any,
    this: Access,
    writes: bool,
    other: Access,
    other_wrote: bool,
    allocation: Allocation,
    byte: int,
    verb: str | None = None,
) -> None:
    token, op, via = this
    other_token, other_op, other_via = other
    verb = verb or ("writes" if writes else "reads")
    subject, what, related = access_words(who.who, via, other_op, other_via, "the other access")
    raise ProviderError(
        op,
        f"unordered access to {space_name(allocation.space)} memory: {subject} {verb} byte "
        f"{byte} of {allocation.describe()}, which {what} {'wrote' if other_wrote else 'read'}, "
        f"and no token chain orders the two{_fork(token, op, other_token, other_op)}",
        "unordered access",
        related,
    )


def access_words(
    subject: str,
    via: tuple[Operation, str] | None,
    other_op: Operation,
    other_via: tuple[Operation, str] | None,
    other_note: str,
) -> tuple[str, str, list[tuple[Operation, str]]]:
    """The words of an unordered-access report: who made this access (`subject`, or for a
    launch's access `via`: the work-item and the op that made it), how it names the earlier
    access (its op, and for a launch's access the same two), and the notes: the other access
    (`other_note`), then the launches' ops that made the accesses."""
    related = [(other_op, other_note)]
    if via is not None:
        subject = f"{via[1]} of this launch ({describe_op(via[0])})"
        related.append((via[0], f"the access of {via[1]}"))
    what = describe_op(other_op)
    if other_via is not None:
        what += f" ({other_via[1]}, {describe_op(other_via[0])})"
        related.append((other_via[0], f"the other access, by {other_via[1]}"))
    return subject, what, related


def _fork(token: Token, op: Operation, other_token: Token, other_op: Operation) -> str:
    """Where the chains of two unordered accesses part, in words."""
    fork = fork_of(other_token, token)
    if fork is None or fork.parent is None or fork.op is None:
        return ""
    first = fork.parent.consumer
    if {fork.op, first} == {op, other_op}:
        return ": both consume one token"
    if fork.op is first:
        return f": {describe_op(first)} consumes one token again each time it runs"
    return (
        f": the chain forks where {describe_op(fork.op)} consumes the token that "
        f"{describe_op(first) if first is not None else 'another op'} consumed already"
    )


# --- running with tracked tokens ---------------------------------------------------------------


PASSES_ON = (
    func.CallOp,
    scf.ForOp,
    scf.WhileOp,
    scf.IfOp,
    scf.IndexSwitchOp,
    scf.ExecuteRegionOp,
)
"""Ops that hand their tokens on (to a callee, a region) rather than consume them."""


def tracking_step(
    c: Any, op: Operation, step: Callable[[Any, list[Any]], None], spaces: frozenset[int]
):
    """`step` (op's compiled step, `gpuir.runtime.engine.closures`) with its tokens of `spaces`
    tracked: each such token operand consumed (`consume`) into `machine.events` by space, for
    the op's accesses, and its token results (made `TOKEN` by the op's semantics) replaced by
    them. A token result of a space the op takes no token of (`gpu.init`'s device tokens)
    starts a chain of its own."""
    if isinstance(op, PASSES_ON):
        return step
    ins = [(c.slot(v), space) for v in op.operands if (space := _space(v)) in spaces]
    outs = [(c.slot(r), space) for r in op.results if (space := _space(r)) in spaces]
    if not ins and not outs:
        return step

    def tracked(m: Any, f: list[Any]) -> None:
        events: dict[int, Token] = {}
        for slot, space in ins:
            token = f[slot]
            if type(token) is Token:
                events[space] = consume(token, op)
        m.events = events
        step(m, f)
        for slot, space in outs:
            if f[slot] is TOKEN:
                token = events.get(space)
                f[slot] = token if token is not None else root()

    return tracked


def _space(value: SSAValue) -> int | None:
    return value.type.space.data if isinstance(value.type, MemType) else None


def region_tokens(machine: Any, op: Operation) -> tuple[object, ...]:
    """The tokens `op` (`gpu.synced_scope`, `gpu.with_streams`) passes to its region: those it
    consumed, one per token operand."""
    events = getattr(machine, "events", {})
    return tuple(
        events.get(v.type.space.data, TOKEN) for v in op.operands if isinstance(v.type, MemType)
    )


def entry_tokens(machine: Any, params: Sequence[Attribute]) -> list[object]:
    """The tokens a caller from outside passes for the token parameters among `params`: roots
    of the spaces the machine tracks, else `TOKEN`."""
    wrap = machine.code.wrap
    spaces = wrap.keywords["spaces"] if wrap is not None else frozenset()
    return [root() if p.space.data in spaces else TOKEN for p in params if isinstance(p, MemType)]
