"""The command-line arguments with which the tests run each example's `@main` (an example
that is not listed takes none)."""

EXAMPLE_ARGS: dict[str, list[str]] = {
    "manual-streams": ["5"],
    "manual-sync": ["9"],
    "no-arguments": ["7"],
    "scoped-streams": ["5"],
    "scoped-sync": ["9"],
    "two-arguments": ["1"],
    "histogram": ["2000"],
    "global-sum": ["5000"],
    "compaction": ["1000"],
    "warp-reduce": ["1000"],
}
