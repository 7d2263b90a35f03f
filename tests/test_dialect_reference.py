"""`docs/dialects.md` is the reference `scripts/dialect_reference.py` makes from the code: it
fails here when an op changed and the file was not made again; and every op of the four
dialects has a section, with an example of its custom syntax (a line of a lit test)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from gpuir.dialects import btensor, buffer, gpu, mem

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "dialect_reference.py"
REFERENCE = ROOT / "docs" / "dialects.md"


def test_the_reference_is_up_to_date():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_op_has_a_section_with_an_example():
    text = REFERENCE.read_text()
    sections = dict(re.findall(r"### `([\w.]+)`\n(.*?)(?=\n### |\Z)", text, re.S))
    dialects = (mem.Mem, gpu.Gpu, buffer.Buffer, btensor.BTensor)
    names = {op.name for d in dialects for op in d.operations}
    assert set(sections) == names
    missing = sorted(name for name, body in sections.items() if "```mlir" not in body)
    assert missing == []
