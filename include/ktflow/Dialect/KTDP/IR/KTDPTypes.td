//===- KTDPTypes.td - ktdp types ---------------------------*- tablegen -*-===//
//
// This file defines `!ktdp.access_tile`, `!ktdp.runtime_arg` and
// `!ktdp.tile_future`.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_KTDPTYPES_TD
#define KTFLOW_DIALECT_KTDP_IR_KTDPTYPES_TD

include "ktflow/Dialect/KTDP/IR/KTDPDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/BuiltinTypes.td"

class KTDP_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<KTDP_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def KTDP_AccessTileType : KTDP_Type<"AccessTile", "access_tile",
    [ShapedTypeInterface, ValueSemantics]> {
  let summary = "the set of coordinates a tile accesses, in access order";
  let description = [{
    A shaped type of `index` elements: element k of the tile is the k-th
    coordinate of the access set in the order of its `access_tile_order`.
    Dimensions may be dynamic (`?`); rank 0 is `!ktdp.access_tile<index>`.

    ```mlir
    !ktdp.access_tile<3x64xindex>
    !ktdp.access_tile<?x64xindex>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>,
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape), [{
      return $_get($_ctxt, shape, ::mlir::IndexType::get($_ctxt));
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def KTDP_RuntimeArgType : KTDP_Type<"RuntimeArg", "runtime_arg"> {
  let summary = "a kernel argument known only at launch";
  let description = [{
    A scalar whose value the runtime binds at launch. `granularity = g`
    promises a multiple of g, `upperbound = u` promises at most u.

    ```mlir
    !ktdp.runtime_arg<index, granularity=32, upperbound=2048>
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$underlyingType,
    OptionalParameter<"std::optional<int64_t>">:$granularity,
    OptionalParameter<"std::optional<int64_t>">:$upperbound
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def KTDP_TileFutureType : KTDP_Type<"TileFuture", "tile_future"> {
  let summary = "single-use handle on the partial values tiles produced";
  let description = [{
    Returned by `ktdp.inter_tile_produce` and consumed by exactly one
    delivery op. `groups` is a one-dimensional, symbol-free integer set of
    group ids.

    ```mlir
    !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::RankedTensorType">:$partialTypes,
    "::mlir::IntegerSetAttr":$groups
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // KTFLOW_DIALECT_KTDP_IR_KTDPTYPES_TD
