// How `ktflow interp` chooses and reports its engine (docs/cpu-jit.md).
//
// A run of the compiled tier that hits an error the interpreter reports
// (here a coordinate inside the view's coordinate_set but outside its
// sizes) reruns on the interpreter, which reports it at the op.
// RUN: not ktflow interp %s --func outside_sizes --engine=jit 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: note: engine: interp (jit: an access outside a view's sizes or outside its tensor)
// OUTSIDE: error: 'ktdp.load' op tile 0: coordinate ({{[0-9]+}}) is in the coordinate_set of a view but outside its sizes (64)
//
// Without --engine (auto, the default) the same: the tier runs, hits the
// error, and the interpreter reports it.
// RUN: not ktflow interp %s --func outside_sizes 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: note: engine: interp (jit: an access outside a view's sizes or outside its tensor)
// DEFAULT: error: 'ktdp.load' op tile 0: coordinate
//
// --engine=interp runs the interpreter, saying so.
// RUN: not ktflow interp %s --func outside_sizes --engine=interp 2>&1 | FileCheck %s --check-prefix=INTERP
// INTERP: note: engine: interp{{$}}
// INTERP: error: 'ktdp.load' op tile 0: coordinate
//
// --engine=jit refuses a kernel the tier does not lower, naming why.
// RUN: not ktflow interp %s --func truncate --engine=jit 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: --engine=jit: not lowerable: 'arith.fptosi' (the interpreter saturates, native code does not)
//
// The wall-clock budget and intermediate accounting are the interpreter's:
// they pick it under auto and are an error with --engine=jit. The work
// budget is both engines': the tier charges what the interpreter charges
// (blocks, ops, tensor elements, linalg iteration spaces) and stops where
// it cannot fit; the interpreter then reruns the kernel and reports it.
// RUN: ktflow interp %s --func copy --engine=auto --max-element-ops=100000 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: note: engine: jit
// BUDGET: y: shape=64 dtype=f32
// RUN: not ktflow interp %s --func copy --max-element-ops=100 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: note: engine: interp (jit: the run exceeds the work budget of 100 element operations)
// SMALL: error: 'ktdp.store' op tile 0: the run exceeded the work budget of 100 element operations
//
// A scf.while runs on the tier: each evaluation of its condition draws the
// condition block, and the body with it when the loop goes on. An endless
// one stops at the budget (spin: 2 per iteration, so 500 of 1000).
// RUN: not ktflow interp %s --func spin --max-element-ops=1000 2>&1 | FileCheck %s --check-prefix=SPIN
// SPIN: note: engine: interp (jit: the run exceeds the work budget of 1000 element operations)
// SPIN: error: 'scf.while' op tile 0: the run exceeded the work budget of 1000 element operations
// Tiles run as concurrent tasks draw from the whole budget each; what they
// drew together is compared with it after the run (row_copy's 32 tiles
// draw about 4400 together, about 140 each: each task fits 3000).
// RUN: not ktflow interp %s --func row_copy --max-element-ops=3000 2>&1 | FileCheck %s --check-prefix=TASKS
// TASKS: note: engine: interp (jit: the run exceeds the work budget of 3000 element operations)
// TASKS: error: {{.*}}the run exceeded the work budget of 3000 element operations
// RUN: ktflow interp %s --func row_copy --max-element-ops=30000 2>&1 | FileCheck %s --check-prefix=TASKS-FIT
// TASKS-FIT: note: engine: jit
// TASKS-FIT: y: shape=32x64 dtype=f32
// A bounded one with a branch runs to its end under a budget it fits.
// RUN: ktflow interp %s --func countdown --max-element-ops=100000 --engine=jit 2>&1 | FileCheck %s --check-prefix=COUNTDOWN
// COUNTDOWN: note: engine: jit
// RUN: not ktflow interp %s --func copy --engine=jit --scratchpad-bytes=4096 2>&1 | FileCheck %s --check-prefix=JITBUDGET
// JITBUDGET: error: --scratchpad-bytes applies to the interpreter only (--engine=interp)
//
// A scalar without a value is the interpreter's located error.
// RUN: not ktflow interp %s --func scaled --engine=jit 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: error: argument 's' has no value (pass --arg s=VALUE)
//
// A loop step that is not positive is left to the interpreter too.
// RUN: not ktflow interp %s --func scaled --arg s=0 --engine=jit 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: note: engine: interp (jit: a loop step is not positive)
// STEP: error: 'scf.for' op tile 0: step 0 is not positive
//
// Native code has the interpreter's work budget: each of the kernel's loops
// draws its iterations × (ops in its body) from it as it starts, and one
// that cannot fit runs no iteration. The interpreter then refuses the same
// loop before its first iteration. A loop of 2^62 iterations, a constant
// bound (once, and inside a loop that fits) or a runtime one, ends at once
// instead of running for years.
// RUN: not ktflow interp %s --func endless --engine=jit 2>&1 | FileCheck %s --check-prefix=ENDLESS
// RUN: not ktflow interp %s --func endless_inner 2>&1 | FileCheck %s --check-prefix=ENDLESS
// RUN: not ktflow interp %s --func runtime_trips --arg lo=0 --arg hi=4611686018427387904 2>&1 | FileCheck %s --check-prefix=ENDLESS
// ENDLESS: note: engine: interp (jit: the run exceeds the work budget of 17179869184 element operations)
// ENDLESS: error: 'scf.for' op tile 0: the loop's 4611686018427387904 iterations need at least
//
// A run that fits its budget is untouched: 64 iterations from 2^62, and a
// loop whose bounds run backwards.
// RUN: ktflow interp %s --func runtime_trips --arg lo=4611686018427387904 --arg hi=4611686018427387968 --engine=jit 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: ktflow interp %s --func runtime_trips --arg lo=5 --arg hi=-4611686018427387904 --engine=jit 2>&1 | FileCheck %s --check-prefix=FITS
// FITS: note: engine: jit

