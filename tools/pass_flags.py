"""The pass manager's flags, as mlir-opt spells them, for gpu-opt and gpu-run alike: IR
printing, timing, statistics and crash reproducers (`gpuir.ir.instrumentation`). gpuir's and
xdsl-opt's older spellings stay as aliases: `--print-ir-after-all` and `--print-between-passes`
(`--mlir-print-ir-after-all`), `--time-passes` (`--mlir-timing`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gpuir.tools.common import did_you_mean

if TYPE_CHECKING:  # imported when a flag asks for one: gpu-opt starts without them
    from xdsl.context import Context

    from gpuir.ir.instrumentation import CrashReproducer, IRPrinting, PassStatistics, Timing
    from gpuir.ir.pass_manager import PassInstrumentation, PassManager


class FlagError(ValueError):
    """A flag's value that names no pass; the message is the diagnostic, without the prefix."""


def add_arguments(
    parser: argparse.ArgumentParser, aliases: bool = True, verify_flag: bool = False
) -> None:
    """The flags, on `parser`; `aliases`: also `--print-ir-after-all` (gpu-opt's and gpu-run's
    older spelling; xdsl-opt's `--print-between-passes` and `--time-passes` come with xDSL's
    own flags); `verify_flag`: `--mlir-verify-each` (gpu-run's: gpu-opt verifies after each
    pass unless `--disable-verify`)."""
    group = parser.add_argument_group("pass manager (as mlir-opt's)")
    if verify_flag:
        group.add_argument(
            "--mlir-verify-each",
            action="store_true",
            help="verify the IR after each pass, to name a pass whose result does not verify "
            "(implied by the IR printing and crash reproducer flags)",
        )
    group.add_argument(
        "--mlir-print-ir-before",
        action="append",
        default=[],
        metavar="PASS[,PASS]",
        help="print the IR before each run of these passes, to stderr",
    )
    group.add_argument(
        "--mlir-print-ir-after",
        action="append",
        default=[],
        metavar="PASS[,PASS]",
        help="print the IR after each run of these passes, to stderr",
    )
    group.add_argument(
        "--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass"
    )
    spellings = ["--mlir-print-ir-after-all", *(["--print-ir-after-all"] if aliases else [])]
    group.add_argument(
        *spellings,
        dest="mlir_print_ir_after_all",
        action="store_true",
        help="print the IR after every pass, the stages of composite passes (gpu-pipeline, "
        "split-apply's sub-pipelines, device-to-llvm, host-to-llvm) included",
    )
    group.add_argument(
        "--mlir-print-ir-after-change",
        action="store_true",
        help="with --mlir-print-ir-after(-all): only when the pass changed the IR",
    )
    group.add_argument(
        "--mlir-print-ir-after-failure",
        action="store_true",
        help="print the IR after a pass that failed (raised, or left IR that does not verify)",
    )
    group.add_argument(
        "--mlir-print-ir-module-scope",
        action="store_true",
        help="print the whole top-level module, whatever op the pass ran on",
    )
    group.add_argument(
        "--mlir-print-ir-tree-dir",
        metavar="DIR",
        help="write each printed IR to a file in DIR, in a folder per op, not to stderr",
    )
    add_report(
        group,
        "--mlir-timing",
        "report the time of each pass (nested as the pipeline runs) to stderr",
        ("tree", "list"),
        "the timing report: nested (tree, the default) or per name (list)",
    )
    add_report(
        group,
        "--mlir-pass-statistics",
        "report each pass's statistics to stderr",
        ("pipeline", "list"),
        "the statistics report: under the pipeline (the default) or per pass (list)",
    )
    group.add_argument(
        "--mlir-pass-pipeline-crash-reproducer",
        metavar="FILE",
        help="when a pass fails, write FILE: the IR and the pipeline that fail again "
        "(gpu-opt --run-reproducer FILE)",
    )
    group.add_argument(
        "--mlir-pass-pipeline-local-reproducer",
        action="store_true",
        help="the reproducer holds the IR the failing pass got and that pass alone",
    )


