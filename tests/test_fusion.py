"""fuse-map-reduce, device-resident chaining and merge-init-deinit change how a program runs,
never what it computes: fused and unfused chains, on the GPU path (kernels) and on the CPU path
(loops), give bit-identical results, equal to numpy's float32 operations in the same order, on
the interp provider and on the cpu provider where it exists."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from xdsl.parser import Parser

import gpuir
from gpuir.dialects import gpu, make_context
from gpuir.dialects.btensor import MapReduceBase
from gpuir.passes.fuse_map_reduce import FuseMapReducePass
from gpuir.passes.gpu_pipeline import GPU_PIPELINE
from gpuir.passes.merge_init_deinit import MAX_HOPS, MergeInitDeinitPass
from gpuir.runtime import unavailable_reason

GPU_STAGES = ("lower-btensor-map-reduce", "merge-init-deinit")
PIPELINES = {
    "gpu fused": GPU_PIPELINE,
    "gpu unfused": tuple(s for s in GPU_PIPELINE if s != "fuse-map-reduce"),
    "cpu fused": tuple(s for s in GPU_PIPELINE if s not in GPU_STAGES),
    "cpu unfused": tuple(s for s in GPU_PIPELINE if s not in (*GPU_STAGES, "fuse-map-reduce")),
}
PROVIDERS = [
    pytest.param(
        name,
        marks=pytest.mark.skipif(
            unavailable_reason(name) is not None, reason=str(unavailable_reason(name))
        ),
    )
    for name in ("interp", "cpu")
]


# --- random chains of maps, and the same operations in numpy ----------------------------------


@dataclass
class Chain:
    """A program: maps on `x` (and `u`) of `shape`, each reading the previous result, maybe a
    row sum at the end; `@main` returns every element of the last result."""

    dtype: type[np.floating]
    shape: tuple[int, ...]
    lines: list[str] = field(default_factory=list[str])
    token: int = 0
    names: int = 0

    @property
    def element(self) -> str:
        return "f32" if self.dtype == np.float32 else "f64"

    def buf(self, shape: tuple[int, ...]) -> str:
        return f"!buffer.buf<{'x'.join(map(str, shape))}x{self.element}>"

    def literal(self, value: float) -> str:
        return repr(float(self.dtype(value)))

    def fresh(self) -> str:
        self.names += 1
        return f"%v{self.names}"

    def init(self, values: np.ndarray) -> str:
        name = self.fresh()
        dense = str(values.tolist())  # exact: a float32 is a float64 is a Python float
        tensor = f"tensor<{'x'.join(map(str, self.shape))}x{self.element}>"
        self.lines.append(
            f"%m{self.token + 1}, {name} = buffer.init %m{self.token} dense<{dense}> : {tensor}"
        )
        self.token += 1
        return name

    def map_reduce(
        self, ins: list[str], body: list[str], out_shape: tuple[int, ...], reduce: bool = False
    ) -> str:
        """One op over `shape` reading `ins` at the identity; `body` uses %acc, %e0, %e1, …
        and ends with the value %r."""
        name = self.fresh()
        rank = len(self.shape)
        dims = ", ".join(f"d{i}" for i in range(rank))
        out_dims = ", ".join(f"d{i}" for i in range(len(out_shape)))
        identity = f"affine_map<({dims}) -> ({dims})>"
        args = ", ".join(f"%e{i}: {self.element}" for i in range(len(ins)))
        types = ", ".join(self.buf(self.shape) for _ in ins)
        self.lines += [
            f"%m{self.token + 1}, {name} = btensor.map_reduce %m{self.token} "
            f"ins({', '.join(ins)} : {types}) init(%zero : {self.element}) "
            f"{{out_rank = {len(out_shape)} : i64, shape = array<i64: {', '.join(map(str, self.shape))}>, "
            f"maps = [{', '.join(identity for _ in ins)}], "
            f"out_map = affine_map<({out_dims}) -> ({out_dims})>}} combiner {{",
            f"^bb0(%acc: {self.element}, {args}):",
            *body,
            f"  btensor.yield %r : {self.element}",
            f"}} : {self.buf(out_shape)}",
        ]
        self.token += 1
        return name

    def text(self, result: str, out_shape: tuple[int, ...]) -> str:
        reads, names = [], []
        for k, index in enumerate(np.ndindex(*out_shape)):
            indices = ", ".join(f"%c{i}" for i in index)
            reads.append(
                f"%m{self.token + 1}, %out{k} = buffer.read %m{self.token}, {result}[{indices}] "
                f": {self.buf(out_shape)}"
            )
            names.append(f"%out{k}")
            self.token += 1
        count = int(np.prod(out_shape))
        consts = [f"%c{i} = arith.constant {i} : index" for i in range(max(self.shape))]
        results = ", ".join(["!mem.M<0>"] + [self.element] * count)
        body = [
            f"%zero = arith.constant 0.0 : {self.element}",
            *consts,
            *self.lines,
            *reads,
            f"func.return %m{self.token}, {', '.join(names)} : {results}",
        ]
        return (
            f"func.func @main(%m0: !mem.M<0>) -> ({results}) {{\n  " + "\n  ".join(body) + "\n}\n"
        )


BINARY = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide}


def random_chain(seed: int) -> tuple[str, np.ndarray]:
    """A program and the numpy result of the same float operations in the same order."""
    rng = random.Random(seed)
    dtype = rng.choice([np.float32, np.float32, np.float64])
    shape = rng.choice([(rng.randint(1, 12),), (rng.randint(1, 4), rng.randint(1, 5))])
    chain = Chain(dtype, shape)
    generator = np.random.default_rng(seed)
    x_values = (generator.standard_normal(shape) * 3).astype(dtype)
    u_values = (generator.standard_normal(shape) * 3).astype(dtype)
    x, u = chain.init(x_values), chain.init(u_values)
    current, value = x, x_values
    for _ in range(rng.randint(2, 4)):
        op = rng.choice(list(BINARY))
        other = rng.choice(["const", "x", "u"])
        if other == "const":
            constant = dtype(rng.choice([0.1, 1.5, -3.25, 7.0, 1e-3]))
            ins = [current]
            body = [
                f"  %k = arith.constant {chain.literal(constant)} : {chain.element}",
                f"  %r = arith.{op} %e0, %k : {chain.element}",
            ]
            value = BINARY[op](value, constant)
        else:
            if op == "divf":
                op = "mulf"  # no division by a value that may be near zero
            ins = [current, x if other == "x" else u]
            body = [f"  %r = arith.{op} %e0, %e1 : {chain.element}"]
            value = BINARY[op](value, x_values if other == "x" else u_values)
        current = chain.map_reduce(ins, body, shape)
    out_shape = shape
    if len(shape) == 2 and rng.random() < 0.5:  # a row sum, folded in order
        out_shape = shape[:1]
        body = [f"  %r = arith.addf %acc, %e0 : {chain.element}"]
        current = chain.map_reduce([current], body, out_shape)
        sums = np.zeros(out_shape, dtype)
        for k in range(shape[1]):
            sums = sums + value[:, k]
        value = sums
    return chain.text(current, out_shape), value.astype(dtype).reshape(-1)


def run(text: str, pipeline: tuple[str, ...], provider: str) -> np.ndarray:
    program = gpuir.compile(text, provider=provider, pipeline=",".join(pipeline))
    results = program.main()
    return np.array(results if isinstance(results, tuple) else [results])


def bits(values: np.ndarray) -> list[int]:
    return values.view(np.uint32 if values.dtype == np.float32 else np.uint64).tolist()


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("seed", range(12))
def test_random_chains_are_bit_identical(seed: int, provider: str):
    text, expected = random_chain(seed)
    for name, pipeline in PIPELINES.items():
        found = run(text, pipeline, provider)
        assert found.dtype == expected.dtype, name
        assert bits(found) == bits(expected), f"{name}\n{text}"


def test_random_chains_fuse_into_one_op():
    for seed in range(12):
        text, _ = random_chain(seed)
        module = Parser(make_context(), text).parse_module()
        FuseMapReducePass().apply(make_context(), module)
        assert sum(isinstance(op, MapReduceBase) for op in module.walk()) == 1, text


# --- the example -------------------------------------------------------------------------------

EXAMPLE = Path(__file__).parent.parent / "examples" / "map_chain.mlir"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_map_chain_fused_and_unfused_print_the_same(provider: str, capsys):
    outputs = []
    for pipeline in PIPELINES.values():
        gpuir.compile(EXAMPLE, provider=provider, pipeline=",".join(pipeline)).main()
        outputs.append(capsys.readouterr().out)
    assert outputs == ["0.00, 3.00, 10.00, 21.00, 1.00, 10.00, 1.00, 0.12, \n"] * 4


@pytest.mark.parametrize(("pipeline", "launches"), [("gpu fused", 1), ("gpu unfused", 3)])
def test_map_chain_launches_and_sessions(pipeline: str, launches: int):
    program = gpuir.compile(EXAMPLE, pipeline=",".join(PIPELINES[pipeline]))
    ops = list(program.module.walk())
    assert sum(isinstance(op, gpu.LaunchOp) for op in ops) == launches
    assert sum(isinstance(op, gpu.AutoInitOp) for op in ops) == 1
    assert not any(isinstance(op, gpu.BufAllocCopyOp | gpu.AllocCopyBlockOp) for op in ops)
    copies = [op for op in ops if isinstance(op, gpu.CopyToDeviceBlockOp | gpu.CopyToHostBlockOp)]
    assert len(copies) == (2 if launches == 1 else 3)  # x up (twice unfused), w down


# --- merge-init-deinit's hop limit --------------------------------------------------------------


def sessions_with_hops(hops: int) -> str:
    lines = ["%a0, %a1, %a4 = gpu.auto_init %m", "%t0 = gpu.auto_deinit %a0, %a1, %a4"]
    for i in range(hops):
        lines.append(f"%t{i + 1}, %v{i} = mem.load %t{i}, %h : !mem.ptr<i32, 0>")
    lines += [f"%g0, %g1, %g4 = gpu.auto_init %t{hops}", "%k0 = gpu.auto_deinit %g0, %g1, %g4"]
    body = "\n  ".join([*lines, "func.return %k0 : !mem.M<0>"])
    return f"func.func @f(%m: !mem.M<0>, %h: !mem.ptr<i32, 0>) -> !mem.M<0> {{\n  {body}\n}}"


@pytest.mark.parametrize(("hops", "merged"), [(0, True), (MAX_HOPS, True), (MAX_HOPS + 1, False)])
def test_merge_init_deinit_traces_at_most_max_hops(hops: int, merged: bool):
    module = Parser(make_context(), sessions_with_hops(hops)).parse_module()
    MergeInitDeinitPass().apply(make_context(), module)
    module.verify()
    inits = sum(isinstance(op, gpu.AutoInitOp) for op in module.walk())
    assert inits == (1 if merged else 2)
