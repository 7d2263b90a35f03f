// RUN: gpu-opt %s -t dot | filecheck %s
// RUN: gpu-opt %s -p 'split-apply{host-pipeline="" device-pipeline=""}' -t dot | filecheck %s --check-prefix=SPLIT

// The program as a Graphviz digraph: functions with their kind, call edges, and a bold edge per
// launch with its grid (constants as numbers, other values by SSA name), stream and shared
// memory. After split-apply, each module is a cluster.

func.func private @log(i32) -> ()

func.func @square(%x: i32) -> i32 {
  %y = arith.muli %x, %x : i32
  func.return %y : i32
}

func.func @item_value(%item: index) -> i32 {
  %i = arith.index_cast %item : index to i32
  %y = func.call @square(%i) : (i32) -> i32
  func.return %y : i32
}

func.func @fill(%m1: !mem.M<1>, %m3: !mem.M<3>, %m4: !mem.M<4>, %m5: !mem.M<5>,
                %group: index, %item: index, %smem: !mem.ptr<!mem.array<? x i32>, 3>,
                %out: !mem.ptr<i32, 1>)
    -> (!mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>) {
  %v = func.call @item_value(%item) : (index) -> i32
  %w = func.call @square(%v) : (i32) -> i32
  %s1 = mem.store %m1, %out, %w : !mem.ptr<i32, 1>
  func.return %s1, %m3, %m4, %m5 : !mem.M<1>, !mem.M<3>, !mem.M<4>, !mem.M<5>
}

func.func @main(%m: !mem.M<0>, %n: index, %stream: !gpu.stream) -> !mem.M<0> {
  %m0, %m1, %m4 = gpu.init %m
  %default = gpu.default_stream
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %d1, %out = gpu.alloc.block %m1 : !mem.ptr<i32, 1>
  %a0, %a1, %a4 = gpu.launch @fill grid(%c1, %c32) stream(%default) smem(!mem.array<? x i32>, %c32)
      mems(%m0, %d1, %m4) args(%out) : (!mem.ptr<i32, 1>)
  %b0, %b1, %b4 = gpu.launch @fill grid(%n, %c32) stream(%stream) smem(!mem.array<? x i32>, %n)
      mems(%a0, %a1, %a4) args(%out) : (!mem.ptr<i32, 1>)
  %seven = arith.constant 7 : i32
  %sq = func.call @square(%seven) : (i32) -> i32
  func.call @log(%sq) : (i32) -> ()
  func.call @log(%seven) : (i32) -> ()
  %f1 = gpu.free.block %b1, %out : !mem.ptr<i32, 1>
  %e = gpu.deinit %b0, %f1, %b4
  func.return %e : !mem.M<0>
}

// CHECK:      digraph gpuir {
// CHECK-NEXT:   graph [fontname="monospace"];
// CHECK-NEXT:   node [shape=box, fontname="monospace"];
// CHECK-NEXT:   edge [fontname="monospace"];
// CHECK-NEXT:   "@log" [label="@log\nhost, declaration"];
// CHECK-NEXT:   "@square" [label="@square\nhost+device", style="rounded,dashed"];
// CHECK-NEXT:   "@item_value" [label="@item_value\ndevice", style="rounded"];
// CHECK-NEXT:   "@fill" [label="@fill\nkernel", peripheries=2];
// CHECK-NEXT:   "@main" [label="@main\nhost"];
// CHECK-NEXT:   "@item_value" -> "@square" [label="call"];
// CHECK-NEXT:   "@fill" -> "@item_value" [label="call"];
// CHECK-NEXT:   "@fill" -> "@square" [label="call"];
// CHECK-NEXT:   "@main" -> "@fill" [label="launch grid(1, 32)\nstream default\nsmem !mem.array<? x i32> (32)", style=bold];
// CHECK-NEXT:   "@main" -> "@fill" [label="launch grid(%n, 32)\nstream %stream\nsmem !mem.array<? x i32> (%n)", style=bold];
// CHECK-NEXT:   "@main" -> "@square" [label="call"];
// CHECK-NEXT:   "@main" -> "@log" [label="call"];
// CHECK-NEXT: }

// SPLIT:      digraph gpuir {
// SPLIT-NEXT:   graph [fontname="monospace"];
// SPLIT-NEXT:   node [shape=box, fontname="monospace"];
// SPLIT-NEXT:   edge [fontname="monospace"];
// SPLIT-NEXT:   subgraph cluster_host {
// SPLIT-NEXT:     label="@host";
// SPLIT-NEXT:     "@host::@log" [label="@log\nhost, declaration"];
// SPLIT-NEXT:     "@host::@square" [label="@square\nhost"];
// SPLIT-NEXT:     "@host::@main" [label="@main\nhost"];
// SPLIT-NEXT:   }
// SPLIT-NEXT:   subgraph cluster_device {
// SPLIT-NEXT:     label="@device";
// SPLIT-NEXT:     "@device::@square" [label="@square\ndevice", style="rounded"];
// SPLIT-NEXT:     "@device::@item_value" [label="@item_value\ndevice", style="rounded"];
// SPLIT-NEXT:     "@device::@fill" [label="@fill\nkernel", peripheries=2];
// SPLIT-NEXT:   }
// SPLIT-NEXT:   "@host::@main" -> "@device::@fill" [label="launch grid(1, 32)\nstream default\nsmem !mem.array<? x i32> (32)", style=bold];
// SPLIT-NEXT:   "@host::@main" -> "@device::@fill" [label="launch grid(%n, 32)\nstream %stream\nsmem !mem.array<? x i32> (%n)", style=bold];
// SPLIT-NEXT:   "@host::@main" -> "@host::@square" [label="call"];
// SPLIT-NEXT:   "@host::@main" -> "@host::@log" [label="call"];
// SPLIT-NEXT:   "@device::@item_value" -> "@device::@square" [label="call"];
// SPLIT-NEXT:   "@device::@fill" -> "@device::@item_value" [label="call"];
// SPLIT-NEXT:   "@device::@fill" -> "@device::@square" [label="call"];
// SPLIT-NEXT: }
