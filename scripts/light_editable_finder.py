"""Make the editable install's start-up cost nothing: `pip install -e .` puts a finder module in
site-packages that every Python of the environment imports at start-up (its `.pth` file does),
and setuptools' finder imports pathlib and more: about 25 ms of each process's start, paid a
thousand times by a lit run (every `gpu-opt`, `gpu-run` and `filecheck` in a RUN line). This
rewrites that module with one that does the same for gpuir (the package `gpuir` is the
repository root; its subpackages are found from there) with what Python has loaded already.

    python scripts/light_editable_finder.py     # after pip install -e . (make does it)

It changes nothing where the install is not editable, and is idempotent.
"""

from __future__ import annotations

import ast
import glob
import os
import sysconfig

LIGHT = '''"""gpuir's editable finder (scripts/light_editable_finder.py wrote it over setuptools' own):
the same mapping, found with what Python has loaded at start-up already."""

import sys

from _frozen_importlib_external import spec_from_file_location

MAPPING = {mapping!r}
LIGHT = True


class _GpuirFinder:
    @staticmethod
    def find_spec(fullname, path=None, target=None):
        root = MAPPING.get(fullname)
        if root is None:
            return None
        init = root + "/__init__.py"
        return spec_from_file_location(fullname, init, submodule_search_locations=[root])


def install():
    if _GpuirFinder not in sys.meta_path:
        sys.meta_path.append(_GpuirFinder)
'''


def main() -> None:
    site = sysconfig.get_paths()["purelib"]
    for path in glob.glob(os.path.join(site, "__editable___gpuir_*_finder.py")):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tree = ast.parse(text)
        mapping = None
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                if isinstance(target, ast.Name) and target.id == "MAPPING":
                    mapping = ast.literal_eval(node.value)  # type: ignore[arg-type]
        if mapping is None:
            continue
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(LIGHT.format(mapping=mapping))
        os.replace(path + ".tmp", path)
        for cached in glob.glob(os.path.join(site, "__pycache__", "__editable___gpuir_*")):
            os.remove(cached)


if __name__ == "__main__":
    main()
