"""The fuzzer's corpus and mutations: seeded, so that input `i` of seed `s` is always the same.

The mutations are textual, on purpose: most of them keep the text parseable (a type, an address
space, a literal, a symbol or an operand changed), so that the input gets past the parser to the
verifiers, the passes, the lowerings and the interpreter; the others (lines and tokens deleted,
duplicated, swapped, spliced) test the parser and the verifiers.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPLIT_MARKER = "// -----"

TOKEN = re.compile(
    r"""%[\w.$-]+(?:\#\d+)?       # an SSA value
      | \^[\w.$-]+                # a block
      | @(?:[\w.$-]+|"[^"]*")     # a symbol
      | ![\w.]+                   # a type's name
      | \#[\w.]+                  # an attribute alias
      | "(?:[^"\\]|\\.)*"         # a string
      | 0x[0-9a-fA-F]+ | \d+(?:\.\d+)?(?:[eE][-+]?\d+)?
      | [A-Za-z_][\w.$]*          # a keyword or an op name
      | -> | :: | \S             # punctuation
    """,
    re.VERBOSE,
)
BUILTIN_TYPE = re.compile(r"\b(?:i1|i8|i16|i32|i64|f16|f32|f64|index)\b")
BUILTIN_TYPES = ["i1", "i8", "i32", "i64", "f16", "f32", "f64", "index"]
ADDRESS_SPACE = re.compile(r"(?<=!mem\.M<)\d+(?=>)|(?<=, )\d+(?=>)")
ADDRESS_SPACES = ["0", "1", "3", "4", "5", "0", "1", "3", "4", "5", "2", "-1"]
"""Mostly valid ones: an invalid space stops the input at the parser."""
INTEGER = re.compile(r"(?<![\w.%@#^$-])-?\d+(?![\w.])")
SYMBOL = re.compile(r"@[\w.$-]+")
VALUE_USE = re.compile(r"%[\w.$-]+(?:#\d+)?")


@dataclass(frozen=True)
class Seed:
    """One chunk of a corpus file: the text a mutation starts from."""

    path: str
    """Relative to the repository root."""
    chunk: int
    text: str


@dataclass(frozen=True)
class Mutant:
    index: int
    seed: Seed
    mutations: tuple[str, ...]
    """What was done, in order (for the report)."""
    text: str


def corpus_files(root: Path = ROOT) -> list[Path]:
    lit = sorted((root / "tests" / "lit").rglob("*.mlir"))
    return [p for p in lit if "Output" not in p.parts] + sorted((root / "examples").glob("*.mlir"))


def load_corpus(root: Path = ROOT) -> list[Seed]:
    """Every chunk of every corpus file, without full-line comments (they are only noise to a
    line mutation), in a fixed order."""
    seeds: list[Seed] = []
    for path in corpus_files(root):
        chunks = path.read_text(encoding="utf-8").split(SPLIT_MARKER)
        for i, chunk in enumerate(chunks):
            lines = [line for line in chunk.splitlines() if not line.lstrip().startswith("//")]
            text = "\n".join(lines).strip("\n")
            if text.strip():
                seeds.append(Seed(str(path.relative_to(root)), i, text + "\n"))
    return seeds


# Mutations: each takes the text (and the corpus, for splicing) and returns the new text and a
# short description, or None when it does not apply (no line, no literal, ...).

Mutation = Callable[[random.Random, str, list[Seed]], tuple[str, str] | None]


def pick_line(rng: random.Random, lines: list[str]) -> int | None:
    candidates = [i for i, line in enumerate(lines) if line.strip()]
    return rng.choice(candidates) if candidates else None


def delete_line(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    lines = text.splitlines()
    i = pick_line(rng, lines)
    if i is None:
        return None
    return "\n".join(lines[:i] + lines[i + 1 :]) + "\n", f"delete line {i + 1}"


def duplicate_line(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    lines = text.splitlines()
    i = pick_line(rng, lines)
    if i is None:
        return None
    return "\n".join(lines[: i + 1] + lines[i:]) + "\n", f"duplicate line {i + 1}"


def swap_lines(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    lines = text.splitlines()
    i, j = pick_line(rng, lines), pick_line(rng, lines)
    if i is None or j is None or i == j:
        return None
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n", f"swap lines {i + 1} and {j + 1}"


def splice_lines(rng: random.Random, text: str, corpus: list[Seed]) -> tuple[str, str] | None:
    """Insert 1-3 consecutive lines of another seed at a random line."""
    donor = rng.choice(corpus)
    donor_lines = donor.text.splitlines()
    start = rng.randrange(len(donor_lines))
    piece = donor_lines[start : start + rng.randint(1, 3)]
    lines = text.splitlines()
    at = rng.randint(0, len(lines))
    where = f"{donor.path}#{donor.chunk}:{start + 1}"
    return "\n".join(lines[:at] + piece + lines[at:]) + "\n", f"splice {where} at line {at + 1}"


def token_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in TOKEN.finditer(text)]


def delete_token(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    spans = token_spans(text)
    if not spans:
        return None
    start, end = rng.choice(spans)
    return text[:start] + text[end:], f"delete token {text[start:end]!r}"


def duplicate_token(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    spans = token_spans(text)
    if not spans:
        return None
    start, end = rng.choice(spans)
    token = text[start:end]
    return text[:end] + " " + token + text[end:], f"duplicate token {token!r}"


def swap_tokens(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    spans = token_spans(text)
    if len(spans) < 2:
        return None
    (a0, a1), (b0, b1) = sorted(rng.sample(spans, 2))
    a, b = text[a0:a1], text[b0:b1]
    return text[:a0] + b + text[a1:b0] + a + text[b1:], f"swap tokens {a!r} and {b!r}"


def replace_match(
    rng: random.Random, text: str, pattern: re.Pattern[str], choices: list[str], what: str
) -> tuple[str, str] | None:
    """Replace one match of `pattern` by one of `choices` (other than itself)."""
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    others = [c for c in choices if c != m.group()]
    if not others:
        return None
    new = rng.choice(others)
    line = text.count("\n", 0, m.start()) + 1
    return text[: m.start()] + new + text[m.end() :], f"{what} {m.group()} -> {new} (line {line})"


def change_type(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    return replace_match(rng, text, BUILTIN_TYPE, BUILTIN_TYPES, "type")


def change_address_space(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    return replace_match(rng, text, ADDRESS_SPACE, ADDRESS_SPACES, "address space")


def change_integer(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    matches = list(INTEGER.finditer(text))
    if not matches:
        return None
    value = int(rng.choice(matches).group())
    choices = [0, -1, 1, 2, value + 1, value - 1, value * 2, 2**31, 2**32, 2**63 - 1, 2**63]
    choices += [2**64, -(2**63), 10**30, 7919]
    return replace_match(rng, text, INTEGER, [str(c) for c in choices], "integer")


def retype_everywhere(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    found = sorted(set(BUILTIN_TYPE.findall(text)))
    if not found:
        return None
    old = rng.choice(found)
    new = rng.choice([t for t in BUILTIN_TYPES if t != old])
    return re.sub(rf"\b{old}\b", new, text), f"type {old} -> {new} everywhere"


def respace_everywhere(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    """One address space becomes another in every token and pointer type."""
    found = sorted(set(re.findall(r"!mem\.M<(\d+)>", text)))
    if not found:
        return None
    old = rng.choice(found)
    new = rng.choice([a for a in ["0", "1", "3", "4", "5"] if a != old])
    replaced = re.sub(rf"(!mem\.M<|, ){old}>", rf"\g<1>{new}>", text)
    return replaced, f"address space {old} -> {new} everywhere"


def change_constant(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    """An `arith.constant` integer (a count, an extent, a bound, an index) becomes 0, -1, a
    neighbour or something huge."""
    constant = re.compile(r"(?<=arith\.constant )-?\d+(?= : (?:i\d+|index))")
    matches = list(constant.finditer(text))
    if not matches:
        return None
    value = int(rng.choice(matches).group())
    choices = [0, -1, 1, value + 1, value - 1, 2**31 - 1, 2**32 + 1, 2**63 - 1, -(2**63)]
    return replace_match(rng, text, constant, [str(c) for c in choices], "constant")


def change_extent_everywhere(
    rng: random.Random, text: str, _: list[Seed]
) -> tuple[str, str] | None:
    """A static extent of arrays (`4 x`) or buffers (`4x`) changes in every type it is in."""
    found = sorted(set(re.findall(r"(?<=[<x ])(\d+) ?x", text)))
    if not found:
        return None
    old = rng.choice(found)
    new = rng.choice(["0", "1", "3", str(int(old) + 1), "1000000", "9223372036854775807"])
    if new == old:
        return None
    replaced = re.sub(rf"(?<=[<x ]){old}( ?x)", rf"{new}\g<1>", text)
    return replaced, f"extent {old} -> {new} everywhere"


STRING = re.compile(r'(?<=kind = )"\w*"|(?<=\w = )"[^"]*"')
STRINGS = ['"add"', '"mul"', '"min"', '"max"', '"and"', '"or"', '"xor"', '""', '"bogus"']


def change_string(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    """A string property (`kind = "add"`, a pass option) becomes another kind, or nonsense."""
    return replace_match(rng, text, STRING, STRINGS, "string")


def change_symbol(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    symbols = sorted(set(SYMBOL.findall(text)))
    return replace_match(rng, text, SYMBOL, ["@missing", "@main", *symbols], "symbol")


def change_operand(rng: random.Random, text: str, _: list[Seed]) -> tuple[str, str] | None:
    names = sorted(set(VALUE_USE.findall(text)))
    return replace_match(rng, text, VALUE_USE, [*names, "%undefined"], "operand")


MUTATIONS: list[tuple[Mutation, int]] = [
    # (mutation, weight): the ones that keep the text consistent (so that it often verifies
    # and reaches the passes, the lowerings and the interpreter) weigh more.
    (delete_line, 3),
    (duplicate_line, 1),
    (swap_lines, 2),
    (splice_lines, 2),
    (delete_token, 2),
    (duplicate_token, 1),
    (swap_tokens, 1),
    (change_type, 2),
    (change_address_space, 2),
    (change_integer, 3),
    (change_symbol, 3),
    (change_operand, 3),
    (retype_everywhere, 4),
    (respace_everywhere, 4),
    (change_constant, 6),
    (change_extent_everywhere, 4),
    (change_string, 2),
]


def seed_weight(seed: Seed) -> int:
    """Invalid tests are rejected early anyway; programs with a @main also reach gpu-run's
    interpreter."""
    if "invalid" in seed.path:
        return 1
    return 8 if "@main" in seed.text else 4


CONSISTENT = {
    change_symbol,
    change_operand,
    retype_everywhere,
    respace_everywhere,
    change_constant,
    change_extent_everywhere,
    change_string,
}
"""The mutations that keep the text parseable and often verifying."""


def mutant(corpus: list[Seed], seed: int, index: int) -> Mutant:
    """Input `index` of run `seed`: a corpus chunk with 1 to 3 mutations; for half the inputs
    only CONSISTENT ones, so that they get past the verifier more often."""
    rng = random.Random(f"gpuir-fuzz/{seed}/{index}")
    start = rng.choices(corpus, [seed_weight(s) for s in corpus])[0]
    text, done = start.text, []
    count = rng.choice([1, 1, 1, 1, 2, 2, 3])
    mutations = MUTATIONS
    if rng.random() < 0.5:
        mutations = [(m, w) for m, w in MUTATIONS if m in CONSISTENT]
    functions, weights = zip(*mutations, strict=True)
    attempts = 0
    while len(done) < count and (attempts < 20 or (not done and attempts < 40)):
        attempts += 1
        if attempts == 21:  # nothing applied (only CONSISTENT ones tried?): try any
            functions, weights = zip(*MUTATIONS, strict=True)
        mutation = rng.choices(functions, weights)[0]
        result = mutation(rng, text, corpus)
        if result is not None and result[0] != text:
            text = result[0]
            done.append(result[1])
    return Mutant(index, start, tuple(done), text)
