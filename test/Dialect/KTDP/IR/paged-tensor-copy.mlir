// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// Paged-attention gather copy: X holds 10000 pages of 64 tokens, Idx maps
// (batch, token block) to a page. Y[b, tkv, h, dkv] = X[Idx[b][tkv / 64],
// h, tkv % 64, dkv]. The views take SSA sizes and strides while their memref
// types are static; Y's tile enumerates (b, h, tkv, dkv) through the order
// (d0, d2, d1, d3) so that it matches X's tile, i.e. a transposed store.

// CHECK-DAG: #[[PERM:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>

// CHECK-LABEL: func.func @paged_tensor_copy
func.func @paged_tensor_copy(%x_addr: index, %idx_addr: index, %y_addr: index) attributes {grid = [1]} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c2048 = arith.constant 2048 : index
  %c8192 = arith.constant 8192 : index
  %c10000 = arith.constant 10000 : index
  %c65536 = arith.constant 65536 : index
  %c262144 = arith.constant 262144 : index
  // CHECK: %[[X:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], strides: [65536, 8192, %{{.+}}, 1] {{.+}} : memref<10000x8x64x128xf16>
  %X = ktdp.construct_memory_view %x_addr,
      sizes: [%c10000, %c8, %c64, %c128], strides: [65536, 8192, %c128, 1] {
    coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 9999 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<10000x8x64x128xf16>
  // CHECK: %[[IDX:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [4, 32], strides: [32, 1] {{.+}} : memref<4x32xi32>
  %Idx = ktdp.construct_memory_view %idx_addr, sizes: [4, 32], strides: [32, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<4x32xi32>
  // CHECK: %[[Y:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], strides: [%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] {{.+}} : memref<4x2048x8x128xf16>
  %Y = ktdp.construct_memory_view %y_addr,
      sizes: [%c4, %c2048, %c8, %c128], strides: [%c262144 , %c8192 , %c128, %c1] {
    coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0, d2 >= 0, -d2 + 7 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<4x2048x8x128xf16>
  // CHECK: %[[XT:.+]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[B:.+]], %[[H:.+]], %[[T:.+]], %[[D:.+]]) %[[X]][ind(%[[IDX]][%[[B]], %[[T]] floordiv 64]), (%[[H]]), (%[[T]] mod 64), (%[[D]])] {{.+}} : memref<10000x8x64x128xf16>, memref<4x32xi32> -> !ktdp.access_tile<4x8x2048x128xindex>
  %xt = ktdp.construct_indirect_access_tile intermediate_variables(%b, %h, %tkv, %dkv)
      %X[ind(%Idx[%b, (%tkv floordiv 64)]), (%h), (%tkv mod 64), (%dkv)] {
    variables_space_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 2047 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
    variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
  } : memref<10000x8x64x128xf16>, memref<4x32xi32> -> !ktdp.access_tile<4x8x2048x128xindex>
  // CHECK: %[[YT:.+]] = ktdp.construct_access_tile %[[Y]][0, 0, 0, 0] {access_tile_order = #[[PERM]], access_tile_set = #{{.+}}} : memref<4x2048x8x128xf16> -> !ktdp.access_tile<4x8x2048x128xindex>
  %yt = ktdp.construct_access_tile %Y[0, 0, 0, 0] {
    access_tile_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0, d2 >= 0, -d2 + 7 >= 0, d3 >= 0, -d3 + 127 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
  } : memref<4x2048x8x128xf16> -> !ktdp.access_tile<4x8x2048x128xindex>
  // CHECK: %[[DATA:.+]] = ktdp.load %[[XT]] : <4x8x2048x128xindex> -> tensor<4x8x2048x128xf16>
  %data = ktdp.load %xt : !ktdp.access_tile<4x8x2048x128xindex> -> tensor<4x8x2048x128xf16>
  // CHECK: ktdp.store %[[DATA]], %[[YT]] : tensor<4x8x2048x128xf16>, <4x8x2048x128xindex>
  ktdp.store %data, %yt : tensor<4x8x2048x128xf16>, !ktdp.access_tile<4x8x2048x128xindex>
  return
}
