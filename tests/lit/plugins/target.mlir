// A plugin's target (Inputs/count_target.py) is one of gpu-opt's -t targets once the plugin is
// loaded (--load-pass-plugin or $GPUIR_PLUGINS); without it, the target is unknown.
// RUN: gpu-opt %s --load-pass-plugin=%S/Inputs/count_target.py -t count-ops | filecheck %s
// RUN: env GPUIR_PLUGINS=%S/Inputs/count_target.py gpu-opt %s -t count-ops | filecheck %s
// RUN: not gpu-opt %s -t count-ops 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK:   3 ops
// UNKNOWN: count-ops

func.func @f() {
  func.return
}
