//===- DFIRDialect.td - The dfir (DataflowIR) dialect ------*- tablegen -*-===//
//
// This file defines the dfir dialect, ktflow's DataflowIR: the scheduler's
// output and the input of the bundle emitter.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_DFIR_IR_DFIRDIALECT_TD
#define KTFLOW_DIALECT_DFIR_IR_DFIRDIALECT_TD

include "mlir/IR/OpBase.td"

def DFIR_Dialect : Dialect {
  let name = "dfir";
  let cppNamespace = "::mlir::dfir";
  let summary = "DataflowIR: one program per execution-unit instance";
  let description = [{
    A `dfir.kernel` names its device and declares the runtime symbols
    (tensor arguments, runtime arguments), scratchpad buffers, FIFOs and
    sync channels, then holds one `dfir.unit` program per execution-unit
    instance. Programs are built from `scf.for`, `arith` index arithmetic,
    address-generated transfers (`dfir.dma`, `dfir.load`, `dfir.store`),
    FIFO `dfir.send`/`dfir.recv`, vector compute (`dfir.map` with scalar
    `arith`/`math`/`spyreop` bodies, `dfir.reduce`, `dfir.broadcast`,
    `dfir.splat`), matrix compute (`dfir.matmul`) and `dfir.sync_send`/
    `dfir.sync_recv`. Addresses and sizes that depend on tensor addresses or
    runtime arguments stay symbolic (`dfir.address`, `dfir.runtime_value`)
    until launch. See docs/dataflow-ir.md.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect"
  ];
  // `dfir.skewed = D` on a unit program's `scf.for`: each iteration issues
  // the loads of the execution D ahead before this one's stores (ktdf-to-
  // dfir's SkewedLoops.cpp). The bundle keeps D as loop_begin's sub; only
  // the estimate reads it, the simulator runs every loop alike.
  let discardableAttrs = (ins "::mlir::IntegerAttr":$skewed);
}

class DFIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<DFIR_Dialect, mnemonic, traits>;

#endif // KTFLOW_DIALECT_DFIR_IR_DFIRDIALECT_TD
