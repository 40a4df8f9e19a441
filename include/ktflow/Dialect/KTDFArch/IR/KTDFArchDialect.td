//===- KTDFArchDialect.td - The ktdf_arch dialect ----------*- tablegen -*-===//
//
// This file defines the ktdf_arch dialect: architecture descriptions of
// dataflow devices (memories, execution units, datapaths, groups and the PDL
// patterns a device carries), written in the published `ktdf_arch` form.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHDIALECT_TD
#define KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHDIALECT_TD

include "mlir/IR/OpBase.td"

def KTDFArch_Dialect : Dialect {
  let name = "ktdf_arch";
  let cppNamespace = "::mlir::ktdf_arch";
  let summary = "architecture descriptions of dataflow devices";
  let description = [{
    A device is a graph: memories and execution units are nodes, datapaths
    (optionally FIFOs) are directed edges, and groups replicate part of the
    graph (cores, sub-cores) while sharing the nodes listed in `share(...)`.
    Node properties are plain dictionaries, usually written once as
    attribute aliases; see `docs/architecture-description.md` for every key.

    ```mlir
    #L1 = { kind = "L1", size = 1048576 }
    ktdf_arch.device @tiny {
      %ddr = memory #DDR
      group { kind = "core" } share(%ddr) {
        %l1 = memory #L1
        %dma = exec_unit #DMA
        datapath %ddr to %dma : memory, exec_unit
        datapath %dma to %l1 : exec_unit, memory
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::pdl::PDLDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class KTDFArch_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTDFArch_Dialect, mnemonic, traits>;

#endif // KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHDIALECT_TD
