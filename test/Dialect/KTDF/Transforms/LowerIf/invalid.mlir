// RUN: ktflow-opt %s --ktdf-lower-if -split-input-file -verify-diagnostics --allow-unregistered-dialect

// An if that computes its results inside a branch cannot become a select
// or a loop: refused at the if.

func.func @computed_result(%a: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %pid, %c0 : index
  // expected-error @+1 {{scf.if with results is supported only when its branches yield values defined outside it (it becomes arith.select)}}
  %r = scf.if %first -> (index) {
    %d = arith.muli %a, %a : index
    scf.yield %d : index
  } else {
    scf.yield %a : index
  }
  "test.use"(%r) : (index) -> ()
  return
}
