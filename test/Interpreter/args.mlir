// Binding of scalar and runtime_arg arguments (--arg) and of inputs
// (--input): validation against granularity and upperbound, and clear
// errors (exit code 1) for everything malformed.
//
// RUN: ktflow interp %s --arg M=64 --arg alpha=0.5 --input x=value:2 | FileCheck %s --check-prefix=OK
// OK: y: shape=64x4 dtype=f32 min=1 max=1 mean=1
// Positions name arguments too.
// RUN: ktflow interp %s --arg 0=32 --arg 1=-2 --input 2=value:2 | FileCheck %s --check-prefix=POS
// POS: y: shape=32x4 dtype=f32 min=-4 max=-4 mean=-4
//
// RUN: sh -c 'ktflow interp %s --arg M=100 --arg alpha=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=GRAN
// GRAN: ktflow: error: --arg M=100: runtime argument 'M' = 100 is not a multiple of its granularity 32
// GRAN: exit=1
// RUN: sh -c 'ktflow interp %s --arg M=2048 --arg alpha=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=UPPER
// UPPER: ktflow: error: --arg M=2048: runtime argument 'M' = 2048 exceeds its upperbound 1024
// UPPER: exit=1
// A runtime_arg is a launch-time size: positive, as `run` and `sim` demand.
// RUN: sh -c 'ktflow interp %s --arg M=0 --arg alpha=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: ktflow: error: --arg M=0: runtime argument 'M' = 0 must be positive
// ZERO: exit=1
// RUN: sh -c 'ktflow interp %s --arg M=-32 --arg alpha=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: ktflow: error: --arg M=-32: runtime argument 'M' = -32 must be positive
// NEGATIVE: exit=1
// RUN: sh -c 'ktflow interp %s --arg alpha=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: args.mlir:[[@LINE+45]]:20: error: argument 'M' has no value (pass --arg M=VALUE)
// MISSING: exit=1
// RUN: sh -c 'ktflow interp %s --arg M=lots --arg alpha=1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: ktflow: error: --arg M=lots: 'M' expects an integer, got 'lots'
// NAN: exit=1
// RUN: sh -c 'ktflow interp %s --arg M=32 --arg alpha=x1; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FLOAT
// FLOAT: ktflow: error: --arg alpha=x1: 'alpha' expects a number, got 'x1'
// RUN: sh -c 'ktflow interp %s --arg x=5; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: ktflow: error: --arg x=5: 'x' is the start address of a tensor, which the interpreter chooses; give its contents with --input
// TENSOR: exit=1
// RUN: sh -c 'ktflow interp %s --arg nosuch=5; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: ktflow: error: --arg nosuch=5: @scale has no argument 'nosuch' (arguments: M, alpha, x, y)
// NAME: exit=1
// RUN: sh -c 'ktflow interp %s --arg M; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: ktflow: error: --arg expects NAME=VALUE, got 'M'
// SYNTAX: exit=1
// RUN: sh -c 'ktflow interp %s --input M=zeros; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOTTENSOR
// NOTTENSOR: ktflow: error: --input M=zeros: 'M' is not a tensor argument (no memory view is built on it); give its value with --arg
// RUN: sh -c 'ktflow interp %s --input x=bogus; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: ktflow: error: --input x=bogus: invalid input 'bogus' (expected FILE.npy, random, randn, zeros, value:V, range:LO:HI or seq:LO:HI)
// SPEC: exit=1
// RUN: sh -c 'ktflow interp %s --input x=range:5:2; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: ktflow: error: --input x=range:5:2: invalid 'range:5:2' (expected range:LO:HI with LO < HI, both 64-bit integers)
// RUN: sh -c 'ktflow interp %s --input x=value:; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: ktflow: error: --input x=value:: invalid value in 'value:'
// NOVALUE: exit=1
// RUN: sh -c 'ktflow interp %s --input x=%t.missing.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: ktflow: error: --input x={{.*}}missing.npy: cannot read '{{.*}}missing.npy'
// FILE: exit=1
// RUN: printf 'not a numpy file' > %t.bad.npy
// RUN: sh -c 'ktflow interp %s --input x=%t.bad.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BADNPY
// BADNPY: invalid .npy data: missing \x93NUMPY magic
// BADNPY: exit=1
// RUN: sh -c 'ktflow interp %s --output y; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: ktflow: error: --output expects NAME=VALUE, got 'y'
// RUN: sh -c 'ktflow interp %s --func nosuch; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=FUNC
// FUNC: ktflow: error: no function @nosuch with a body in the module
// FUNC: exit=1
// RUN: sh -c 'ktflow interp %s --scratchpad-bytes 0; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SCRATCH
// SCRATCH: ktflow: error: --scratchpad-bytes must be positive
// SCRATCH: exit=1

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale(%M: !ktdp.runtime_arg<index, granularity=32, upperbound=1024>, %alpha: f32, %x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %m = ktdp.runtime_arg_extract value from %M : !ktdp.runtime_arg<index, granularity=32, upperbound=1024> -> index
    %X = ktdp.construct_memory_view %x, sizes: [%m, 4], strides: [4, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x4xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [%m, 4], strides: [4, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x4xf32>
    %tx = ktdp.construct_access_tile %X[%c0, %c0] symbols(%m) {access_tile_set = #rows, access_tile_order = #id} : memref<?x4xf32> -> !ktdp.access_tile<?x4xindex>
    %ty = ktdp.construct_access_tile %Y[%c0, %c0] symbols(%m) {access_tile_set = #rows, access_tile_order = #id} : memref<?x4xf32> -> !ktdp.access_tile<?x4xindex>
    %v = ktdp.load %tx : !ktdp.access_tile<?x4xindex> -> tensor<?x4xf32>
    %e = tensor.empty(%m) : tensor<?x4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%v : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %p = arith.mulf %in, %alpha : f32
        linalg.yield %p : f32
    } -> tensor<?x4xf32>
    ktdp.store %r, %ty : tensor<?x4xf32>, !ktdp.access_tile<?x4xindex>
    return
  }
}