def add_report(
    group: argparse._ArgumentGroup, flag: str, help: str, displays: tuple[str, str], how: str
) -> None:
    """A report's flag, and its `-display` flag: one of `displays`, the first by default."""
    group.add_argument(flag, action="store_true", help=help)
    group.add_argument(f"{flag}-display", choices=displays, default=displays[0], help=how)


@dataclass
class Instruments:
    """The instrumentation the flags ask for, each also by its role."""

    printing: IRPrinting | None = None
    timing: Timing | None = None
    statistics: PassStatistics | None = None
    reproducer: CrashReproducer | None = None
    others: list[PassInstrumentation] = field(default_factory=list)

    def all(self) -> list[PassInstrumentation]:
        """Each one, `others` first: a check that fails a pass (`--check-semantics`) runs
        before the others see the pass."""
        found = [*self.others, self.timing, self.printing, self.statistics, self.reproducer]
        return [i for i in found if i is not None]


def pass_names(
    values: list[str], flag: str, known: Callable[[str], bool], names: list[str]
) -> frozenset[str]:
    found = frozenset(name.strip() for value in values for name in value.split(",") if name.strip())
    for name in sorted(found):
        if not known(name):
            raise FlagError(f"{flag} names the unknown pass '{name}'{did_you_mean(name, names)}")
    return found


def instruments(
    args: argparse.Namespace,
    passes: dict[str, object],
    verify_each: bool = True,
    timing: bool = False,
) -> Instruments:
    """The instrumentation of the parsed flags `args`; `passes`: the known pass names (for
    `--mlir-print-ir-before/after`); `timing`: time passes even without `--mlir-timing`
    (an alias asked for it)."""
    from gpuir.ir.instrumentation import CrashReproducer, IRPrinting, PassStatistics, Timing

    found = Instruments()
    names = list(passes)
    before = pass_names(
        args.mlir_print_ir_before, "--mlir-print-ir-before", passes.__contains__, names
    )
    after = pass_names(
        args.mlir_print_ir_after, "--mlir-print-ir-after", passes.__contains__, names
    )
    if (
        before
        or after
        or args.mlir_print_ir_before_all
        or args.mlir_print_ir_after_all
        or args.mlir_print_ir_after_failure
    ):
        found.printing = IRPrinting(
            before=before,
            after=after,
            before_all=args.mlir_print_ir_before_all,
            after_all=args.mlir_print_ir_after_all,
            after_change=args.mlir_print_ir_after_change,
            after_failure=args.mlir_print_ir_after_failure,
            module_scope=args.mlir_print_ir_module_scope,
            tree_dir=args.mlir_print_ir_tree_dir,
        )
    if args.mlir_timing or timing:
        found.timing = Timing(display=args.mlir_timing_display)
    if args.mlir_pass_statistics:
        found.statistics = PassStatistics(display=args.mlir_pass_statistics_display)
    if args.mlir_pass_pipeline_crash_reproducer:
        found.reproducer = CrashReproducer(
            args.mlir_pass_pipeline_crash_reproducer,
            local=args.mlir_pass_pipeline_local_reproducer,
            verify_each=verify_each,
        )
    return found


def pipeline_from(spec: str | None) -> PassManager:
    """The default pipeline (`gpu-pipeline`), or the one `spec` writes in MLIR's pipeline text
    (any registered pass, the lowering stages and the plugins' passes included). A bad spec
    raises `PipelineError` (`UnknownPass` for a name no pass has)."""
    from gpuir.ir.pass_manager import PassManager, parse_pass_pipeline

    if spec is None:
        from gpuir.passes.gpu_pipeline import GpuPipelinePass

        return PassManager(elements=[GpuPipelinePass()])
    import gpuir.lowering  # noqa: F401  # adds the lowering passes to the registry
    from gpuir.dialects import make_context
    from gpuir.ir.registry import pass_table

    ctx = make_context()
    return parse_pass_pipeline(spec, pass_table(), lambda name: op_exists(ctx, name))


def op_exists(ctx: Context, name: str) -> bool:
    """Whether `name` is an op of the context (a pipeline's anchor)."""
    try:
        return ctx.get_optional_op(name) is not None
    except Exception:  # noqa: BLE001  # a dialect that fails to load: not an op here
        return False
