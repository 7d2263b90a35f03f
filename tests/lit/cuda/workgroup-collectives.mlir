// The work-group collectives example on the cuda provider (the NVPTX lowering: shared-memory
// scratch and bar.sync per tree level): exactly the output that Inputs/workgroup_collectives.py
// of the run tests computes from the definitions, as interp and cpu print it.
// RUN: python %S/../run/Inputs/workgroup_collectives.py > %t.expected
// RUN: gpu-run %S/../../../examples/workgroup-collectives.mlir --provider cuda > %t.cuda
// RUN: diff %t.expected %t.cuda
