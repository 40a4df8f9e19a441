//===- Passes.td - Conversions between ktflow's IRs --------*- tablegen -*-===//
//
// This file declares the two passes that cross an IR boundary: KTIR to
// ScheduleIR (the end of mapping) and ScheduleIR to DataflowIR (the
// lowering group).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CONVERSION_PASSES_TD
#define KTFLOW_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def KTIRToKTDF : Pass<"ktir-to-ktdf", "::mlir::ModuleOp"> {
  let summary = "Build the initial pipelines of a KTIR kernel";
  let description = [{
    Writes each kernel's launch grid as one `ktdf.parallel` (its block
    arguments replace `ktdp.get_compute_tile_id`) and each compute group —
    the loads, the tensor computation between them and the stores they
    feed, cut at memory boundaries — as a `ktdf.pipeline`: a load stage per
    `ktdp.load` moving its access tile into a FIFO slot towards the compute
    unit, one compute stage that reads the slots, runs the `linalg.generic`
    DAG and writes a slot per stored value, and a store stage per
    `ktdp.store`, ordered by tokens.

    ```mlir
    %x = ktdp.load %ta : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %z = linalg.generic ... ins(%x, %y ...)
    ktdp.store %z, %tc : ...
    // becomes
    ktdf.pipeline {
      %s0 = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16>
      ...
      %t0 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
        ktdf.data_transfer %ta to %s0 : ...
      }
      %c = ktdf.stage "compute" depends_in(%t0, %t1) depends_out(1) applicable_units [vector_compute] {
        %x = ktdf.read_from_fifo %s0 : ... -> tensor<3x64xf16>
        ...
        ktdf.write_to_fifo %z to %o0 : ...
      }
      ktdf.stage "store_0" depends_in(%c) depends_out(0) applicable_units [scratchpad_store, dma_store] {
        ktdf.data_transfer %o0 to %tc : ...
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::ktdf::KTDFDialect"];
}

def KTDFToDFIR : Pass<"ktdf-to-dfir", "::mlir::ModuleOp"> {
  let summary = "Lower scheduled ScheduleIR to DataflowIR";
  let description = [{
    Turns every scheduled kernel into a `dfir.kernel`: tensor arguments and
    runtime arguments become runtime symbols; the distributed grid is
    normalised to the physical cores and lanes (instance k of the
    `ktdf.parallel` runs on core k / lanes, lane k % lanes); every stage is
    bound to its unit instance; private buffers become `dfir.buffer`s per
    lane (N copies), FIFO slots `dfir.fifo`s per pair of units, tokens that
    hand a buffer over `dfir.sync` channels (one back for each buffer, with
    N initial credits); and every unit instance gets one program with the
    loops and address arithmetic its stages need. The kernel replaces the
    scheduled function (same symbol); the device stays in the module.
  }];
  let dependentDialects = ["::mlir::dfir::DFIRDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KTFLOW_CONVERSION_PASSES_TD
