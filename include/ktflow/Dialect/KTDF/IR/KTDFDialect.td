//===- KTDFDialect.td - The ktdf (ScheduleIR) dialect ------*- tablegen -*-===//
//
// This file defines the ktdf dialect, ktflow's ScheduleIR: the vocabulary in
// which the scheduler writes pipelines of stages over FIFO slots, scratchpad
// buffers and tokens, together with linalg, scf, arith/math and vector.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_IR_KTDFDIALECT_TD
#define KTFLOW_DIALECT_KTDF_IR_KTDFDIALECT_TD

include "mlir/IR/OpBase.td"

def KTDF_Dialect : Dialect {
  let name = "ktdf";
  let cppNamespace = "::mlir::ktdf";
  let summary = "ScheduleIR: pipelines of stages over FIFOs, buffers, tokens";
  let description = [{
    The scheduler's own dialect (docs/scheduler.md). A kernel in ScheduleIR
    is a `func.func` whose body is a `ktdf.parallel` over the logical launch
    grid; every compute group of the kernel is a `ktdf.pipeline` of
    `ktdf.stage`s, each bound to a kind of execution unit
    (`applicable_units`). Stages exchange data through resources private to
    their pipeline (`ktdf.private`): FIFO slots (`!ktdf.fifo.slot`),
    scratchpad buffers (memrefs whose memory space is a device memory kind)
    and tokens (`!ktdf.token`) that order them.
  }];
  let discardableAttrs = (ins
    // `ktdf.scatter`, on a ktdf.all_reduce or a ktdp.inter_tile_reduce:
    // each tile keeps only its own chunk of the combined value
    // (ScatterAttr.h).
    "::mlir::UnitAttr":$scatter
  );
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

class KTDF_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTDF_Dialect, mnemonic, traits>;

#endif // KTFLOW_DIALECT_KTDF_IR_KTDFDIALECT_TD
