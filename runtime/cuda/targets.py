"""The PTX rules of the cuda provider: which `sm` and PTX ISA version to emit for a device under a
driver (pure functions, tested without a GPU)."""

from __future__ import annotations

PREFERRED_PTX = 80
"""The PTX ISA version (times ten) to emit when the driver accepts it: 8.0, the lowering's
default (CUDA 12.0); older drivers get the newest version they accept, newer `sm`s the version
that introduced them."""

DRIVER_PTX: tuple[tuple[int, int], ...] = (
    (10000, 63), (10010, 64), (10020, 65),
    (11000, 70), (11010, 71), (11020, 72), (11030, 73), (11040, 74), (11050, 75), (11060, 76),
    (11070, 77), (11080, 78),
    (12000, 80), (12010, 81), (12020, 82), (12030, 83), (12040, 84), (12050, 85), (12070, 86),
    (12080, 87), (12090, 88),
    (13000, 90),
)  # fmt: skip
"""(`cuDriverGetVersion`, the newest PTX ISA version times ten that it accepts)."""
PTX_REJECTED = frozenset({"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "CUDA_ERROR_INVALID_PTX"})
"""What the driver says when it rejects the PTX: `load_module` tries an older ISA version."""


def driver_ptx(driver_version: int) -> int:
    """The newest PTX ISA version (times ten) that a driver of `cuDriverGetVersion` accepts (and
    that LLVM can emit); 0 for a driver older than CUDA 10."""
    found = 0
    for version, ptx in DRIVER_PTX:
        if driver_version >= version:
            found = ptx
    return found


def choose_target(capability: tuple[int, int], driver_version: int) -> tuple[int, float]:
    """`(sm, ptx)` for a device of compute `capability` under a driver of `driver_version`:
    the device's own `sm` when LLVM knows it, else the newest one LLVM knows below it (PTX is
    forward compatible: the driver compiles it for the device); `PREFERRED_PTX` when the driver
    accepts it and it is new enough for `sm`. A `ValueError` says why there is none."""
    from gpuir.lowering.nvptx.ptx import MIN_PTX_FOR_SM

    sm = capability[0] * 10 + capability[1]
    supported = [known for known in sorted(MIN_PTX_FOR_SM) if known <= sm]
    if not supported:
        raise ValueError(
            f"the device (compute capability {capability[0]}.{capability[1]}) is older than "
            f"sm_{min(MIN_PTX_FOR_SM)}, the oldest architecture the lowering supports"
        )
    sm = supported[-1]
    needed = MIN_PTX_FOR_SM[sm]
    newest = driver_ptx(driver_version)
    if newest < needed:
        raise ValueError(
            f"the CUDA driver ({driver_version // 1000}.{driver_version % 1000 // 10}) accepts "
            f"PTX ISA up to {newest // 10}.{newest % 10}; sm_{sm} needs {needed // 10}."
            f"{needed % 10}: update the driver"
        )
    chosen = max(PREFERRED_PTX, needed) if max(PREFERRED_PTX, needed) <= newest else newest
    return sm, chosen / 10
