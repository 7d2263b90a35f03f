"""Write `docs/pipelines.md`, every pipeline of gpuir stage by stage, from
`gpuir.ir.pipelines` (where the lists are defined once), each stage with the one-line
description of its pass from the registry.

    python scripts/pipeline_reference.py            # write the file
    python scripts/pipeline_reference.py --check    # exit 1 when it is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

import generated

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "pipelines.md"


def reference() -> str:
    import gpuir.lowering  # noqa: F401  # the lowering passes join the registry
    from gpuir.ir.pipelines import PIPELINES, SPLIT_DEVICE, SPLIT_HOST
    from gpuir.ir.registry import all_passes

    factories = all_passes()
    out = [
        "# The pipelines, stage by stage",
        "",
        "Written by `scripts/pipeline_reference.py` from `ir/pipelines.py`, where each list is",
        "defined once (gpu-opt, gpu-run, the API, the targets and the cpu provider run these);",
        "`tests/test_pipeline_reference.py` fails when this file is stale. Each stage is a pass of",
        "the registry (`gpu-opt --list-passes`): `gpu-opt FILE -p STAGE` runs it alone, and",
        "`--mlir-print-ir-after-all` / `--mlir-timing` show each stage of these pipelines.",
        "",
    ]
    for name, (what, stages) in PIPELINES.items():
        out += [f"## `{name}`: {what}", "", "| # | stage | what it does |", "| --- | --- | --- |"]
        for number, (stage, doing) in enumerate(stages, 1):
            assert stage in factories, f"{stage} is not a registered pass"
            out.append(f"| {number} | `{stage}` | {doing} |")
        out.append("")
        if name == "gpu-pipeline":
            out += [
                f"`split-apply` runs `{SPLIT_HOST}` on `@host` and `{SPLIT_DEVICE}` on `@device`",
                "by default (its options `host-pipeline=` and `device-pipeline=` take any",
                "pipeline, as `gpu-pipeline`'s do).",
                "",
            ]
    return "\n".join(out).rstrip() + "\n"


def main() -> int:
    return generated.main(__doc__.splitlines()[0], OUTPUT, reference, "pipeline_reference.py")


if __name__ == "__main__":
    sys.exit(main())
