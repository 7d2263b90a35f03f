// RUN: gpu-opt %s | filecheck %s
// RUN: ROUNDTRIP
// RUN: gpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: gpu-opt %s --split-input-file --verify-diagnostics -p cse 2>&1 | filecheck %s --check-prefix=CSE

// gpu.fence at the three scopes, and gpu.lane_id (pure: cse merges two of them).
%m1, %m3 = "test.op"() : () -> (!mem.M<1>, !mem.M<3>)
%a1, %a3 = gpu.fence "workgroup" %m1, %m3
%b1, %b3 = gpu.fence "device" %a1, %a3
%c1, %c3 = gpu.fence "system" %b1, %b3 {tag}
%lane = gpu.lane_id
%again = gpu.lane_id
"test.op"(%lane, %again) : (index, index) -> ()

// CHECK:      %a1, %a3 = gpu.fence "workgroup" %m1, %m3
// CHECK-NEXT: %b1, %b3 = gpu.fence "device" %a1, %a3
// CHECK-NEXT: %c1, %c3 = gpu.fence "system" %b1, %b3 {tag}
// CHECK-NEXT: %lane = gpu.lane_id
// CHECK-NEXT: %again = gpu.lane_id

// GENERIC: "gpu.fence"(%m1, %m3) <{scope = "workgroup"}> : (!mem.M<1>, !mem.M<3>) -> (!mem.M<1>, !mem.M<3>)
// GENERIC: "gpu.lane_id"() : () -> index

// CSE:      %lane = gpu.lane_id
// CSE-NEXT: "test.op"(%lane, %lane)
