// Where ktdf-join-product-columns must not join two products on
// mesh_device, although each has 8 columns of the MXU's 16: H1 and H3
// multiply different left operands (X, Y), and H5 shares X with H1 but
// accumulates onto a loaded tile B instead of zero (joined, B's columns
// would have to be fed beside H1's zeros). The three products stay three.

// RUN: ktflow compile %s --arch %examples/devices/mesh_device.mlir --emit=schedule | FileCheck %s
// CHECK-NOT: 64x16xf16
// CHECK-COUNT-3: linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x64xf16>, tensor<64x8xf16>)
// CHECK-NOT: 64x16xf16
// RUN: ktflow run %s --arch %examples/devices/mesh_device.mlir --check | FileCheck %s --check-prefix=SIM
// SIM-NOT: FAIL
// SIM: {{^PASS$}}

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @three_products(%x_ptr: index, %y_ptr: index, %w1_ptr: index,
                            %w3_ptr: index, %w5_ptr: index, %b_ptr: index,
                            %a_ptr: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %col = arith.muli %pid, %c8 : index
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W5 = ktdp.construct_memory_view %w5_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
    %A = ktdp.construct_memory_view %a_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %t1 = ktdp.construct_access_tile %W1[0, %col] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x8xindex>
    %t3 = ktdp.construct_access_tile %W3[0, %col] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x8xindex>
    %t5 = ktdp.construct_access_tile %W5[0, %col] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x8xindex>
    %tb = ktdp.construct_access_tile %B[0, %col] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %y = ktdp.load %ty : <8x64xindex> -> tensor<8x64xf16>
    %w1 = ktdp.load %t1 : <64x8xindex> -> tensor<64x8xf16>
    %w3 = ktdp.load %t3 : <64x8xindex> -> tensor<64x8xf16>
    %w5 = ktdp.load %t5 : <64x8xindex> -> tensor<64x8xf16>
    %b = ktdp.load %tb : <8x8xindex> -> tensor<8x8xf32>
    %acc = tensor.splat %zero : tensor<8x8xf32>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x8xf16>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    %h3 = linalg.matmul ins(%y, %w3 : tensor<8x64xf16>, tensor<64x8xf16>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    %h5 = linalg.matmul ins(%x, %w5 : tensor<8x64xf16>, tensor<64x8xf16>) outs(%b : tensor<8x8xf32>) -> tensor<8x8xf32>
    %ones = tensor.splat %one : tensor<8x8xf32>
    %neg = arith.negf %h1 : tensor<8x8xf32>
    %ex = math.exp %neg : tensor<8x8xf32>
    %den = arith.addf %ones, %ex : tensor<8x8xf32>
    %silu = arith.divf %h1, %den : tensor<8x8xf32>
    %gate = arith.mulf %silu, %h3 : tensor<8x8xf32>
    %sum = arith.addf %gate, %h5 : tensor<8x8xf32>
    %out = arith.truncf %sum : tensor<8x8xf32> to tensor<8x8xf16>
    %ta = ktdp.construct_access_tile %A[0, %col] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x8xindex>
    ktdp.store %out, %ta : tensor<8x8xf16>, <8x8xindex>
    return
  }
}
