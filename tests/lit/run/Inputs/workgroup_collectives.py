"""The output that examples/workgroup-collectives.mlir must print, computed here from the
definitions (the fixed tree of `gpu.workgroup_reduce` in docs/dialects.md for reduce, the left fold for scan) with numpy.float32 and
Python integers wrapped to i32, independently of gpuir."""

import numpy as np

GROUPS, ITEMS = 2, 100


def tree(values: list, lo: int, hi: int, op):
    if hi - lo == 1:
        return values[lo]
    mid = (lo + hi) // 2
    return op(tree(values, lo, mid, op), tree(values, mid, hi, op))


def left_scan(values: list, op) -> list:
    out = [values[0]]
    for value in values[1:]:
        out.append(op(out[-1], value))
    return out


def i32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def f32_add(a: np.float32, b: np.float32) -> np.float32:
    return np.float32(a + b)


def main() -> None:
    for g in range(GROUPS):
        ks = [ITEMS * g + i for i in range(ITEMS)]
        v = [np.float32(np.float32(1.0) / np.float32(k + 1) + np.float32(1000.0)) for k in ks]
        w = [i32(int(np.fmod(37 * k, 101)) - 50) for k in ks]  # remsi: the sign of 37 k
        print(f"group {g} f32 sum: {tree(v, 0, ITEMS, f32_add)!s}")
        print(f"group {g} f32 scan: {' '.join(str(x) for x in left_scan(v, f32_add))}")
        print(f"group {g} i32 max: {tree(w, 0, ITEMS, max)}")
        scan = left_scan(w, lambda a, b: i32(a + b))
        print(f"group {g} i32 scan: {' '.join(str(x) for x in scan)}")


if __name__ == "__main__":
    main()
