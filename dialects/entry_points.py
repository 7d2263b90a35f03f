"""Entry points of the installed packages, read from their `entry_points.txt` files.

`importlib.metadata.entry_points(group=…)` gives the same answer, but importing it (with
`email`, `zipfile`, `csv`) and building a `Distribution` for every installed package cost a
tool ~30 ms at each start (a fifth of gpu-opt's start-up on a small file). This reads only what
a group needs: for each folder of `sys.path`, in order, each `*.dist-info` or `*.egg-info`
folder's `entry_points.txt`; a package found twice counts where it is found first, as
`importlib.metadata` has it. Zipped eggs and other importers' packages are not read.

It sits with the dialects, the lowest layer, because the dialect registry
(`xdsl_universe`) is its first user; `gpuir.ir.plugins` reads gpuir's plugins with it.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache

METADATA_SUFFIXES = (".dist-info", ".egg-info")
NORMAL = re.compile(r"[-_.]+")


def normalized(distribution: str) -> str:
    """A distribution's name as packaging compares names (PEP 503)."""
    return NORMAL.sub("_", distribution).lower()


@cache
def entry_points(group: str) -> tuple[tuple[str, str], ...]:
    """`(name, "module:attr")` of each entry point of `group`, read once per process."""
    seen: set[str] = set()
    found: list[tuple[str, str]] = []
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:  # missing, not a folder, a zip
            continue
        for name in names:
            if not name.endswith(METADATA_SUFFIXES):
                continue
            distribution = normalized(name.rsplit(".", 1)[0].split("-")[0])
            if distribution in seen:
                continue
            seen.add(distribution)
            found.extend(read_group(os.path.join(folder or ".", name, "entry_points.txt"), group))
    return tuple(found)


def read_group(path: str, group: str) -> list[tuple[str, str]]:
    """The `name = value` lines of section `[group]` of an `entry_points.txt` (INI)."""
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    found: list[tuple[str, str]] = []
    section = None
    for line in lines:
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, value = line.split("=", 1)
            found.append((name.strip(), value.strip()))
    return found
