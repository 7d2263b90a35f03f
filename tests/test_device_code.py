"""The device-code analysis (`gpuir.passes.device_code`): MimIR's rule that device code is exactly
the launched kernels plus every function they call, transitively."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from gpuir.dialects import make_context
from gpuir.passes.device_code import (
    device_functions,
    functions,
    host_functions,
    is_device_function,
    kernels,
    launched_name,
)

TOKENS = "!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>"
KERNEL_PARAMS = (
    "%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>, %g: index, %i: index"
)


def kernel(name: str, body: str = "", attributes: str = "") -> str:
    """A kernel `name` with `body` in front of its return of the entry tokens."""
    return f"""
    func.func @{name}({KERNEL_PARAMS}) -> ({TOKENS}) {attributes} {{
      {body}
      func.return %m1, %m3, %m4, %m5 : {TOKENS}
    }}"""


def helper(name: str, *callees: str) -> str:
    """A function `name` (!mem.M<1> -> !mem.M<1>) that calls `callees` in order."""
    calls = "\n".join(
        f"%t{n + 1} = func.call @{c}(%t{n}) : (!mem.M<1>) -> !mem.M<1>"
        for n, c in enumerate(callees)
    )
    return f"""
    func.func @{name}(%t0: !mem.M<1>) -> !mem.M<1> {{
      {calls}
      func.return %t{len(callees)} : !mem.M<1>
    }}"""


def main(*launched: str, calls: tuple[str, ...] = ()) -> str:
    """A host `@main` that calls `calls` on its global token, then launches `launched`."""
    lines = [
        "%m0, %m1, %m4 = gpu.init %m",
        "%s = gpu.default_stream",
        "%one = arith.constant 1 : index",
    ]
    token = "%m1"
    for n, callee in enumerate(calls):
        lines.append(f"%c{n} = func.call @{callee}({token}) : (!mem.M<1>) -> !mem.M<1>")
        token = f"%c{n}"
    m0, m4 = "%m0", "%m4"
    for n, k in enumerate(launched):
        lines.append(
            f"%a{n}, %b{n}, %d{n} = gpu.launch {k} grid(%one, %one) stream(%s) "
            f"mems({m0}, {token}, {m4})"
        )
        m0, token, m4 = f"%a{n}", f"%b{n}", f"%d{n}"
    lines.append(f"%done = gpu.deinit {m0}, {token}, {m4}")
    body = "\n      ".join(lines)
    return f"""
    func.func @main(%m: !mem.M<0>) -> !mem.M<0> {{
      {body}
      func.return %done : !mem.M<0>
    }}"""


def call_in_kernel(*callees: str) -> str:
    """A kernel body that calls `callees` in order, threading the global token through them."""
    lines = []
    token = "%m1"
    for n, callee in enumerate(callees):
        lines.append(f"%k{n} = func.call @{callee}({token}) : (!mem.M<1>) -> !mem.M<1>")
        token = f"%k{n}"
    return "\n      ".join(lines)


def parse(*functions_text: str, verify: bool = True) -> ModuleOp:
    module = Parser(make_context(), "\n".join(functions_text)).parse_module()
    if verify:  # the analysis runs on valid programs; only a missing callee is not one
        module.verify()
    return module


def test_launched_and_marked_functions_are_kernels():
    module = parse(kernel("k"), kernel("marked", attributes="attributes {gpu.kernel}"), main("@k"))
    assert kernels(module) == {"k", "marked"}
    assert device_functions(module) == {"k", "marked"}
    assert host_functions(module) == {"main"}


def test_an_unlaunched_kernel_shaped_function_is_host_code():
    module = parse(kernel("k"), kernel("unused"), main("@k"))
    assert device_functions(module) == {"k"}
    assert host_functions(module) == {"main", "unused"}


def test_callees_are_device_code_transitively():
    module = parse(
        kernel("k", call_in_kernel("a")),
        helper("a", "b"),
        helper("b", "c"),
        helper("c"),
        helper("host_only"),
        main("@k", calls=("host_only",)),
    )
    assert device_functions(module) == {"k", "a", "b", "c"}
    assert host_functions(module) == {"main", "host_only"}


def test_calls_in_nested_regions_count():
    body = """%cond = arith.constant true
      %r = scf.if %cond -> (!mem.M<1>) {
        %x = func.call @nested(%m1) : (!mem.M<1>) -> !mem.M<1>
        scf.yield %x : !mem.M<1>
      } else {
        scf.yield %m1 : !mem.M<1>
      }"""
    module = parse(kernel("k", body), helper("nested"), main("@k"))
    assert device_functions(module) == {"k", "nested"}


def test_a_helper_called_from_both_sides_is_device_and_host_code():
    module = parse(
        kernel("k", call_in_kernel("both")),
        helper("both", "leaf"),
        helper("leaf"),
        main("@k", calls=("both",)),
    )
    funcs = functions(module)
    assert device_functions(module) == {"k", "both", "leaf"}
    assert host_functions(module) == {"main", "both", "leaf"}
    assert is_device_function(funcs["both"])
    assert not is_device_function(funcs["main"])


def test_recursion_terminates():
    module = parse(
        kernel("k", call_in_kernel("self_rec", "even")),
        helper("self_rec", "self_rec"),
        helper("even", "odd"),
        helper("odd", "even"),
        helper("host_rec", "host_rec"),
        main("@k", calls=("host_rec",)),
    )
    assert device_functions(module) == {"k", "self_rec", "even", "odd"}
    assert host_functions(module) == {"main", "host_rec"}


def test_a_kernel_that_calls_itself():
    body = f"%again:4 = func.call @k(%m1, %m3, %m4, %m5, %g, %i) : ({TOKENS}, index, index) -> ({TOKENS})"
    module = parse(kernel("k", body), main("@k"))
    assert device_functions(module) == {"k"}


def test_a_launch_of_a_missing_function():
    module = parse(kernel("k"), main("@k", "@missing"), verify=False)
    assert kernels(module) == {"k", "missing"}
    assert device_functions(module) == {"k"}
    assert host_functions(module) == {"main"}


def test_a_call_of_a_missing_function_is_ignored():
    module = parse(kernel("k", call_in_kernel("declared_nowhere")), main("@k"), verify=False)
    assert device_functions(module) == {"k"}


def test_launched_name_of_a_nested_reference():
    assert launched_name(SymbolRefAttr("k")) == "k"
    assert launched_name(SymbolRefAttr("device", ["k"])) == "k"


def test_after_split_device_module_holds_device_code():
    text = f"""
    builtin.module @host {{
      {main("@device::@k")}
      {helper("shared")}
    }}
    builtin.module @device attributes {{gpu.device}} {{
      {kernel("k", call_in_kernel("shared"), attributes="attributes {gpu.kernel}")}
      {helper("shared")}
    }}"""
    root = parse(text)
    host, device = (op for op in root.ops if isinstance(op, ModuleOp))
    # @host has no @k: the launch names nothing there, and its functions are host code.
    assert device_functions(host) == set()
    assert host_functions(host) == {"main", "shared"}
    assert not any(is_device_function(f) for f in functions(host).values())
    assert device_functions(device) == {"k", "shared"}
    assert all(is_device_function(f) for f in functions(device).values())


def test_a_function_outside_a_module_is_not_device_code():
    func = FuncOp("f", ((), ()))
    assert not is_device_function(func)
