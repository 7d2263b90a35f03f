"""`--verify-diagnostics` with mlir-opt's semantics: the diagnostics a chunk produces are checked
against the `expected-*` annotations in its comments.

    // expected-error @+1 {{op is not a kernel}}
    // expected-warning-re @below {{falls back to {{[0-9]+}} loops}}

- kinds: `expected-error`, `-warning`, `-note`, `-remark`; with `-re`, each `{{…}}` inside the
  message is a regular expression (the rest is literal text);
- where: the annotation's own line, `@+N` / `@-N` lines after / before it, `@above` / `@below`
  (the line before / after), `@unknown` (a diagnostic without a location);
- the message is a substring of the diagnostic's (or, with `-re`, matches part of it);
- every annotation must be matched by one diagnostic of its kind at its line, and every
  diagnostic with a location in the input must be expected (notes without a location, such as
  "see current operation", are not checked); each `--split-input-file` chunk on its own.

A mismatch is reported in mlir-opt's words (`expected error "…" was not produced`,
`unexpected error: …`) at the annotation or the diagnostic, and the run exits with status 1.
A chunk without any annotation expects no diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ANNOTATION = re.compile(
    r"expected-(?P<kind>error|warning|note|remark)(?P<re>-re)?[ \t]*"
    r"(?:@(?P<where>[+-]\d+|above|below|unknown))?[ \t]*\{\{(?P<text>.*)\}\}[ \t]*$"
)
DIAGNOSTIC = re.compile(
    r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning|note|remark): "
    r"(?P<message>.*)$"
)
UNLOCATED = re.compile(r"^(?P<file>[^\n:]+): (?P<kind>error|warning|remark): (?P<message>.*)$")


@dataclass
class Expected:
    """One annotation: its kind, the line it expects (None: `@unknown`), its pattern, and where
    it is written (line, column) for a report."""

    kind: str
    line: int | None
    pattern: re.Pattern[str]
    text: str
    at: tuple[int, int]
    matched: bool = False


@dataclass(frozen=True)
class Produced:
    """One diagnostic a chunk produced: kind, line (None: no location), column, message."""

    kind: str
    line: int | None
    column: int
    message: str


def pattern_of(text: str, regex: bool) -> re.Pattern[str]:
    """The message as a pattern: literal text, with `-re` its `{{…}}` parts as regexes."""
    if not regex:
        return re.compile(re.escape(text))
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile("".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts)))


def expectations(text: str, line_offset: int) -> list[Expected]:
    """The annotations of a chunk, with lines of the whole input (1-based)."""
    found = []
    for number, line in enumerate(text.splitlines(), start=line_offset + 1):
        for match in ANNOTATION.finditer(line):
            where = match.group("where")
            target: int | None = number
            if where == "unknown":
                target = None
            elif where == "above":
                target = number - 1
            elif where == "below":
                target = number + 1
            elif where is not None:
                target = number + int(where)
            body = match.group("text")
            try:
                pattern = pattern_of(body, match.group("re") is not None)
            except re.error as e:
                pattern = re.compile(re.escape(body))
                body = f"{body} (a bad regex: {e})"
            found.append(
                Expected(match.group("kind"), target, pattern, body, (number, match.start() + 1))
            )
    return found


def produced(reports: list[str]) -> list[Produced]:
    """The diagnostics in the reported texts (`file:line:col: kind: message` lines; a
    `file: kind: message` line has no location)."""
    out = []
    for text in reports:
        for line in text.splitlines():
            located = DIAGNOSTIC.match(line)
            if located is not None:
                out.append(
                    Produced(
                        located.group("kind"),
                        int(located.group("line")),
                        int(located.group("column")),
                        located.group("message"),
                    )
                )
                continue
            unlocated = UNLOCATED.match(line)
            if unlocated is not None:
                out.append(Produced(unlocated.group("kind"), None, 0, unlocated.group("message")))
    return out


def check(name: str, expected: list[Expected], reports: list[str]) -> list[str]:
    """mlir-opt's complaints about a chunk (empty when every diagnostic was expected and every
    annotation matched)."""
    complaints = []
    for diagnostic in produced(reports):
        match = next(
            (
                e
                for e in expected
                if not e.matched
                and e.kind == diagnostic.kind
                and e.line == diagnostic.line
                and e.pattern.search(diagnostic.message)
            ),
            None,
        )
        if match is not None:
            match.matched = True
        elif diagnostic.line is None:
            complaints.append(f"{name}: error: unexpected {diagnostic.kind}: {diagnostic.message}")
        else:
            where = f"{name}:{diagnostic.line}:{diagnostic.column}"
            complaints.append(f"{where}: error: unexpected {diagnostic.kind}: {diagnostic.message}")
    for e in expected:
        if not e.matched:
            line, column = e.at
            complaints.append(
                f'{name}:{line}:{column}: error: expected {e.kind} "{e.text}" was not produced'
            )
    return complaints
