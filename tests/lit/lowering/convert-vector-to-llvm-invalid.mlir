// RUN: gpu-opt %s -p convert-vector-to-llvm --verify-diagnostics --split-input-file

// A row at a dynamic position would be a shuffle with a mask known only at run time.
builtin.module attributes {gpu.device} {
  func.func @f(%v: vector<2x2xf32>, %i: index) -> vector<2xf32> {
    // expected-error @below {{'vector.extract' of a vector at a dynamic position is not lowered}}
    %r = vector.extract %v[%i] : vector<2xf32> from vector<2x2xf32>
    func.return %r : vector<2xf32>
  }
}

// -----

builtin.module attributes {gpu.device} {
  func.func @f(%v: vector<2x2xf32>, %r: vector<2xf32>, %i: index) -> vector<2x2xf32> {
    // expected-error @below {{'vector.insert' of a vector at a dynamic position is not lowered}}
    %w = vector.insert %r, %v [%i] : vector<2xf32> into vector<2x2xf32>
    func.return %w : vector<2x2xf32>
  }
}

// -----

// LLVM's shufflevector takes two operands of one type.
builtin.module attributes {gpu.device} {
  func.func @f(%v: vector<4xf32>, %w: vector<2xf32>) -> vector<2xf32> {
    // expected-error @below {{'vector.shuffle' of vector<4xf32> and vector<2xf32> is not lowered}}
    %s = vector.shuffle %v, %w [0, 5] : vector<4xf32>, vector<2xf32>
    func.return %s : vector<2xf32>
  }
}

// -----

// Bitwise kinds are for integers.
builtin.module attributes {gpu.device} {
  func.func @f(%v: vector<4xf32>) -> f32 {
    // expected-error @below {{'vector.reduction' <and> on vector<4xf32> is not lowered}}
    %r = vector.reduction <and>, %v : vector<4xf32> into f32
    func.return %r : f32
  }
}
