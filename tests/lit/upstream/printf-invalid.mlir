// gpu.printf formats the importer refuses, each an error at the op: a conversion C's printf
// has but gpuir does not print (%n, %a, %s: gpu.printf takes no string), one C leaves undefined,
// a width from a value, a conversion of the other kind of value, a count that does not match.
// RUN: not gpu-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: printf-invalid.mlir:9:5: error: importing upstream MLIR: 'gpu.printf' cannot print the conversion '%n'
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%n", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:18:5: error: importing upstream MLIR: 'gpu.printf' cannot print %s (gpu.printf takes no string: its values are integers, index and floats)
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%s", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:27:5: error: importing upstream MLIR: 'gpu.printf' cannot print a width or precision taken from a value (%*d)
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%*d", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:36:5: error: importing upstream MLIR: 'gpu.printf' cannot print the length modifier 'L' of %f (%Lf)
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%Lf", %x : f64
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:45:5: error: importing upstream MLIR: 'gpu.printf' cannot print the length modifier 'l' of %c (%lc)
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%lc", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:54:5: error: importing upstream MLIR: 'gpu.printf' cannot print %#d, which C leaves undefined
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%#d", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:63:5: error: importing upstream MLIR: 'gpu.printf' cannot print %.2c, which C leaves undefined
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%.2c", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:72:5: error: importing upstream MLIR: 'gpu.printf' cannot print %a (hexadecimal floats are not supported (yet))
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%a", %x : f64
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:81:5: error: importing upstream MLIR: 'gpu.printf' cannot print %d of a value of type f64
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%d", %x : f64
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:90:5: error: importing upstream MLIR: 'gpu.printf' cannot print %x of a value of type f16
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%x", %h : f16
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:99:5: error: importing upstream MLIR: 'gpu.printf' cannot print %f of a value of type i32
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%f", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:108:5: error: importing upstream MLIR: 'gpu.printf' cannot print the conversion '%5%'
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%5%"
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:117:5: error: importing upstream MLIR: 'gpu.printf' with 2 conversions for 1 values
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "%d %d", %i : i32
    gpu.return
  }
}
// -----

// CHECK: printf-invalid.mlir:126:5: error: importing upstream MLIR: 'gpu.printf' cannot print the conversion '%'
gpu.module @kernels {
  gpu.func @k(%i: i32, %x: f64, %h: f16) kernel {
    gpu.printf "50%"
    gpu.return
  }
}
