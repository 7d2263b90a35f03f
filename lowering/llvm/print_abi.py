"""The print buffer's ABI, between device code that `convert-device-printf-to-llvm` makes and
the runtimes that read it (`gpuir.runtime.device_print`): the names of the device module's
globals, its formats attribute, and a record's header. Imports nothing, so that a runtime
reads it without the lowering."""

BUFFER = "__gpuir_print_buffer"
"""`i64`: the address where the records go (the runtime sets it)."""
CAPACITY_GLOBAL = "__gpuir_print_capacity"
"""`i64`: the buffer's bytes (the runtime sets it; 0: no buffer)."""
CURSOR = "__gpuir_print_cursor"
"""`i64`: the bytes claimed so far (the runtime sets it to 0 before a launch)."""
SPILL = "__gpuir_print_spill"
"""`[MAX_VALUES + 1 x i64]`, internal: where a record that does not fit is written (and lost)."""
FORMATS_ATTR = "gpu.print_formats"
"""The device module's print calls by id: `[format, kind, [types]]`."""
MAX_VALUES = 64
"""Values of one print call, at most."""


def record_header(ident: int, count: int) -> int:
    """A record's first slot: the call's id plus 1, times 2^32, plus its number of values
    (never 0: bytes claimed but not written read as 0 and end the records)."""
    return ((ident + 1) << 32) | count


def parse_header(header: int) -> tuple[int, int]:
    """The call id (-1 when the slot holds no record) and the number of values."""
    return (header >> 32) - 1, header & 0xFFFFFFFF
