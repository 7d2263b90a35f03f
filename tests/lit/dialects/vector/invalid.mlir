// RUN: gpu-opt %s --verify-diagnostics --split-input-file

// One case per verifier rule of the vector ops gpuir adds (gpuir/dialects/vector_ext.py).

func.func @f(%x: f32) -> vector<2xf32> {
  // expected-error @below {{'vector.from_elements' expects 2 elements for vector<2xf32>, found 1}}
  %v = "vector.from_elements"(%x) : (f32) -> vector<2xf32>
  func.return %v : vector<2xf32>
}

// -----

func.func @f(%x: f32, %i: i32) -> vector<2xf32> {
  // expected-error @below {{'vector.from_elements' expects elements of type f32, found i32}}
  %v = "vector.from_elements"(%x, %i) : (f32, i32) -> vector<2xf32>
  func.return %v : vector<2xf32>
}

// -----

func.func @f(%v: vector<4xf32>) -> vector<4xi32> {
  // expected-error @below {{'vector.shape_cast' keeps the element type: vector<4xf32> to vector<4xi32> changes it}}
  %w = vector.shape_cast %v : vector<4xf32> to vector<4xi32>
  func.return %w : vector<4xi32>
}

// -----

func.func @f(%v: vector<4xf32>) -> vector<2x3xf32> {
  // expected-error @below {{'vector.shape_cast' keeps the number of elements: vector<4xf32> has 4, vector<2x3xf32> 6}}
  %w = vector.shape_cast %v : vector<4xf32> to vector<2x3xf32>
  func.return %w : vector<2x3xf32>
}
