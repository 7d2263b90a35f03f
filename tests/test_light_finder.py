"""scripts/light_editable_finder.py: the finder it writes over setuptools' editable one finds
gpuir and its subpackages where setuptools' does, and imports nothing at start-up."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_script():
    spec = importlib.util.spec_from_file_location(
        "light_editable_finder", ROOT / "scripts" / "light_editable_finder.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROBE = """
import sys
before = set(sys.modules)
import light_finder
light_finder.install()
added = sorted(set(sys.modules) - before - {"light_finder"})
import gpuir.dialects.gpu
print(gpuir.__file__, gpuir.dialects.gpu.__file__, added)
"""


def test_the_light_finder_finds_gpuir_and_imports_nothing(tmp_path):
    script = load_script()
    (tmp_path / "light_finder.py").write_text(script.LIGHT.format(mapping={"gpuir": str(ROOT)}))
    done = subprocess.run(
        [sys.executable, "-S", "-c", PROBE],  # -S: no site, so no installed finder
        cwd=tmp_path,
        env={"PYTHONPATH": f"{tmp_path}:{sysconfig.get_paths()['purelib']}"},  # no .pth read
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == [
        str(ROOT / "__init__.py"),
        str(ROOT / "dialects" / "gpu" / "__init__.py"),
        "[]",
    ]


def test_the_script_rewrites_a_setuptools_finder_with_its_mapping(tmp_path, monkeypatch):
    script = load_script()
    finder = tmp_path / "__editable___gpuir_0_1_0_finder.py"
    finder.write_text(
        "import sys\nfrom pathlib import Path\n"
        "MAPPING: dict[str, str] = {'gpuir': '/somewhere/gpuir'}\nNAMESPACES = {}\n"
    )
    monkeypatch.setattr(script.sysconfig, "get_paths", lambda: {"purelib": str(tmp_path)})
    script.main()
    text = finder.read_text()
    assert "pathlib" not in text and "MAPPING = {'gpuir': '/somewhere/gpuir'}" in text
    script.main()  # idempotent
    assert finder.read_text() == text
