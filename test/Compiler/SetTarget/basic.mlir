// RUN: ktflow-opt %s --ktdf-set-target=arch=%examples/devices/spyre_like.mlir | FileCheck %s
// RUN: ktflow-opt %s --arch %examples/devices/mesh_device.mlir | FileCheck %s --check-prefix=MESH
// RUN: ktflow-opt %s --arch %examples/devices/sample_device.mlir --ktdf-import-target | FileCheck %s --check-prefix=IMPORTED

// A kernel without a target gets one importing the file: `global` maps to
// the memory at the root of the device's memory tree, `ct_local` to a core's
// first scratchpad (what `ktflow compile --arch` does).
// CHECK: ktdf_arch.target @spyre_like from "{{.*}}examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
// MESH: ktdf_arch.target @mesh_device from "{{.*}}examples/devices/mesh_device.mlir" memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
// `--arch` runs first, so the pipeline after it sees the device.
// IMPORTED: ktdf_arch.device @sample_device
// IMPORTED: ktdf_arch.target @sample_device memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

module {
  func.func @scale(%x: index, %y: index) attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %row = arith.muli %id, %c32 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tx = ktdp.construct_access_tile %X[%row] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<32xindex>
    %ty = ktdp.construct_access_tile %Y[%row] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<32xindex>
    %v = ktdp.load %tx : !ktdp.access_tile<32xindex> -> tensor<32xf16>
    %s = arith.addf %v, %v : tensor<32xf16>
    ktdp.store %s, %ty : tensor<32xf16>, !ktdp.access_tile<32xindex>
    return
  }
}
