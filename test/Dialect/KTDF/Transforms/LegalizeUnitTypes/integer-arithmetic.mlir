// RUN: ktflow-opt %s --ktdf-import-target --ktdf-legalize-unit-types -split-input-file -verify-diagnostics

// Integer arithmetic on tensor data (i8 to i64) in a linalg.generic body is
// computed by the lane's vector unit as it is: an operation the unit has no
// rate for on its type is refused here, before scheduling, at the
// operation (it used to reach the bundle emitter). Index arithmetic
// (computed in f32) and i1 mask logic are not. spyre_like's SFP and
// mesh_device's VPU compute floats only; sample_device's SFU computes i32.

// i32 addition on spyre_like: one error per operation.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @i32_add(%x: tensor<64xi32>, %y: tensor<64xi32>) -> tensor<64xi32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xi32>
    %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<64xi32>, tensor<64xi32>) outs(%e : tensor<64xi32>) {
    ^bb0(%a: i32, %b: i32, %o: i32):
      // expected-error @+1 {{the vector unit 'core/corelet/SFP' of device 'spyre_like' cannot compute arith.addi (elementwise) on i32: it computes elementwise operations on f16, f32}}
      %s = arith.addi %a, %b : i32
      // expected-error @+1 {{cannot compute arith.muli (elementwise) on i32}}
      %m = arith.muli %s, %a : i32
      linalg.yield %m : i32
    } -> tensor<64xi32>
    return %z : tensor<64xi32>
  }
}

// -----

// An i8 -> i16 extension is charged at its result, i16 on mesh_device.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir" memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @i8_widen(%x: tensor<64xi8>) -> tensor<64xi16> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xi16>
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xi8>) outs(%e : tensor<64xi16>) {
    ^bb0(%a: i8, %o: i16):
      // expected-error @+1 {{the vector unit 'tile/VPU' of device 'mesh_device' cannot compute arith.extsi (elementwise) on i16: it computes elementwise operations on}}
      %w = arith.extsi %a : i8 to i16
      linalg.yield %w : i16
    } -> tensor<64xi16>
    return %z : tensor<64xi16>
  }
}

// -----

// An integer sum folding into its accumulator is a reduction.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @i32_row_sum(%x: tensor<4x64xi32>, %init: tensor<4xi32>) -> tensor<4xi32> attributes {grid = [1]} {
    %z = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xi32>) outs(%init : tensor<4xi32>) {
    ^bb0(%a: i32, %acc: i32):
      // expected-error @+1 {{cannot compute arith.addi (reduction) on i32: it computes reduction operations on f16, f32}}
      %s = arith.addi %a, %acc : i32
      linalg.yield %s : i32
    } -> tensor<4xi32>
    return %z : tensor<4xi32>
  }
}

// -----

// i32 arithmetic on a unit with i32 lanes, and on spyre_like a mask from
// index arithmetic (a coordinate compared, its i1 results combined) and
// the i8 data converted to f16, are accepted.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @i32_add_sample(%x: tensor<64xi32>, %y: tensor<64xi32>) -> tensor<64xi32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xi32>
    %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<64xi32>, tensor<64xi32>) outs(%e : tensor<64xi32>) {
    ^bb0(%a: i32, %b: i32, %o: i32):
      %s = arith.addi %a, %b : i32
      %m = arith.muli %s, %a : i32
      linalg.yield %m : i32
    } -> tensor<64xi32>
    return %z : tensor<64xi32>
  }
}

// -----

#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @masked_i8_to_f16(%x: tensor<64xi8>) -> tensor<64xf16> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf16>
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f16
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xi8>) outs(%e : tensor<64xf16>) {
    ^bb0(%a: i8, %o: f16):
      %i = linalg.index 0 : index
      %j = arith.addi %i, %c8 : index
      %lo = arith.cmpi sge, %j, %c32 : index
      %hi = arith.cmpi slt, %i, %c32 : index
      %in = arith.andi %lo, %hi : i1
      %f = arith.sitofp %a : i8 to f16
      %s = arith.select %in, %f, %zero : f16
      linalg.yield %s : f16
    } -> tensor<64xf16>
    return %z : tensor<64xf16>
  }
}
