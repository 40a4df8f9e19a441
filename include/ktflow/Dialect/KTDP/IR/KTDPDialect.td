//===- KTDPDialect.td - The ktdp dialect definition --------*- tablegen -*-===//
//
// This file defines the Kernel Tile Data-Parallel (ktdp) dialect, the tile
// dialect of KTIR. Compute and control flow come from upstream dialects; ktdp
// adds memory views, access tiles, loads/stores and inter-tile communication.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_KTDPDIALECT_TD
#define KTFLOW_DIALECT_KTDP_IR_KTDPDIALECT_TD

include "mlir/IR/OpBase.td"

def KTDP_Dialect : Dialect {
  let name = "ktdp";
  let cppNamespace = "::mlir::ktdp";
  let summary = "Kernel Tile Data-Parallel (KTDP) dialect for KTIR";
  let description = [{
    The tile-level dialect of KTIR. A kernel is a `func.func` with a `grid`
    attribute that every compute tile runs (SPMD). Memory is reached only
    through views (`construct_memory_view`, `construct_distributed_memory_view`)
    and access tiles (`construct_access_tile`,
    `construct_indirect_access_tile`); `load` and `store` move the data, and
    the `inter_tile_*` ops express communication between compute tiles.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class KTDP_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTDP_Dialect, mnemonic, traits>;

#endif // KTFLOW_DIALECT_KTDP_IR_KTDPDIALECT_TD
