"""Every op of gpuir's dialects reaches every backend: interp runs it, the cpu provider's
lowering and the NVPTX lowering take it (device and memory ops), the compiled host takes it
(host ops), or a pass named here expands it into ops that do. CONTRIBUTING.md, "Adding an op,
end to end", lists the places; this test finds a place that was forgotten.

"Takes it" is read from the source: a lowering folder refers to the op's class (`gpu.ShuffleOp`,
or the class imported by name). A table of the interp impls is read from the machines
themselves."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from gpuir.dialects import btensor, buffer, gpu, mem

ROOT = Path(__file__).resolve().parents[1]
DIALECTS = {"mem": mem.Mem, "gpu": gpu.Gpu, "buffer": buffer.Buffer, "btensor": btensor.BTensor}

EXPANDED = {
    gpu.AllocCopyBlockOp: "passes/expand_gpu_composites.py",
    gpu.AllocCopyAsynOp: "passes/expand_gpu_composites.py",
    gpu.WithStreamsOp: "passes/expand_gpu_composites.py",
    gpu.SyncedScopeOp: "passes/expand_gpu_composites.py",
    gpu.BufAllocCopyOp: "passes/buffer_lower_ptr.py",
    gpu.BufCopyToHostOp: "passes/buffer_lower_ptr.py",
    btensor.MapReduceOp: "passes/lower_btensor_map_reduce.py",
    btensor.MapReducePostOp: "passes/lower_btensor_map_reduce.py",
    btensor.YieldOp: "passes/lower_btensor_map_reduce.py",
    **{op: "passes/buffer_lower_ptr.py" for op in buffer.Buffer.operations},
}
"""Ops that no backend sees: the pass that expands each (gpu-pipeline runs it first)."""

HELD = {
    gpu.YieldOp: (gpu.WithStreamsOp, gpu.SyncedScopeOp),
    btensor.YieldOp: (btensor.MapReduceOp, btensor.MapReducePostOp),
}
"""Terminators: they go wherever the ops that hold them go."""

HOST_ONLY = {mem.PrintMemrefOp}
"""Memory ops that only host code may hold (their verifier or the import says so)."""


def referenced(folders: list[str]) -> set[str]:
    """The dialect classes the Python files under `folders` refer to (`gpu.X`, or `X` imported
    from a dialect), as `dialect.X`."""
    found: set[str] = set()
    for folder in folders:
        found |= referenced_in(folder)
    return found


@cache
def referenced_in(folder: str) -> frozenset[str]:
    """`referenced` of one folder (or file), read once per session: each op's test asks."""
    found: set[str] = set()
    for path in (ROOT / folder).glob("*.py") if not folder.endswith(".py") else [ROOT / folder]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in DIALECTS:
                    found.add(f"{node.value.id}.{node.attr}")
            elif isinstance(node, ast.ImportFrom) and node.module:
                for dialect in DIALECTS:
                    if node.module.startswith(f"gpuir.dialects.{dialect}"):
                        found.update(f"{dialect}.{a.name}" for a in node.names)
    return frozenset(found)


def key(op: type[Operation]) -> str:
    return f"{op.name.split('.')[0]}.{op.__name__}"


def covered(op: type[Operation], refs: set[str]) -> bool:
    """Whether `refs` name `op`, or a base class of it that its dialect defines (a pattern on
    `buffer.ViewOp` takes every view op)."""
    dialect = op.name.split(".")[0]
    return any(
        f"{dialect}.{base.__name__}" in refs
        for base in op.__mro__
        if base.__module__.startswith(f"gpuir.dialects.{dialect}")
    )


@cache
def interp_tables() -> tuple[set[type[Operation]], set[type[Operation]]]:
    from gpuir.runtime.engine.machine import make_machine
    from gpuir.runtime.host import HOST_FUNCTIONS, HostMachine
    from gpuir.runtime.interp import DEVICE_FUNCTIONS

    def table(functions: tuple) -> set[type[Operation]]:
        machine = make_machine(HostMachine, ModuleOp([]), functions)
        return set(machine._impls._impl_dict)  # pyright: ignore[reportPrivateUsage]

    return table(HOST_FUNCTIONS), table(DEVICE_FUNCTIONS)


def kind(op: type[Operation]) -> str:
    """`host`, `device` or `memory` (both), by where the op is defined."""
    if op.__module__ in ("gpuir.dialects.gpu.device", "gpuir.dialects.gpu.mma"):
        return "device"
    if op.__module__ in ("gpuir.dialects.gpu.host", "gpuir.dialects.gpu.launch"):
        return "host"
    return "host" if op in HOST_ONLY else "memory"


OPS = [op for d in DIALECTS.values() for op in d.operations]


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_every_op_reaches_every_backend(op: type[Operation]):
    if op in HELD:
        assert all(holder in EXPANDED or holder in OPS for holder in HELD[op])
        return
    if op in EXPANDED:
        assert covered(op, referenced([EXPANDED[op]])), f"{EXPANDED[op]} does not expand {op.name}"
        return
    host, device = interp_tables()
    where = kind(op)
    missing = []
    if where in ("host", "memory") and op not in host:
        missing.append("interp's host executor (runtime/host.py)")
    if where in ("device", "memory") and op not in device:
        missing.append("interp's work-items (runtime/interp/items.py, runtime/engine/)")
    if where in ("device", "memory"):
        if not covered(op, referenced(["lowering/cpu", "lowering/llvm"])):
            missing.append("the cpu lowering (lowering/cpu/, lowering/llvm/)")
        if not covered(op, referenced(["lowering/nvptx", "lowering/llvm"])):
            missing.append("the NVPTX lowering (lowering/nvptx/, lowering/llvm/)")
    if where in ("host", "memory") and key(op) not in referenced(
        ["lowering/host", "lowering/llvm"]
    ):
        missing.append("the compiled host (lowering/host/)")
    assert missing == [], f"{op.name} does not reach: " + "; ".join(missing)


def test_the_check_sees_a_missing_op():
    assert "gpu.ShuffleOp" in referenced(["lowering/nvptx"])
    assert "gpu.ShuffleOp" not in referenced(["lowering/host"])