#set64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set128 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id = affine_map<(d0) -> (d0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @outside_sizes(%x: index, %y: index) attributes {grid = [1]} {
    %c70 = arith.constant 70 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set128, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %t = ktdp.construct_access_tile %X[%c70] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
    %v = ktdp.load %t : <1xindex> -> tensor<1xf32>
    %u = ktdp.construct_access_tile %Y[0] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
    ktdp.store %v, %u : tensor<1xf32>, <1xindex>
    return
  }
  func.func @copy(%x: index, %y: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %t = ktdp.construct_access_tile %X[0] {access_tile_set = #set64, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<64xindex>
    %v = ktdp.load %t : <64xindex> -> tensor<64xf32>
    %u = ktdp.construct_access_tile %Y[0] {access_tile_set = #set64, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<64xindex>
    ktdp.store %v, %u : tensor<64xf32>, <64xindex>
    return
  }
  func.func @scaled(%x: index, %y: index, %s: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    scf.for %i = %c0 to %c64 step %s {
      %t = ktdp.construct_access_tile %X[%i] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      %v = ktdp.load %t : <1xindex> -> tensor<1xf32>
      %u = ktdp.construct_access_tile %Y[%i] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      ktdp.store %v, %u : tensor<1xf32>, <1xindex>
    }
    return
  }
  func.func @endless(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %huge = arith.constant 4611686018427387904 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    scf.for %i = %c0 to %huge step %c1 {
      %t = ktdp.construct_access_tile %X[0] {access_tile_set = #set64, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<64xindex>
      %v = ktdp.load %t : <64xindex> -> tensor<64xf32>
      %u = ktdp.construct_access_tile %Y[0] {access_tile_set = #set64, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<64xindex>
      ktdp.store %v, %u : tensor<64xf32>, <64xindex>
    }
    return
  }
  func.func @endless_inner(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %huge = arith.constant 4611686018427387904 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      scf.for %i = %c0 to %huge step %c1 {
        %t = ktdp.construct_access_tile %X[%j] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
        %v = ktdp.load %t : <1xindex> -> tensor<1xf32>
        %u = ktdp.construct_access_tile %Y[%j] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
        ktdp.store %v, %u : tensor<1xf32>, <1xindex>
      }
    }
    return
  }
  // Copies X[i mod 64] to Y[i mod 64] for i in [lo, hi).
  func.func @runtime_trips(%x: index, %y: index, %lo: index, %hi: index) attributes {grid = [1]} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    scf.for %i = %lo to %hi step %c1 {
      %k = arith.remui %i, %c64 : index
      %t = ktdp.construct_access_tile %X[%k] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      %v = ktdp.load %t : <1xindex> -> tensor<1xf32>
      %u = ktdp.construct_access_tile %Y[%k] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      ktdp.store %v, %u : tensor<1xf32>, <1xindex>
    }
    return
  }
  func.func @truncate(%x: index, %y: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
    %t = ktdp.construct_access_tile %X[0] {access_tile_set = #set64, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<64xindex>
    %v = ktdp.load %t : <64xindex> -> tensor<64xf32>
    %i = arith.fptosi %v : tensor<64xf32> to tensor<64xi32>
    %u = ktdp.construct_access_tile %Y[0] {access_tile_set = #set64, access_tile_order = #id} : memref<64xi32> -> !ktdp.access_tile<64xindex>
    ktdp.store %i, %u : tensor<64xi32>, <64xindex>
    return
  }
  // Copies X[0], X[4], ..., X[60] to Y: a while loop over the even
  // elements, a branch taking every other one.
  func.func @countdown(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set64, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %end = scf.while (%i = %c0) : (index) -> index {
      %more = arith.cmpi ult, %i, %c64 : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%j: index):
      %r = arith.remui %j, %c4 : index
      %take = arith.cmpi eq, %r, %c0 : index
      scf.if %take {
        %t = ktdp.construct_access_tile %X[%j] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
        %v = ktdp.load %t : <1xindex> -> tensor<1xf32>
        %u = ktdp.construct_access_tile %Y[%j] {access_tile_set = #one, access_tile_order = #id} : memref<64xf32> -> !ktdp.access_tile<1xindex>
        ktdp.store %v, %u : tensor<1xf32>, <1xindex>
      }
      %next = arith.addi %j, %c2 : index
      scf.yield %next : index
    }
    return
  }
  func.func @row_copy(%x: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %t = ktdp.construct_access_tile %X[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %u = ktdp.construct_access_tile %Y[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %u : tensor<1x64xf32>, <1x64xindex>
    return
  }
  func.func @spin() attributes {grid = [1]} {
    %true = arith.constant true
    scf.while : () -> () {
      scf.condition(%true)
    } do {
      scf.yield
    }
    return
  }
}
