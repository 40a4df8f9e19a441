// RUN: ktflow-opt %s --ktdf-lower-if -split-input-file -verify-diagnostics --allow-unregistered-dialect

// An if whose branches compute the tensors a loop carries cannot become a
// select (the compute unit picks no whole tensors by a scalar condition)
// nor take its users into its branches (they are the loop's yield):
// refused at the if.

func.func @carried_result(%a: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zeros = arith.constant dense<0.0> : tensor<1x64xf16>
  %ones = arith.constant dense<1.0> : tensor<1x64xf16>
  %first = arith.cmpi eq, %pid, %c0 : index
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zeros) -> (tensor<1x64xf16>) {
    // expected-error @+1 {{scf.if with results is supported only when its branches yield values defined outside it or scalars computed from them (it becomes arith.select), or when every user of its results can move into both branches (not a result that leaves its block, such as a loop's carried value)}}
    %next = scf.if %first -> (tensor<1x64xf16>) {
      %p = arith.addf %acc, %ones : tensor<1x64xf16>
      scf.yield %p : tensor<1x64xf16>
    } else {
      %m = arith.subf %acc, %ones : tensor<1x64xf16>
      scf.yield %m : tensor<1x64xf16>
    }
    scf.yield %next : tensor<1x64xf16>
  }
  "test.use"(%sum) : (tensor<1x64xf16>) -> ()
  return
}

// -----

// A store between the if and the store of its result would change places
// with it: refused.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @store_between(%x: index, %y: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %two = arith.constant dense<2.0> : tensor<1x64xf16>
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %first = arith.cmpi eq, %r, %c0 : index
  // expected-error @+1 {{scf.if with results is supported only when}}
  %w = scf.if %first -> (tensor<1x64xf16>) {
    %m = arith.mulf %v, %two : tensor<1x64xf16>
    scf.yield %m : tensor<1x64xf16>
  } else {
    scf.yield %two : tensor<1x64xf16>
  }
  ktdp.store %v, %tx : tensor<1x64xf16>, <1x64xindex>
  ktdp.store %w, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}
