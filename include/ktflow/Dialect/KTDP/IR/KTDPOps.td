//===- KTDPOps.td - ktdp operations ------------------------*- tablegen -*-===//
//
// This file defines every ktdp operation of the published KTIR dialect:
// compute-tile ids, memory views, access tiles, loads/stores, runtime
// arguments and the inter-tile produce/consume/reduce family.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_KTDPOPS_TD
#define KTFLOW_DIALECT_KTDP_IR_KTDPOPS_TD

include "ktflow/Dialect/KTDP/IR/KTDPDialect.td"
include "ktflow/Dialect/KTDP/IR/KTDPAttrs.td"
include "ktflow/Dialect/KTDP/IR/KTDPTypes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def KTDP_MemorySpace : Attr<
    CPred<"::llvm::isa<::mlir::ktdp::MemorySpaceAttrInterface>($_self)">,
    "ktdp memory space"> {
  let storageType = "::mlir::Attribute";
  let returnType = "::mlir::Attribute";
  let convertFromStorage = "$_self";
}

def KTDP_MemRefOrTensor : AnyTypeOf<[AnyMemRef, AnyTensor]>;

//===----------------------------------------------------------------------===//
// Compute tiles
//===----------------------------------------------------------------------===//

def KTDP_GetComputeTileIdOp : KTDP_Op<"get_compute_tile_id", [Pure]> {
  let summary = "the executing compute tile's id in the launch grid";
  let description = [{
    Returns the executing tile's coordinates in the kernel's `grid`, x
    first. With fewer results than the grid has dimensions it returns the
    leading ones: under `grid = [32, 1]` a single id is the linear tile id
    0..31. More results than dimensions are rejected by the legality check.

    ```mlir
    %id = ktdp.get_compute_tile_id : index
    %x, %y = ktdp.get_compute_tile_id : index, index
    ```
  }];
  let results = (outs Variadic<Index>:$ids);
  let assemblyFormat = "attr-dict `:` type($ids)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory views
//===----------------------------------------------------------------------===//

def KTDP_ConstructMemoryViewOp : KTDP_Op<"construct_memory_view",
    [AttrSizedOperandSegments, MemRefsNormalizable, Pure]> {
  let summary = "a strided view of already-allocated memory";
  let description = [{
    Interprets memory at start address `offset` (in elements) in
    `memory_space` as a tensor of the given sizes and strides.
    `coordinate_set` is the set of global coordinates this view holds; its
    symbols bind to the dynamic sizes, left to right. Written without one,
    the view holds the box of its sizes, `0 <= d_i < size_i` (a dynamic size
    being the next symbol); the parser adds that set, so the op always has
    one and prints it.

    ```mlir
    %v = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1]
        {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0,
                                                  d1 >= 0, -d1 + 63 >= 0)>,
         memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %w = ktdp.construct_memory_view %b, sizes: [4], strides: [1]
        {memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    ```
  }];
  let arguments = (ins
    Index:$offset,
    Variadic<Index>:$sizes,
    Variadic<Index>:$strides,
    DenseI64ArrayAttr:$static_sizes,
    DenseI64ArrayAttr:$static_strides,
    KTDP_MemorySpace:$memory_space,
    IntegerSetAttr:$coordinate_set
  );
  let results = (outs AnyMemRef:$result);
  // $offset `,` `sizes` `:` [...] `,` `strides` `:` [...] attr-dict `:`
  // type($result), with a default coordinate_set.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The memory space, seen through the normalising interface.
    ::mlir::ktdp::MemorySpaceAttrInterface getMemorySpaceInterface() {
      return ::llvm::cast<::mlir::ktdp::MemorySpaceAttrInterface>(getMemorySpace());
    }
    /// Sizes and strides with dynamic entries replaced by their operands.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSizes();
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedStrides();
  }];
}

def KTDP_ConstructDistributedMemoryViewOp
    : KTDP_Op<"construct_distributed_memory_view", [Pure]> {
  let summary = "one logical view composed of several memory views";
  let description = [{
    Each global coordinate is served by the input view whose
    `coordinate_set` holds it; inputs may live in different memory spaces.

    ```mlir
    %d = ktdp.construct_distributed_memory_view(%a, %b : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
    ```
  }];
  let arguments = (ins Variadic<AnyMemRef>:$memrefs);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    `(` ($memrefs^ `:` type($memrefs))? `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Access tiles
//===----------------------------------------------------------------------===//

def KTDP_ConstructAccessTileOp : KTDP_Op<"construct_access_tile",
    [AttrSizedOperandSegments, Pure]> {
  let summary = "the coordinates of a view that a tile accesses";
  let description = [{
    The bracket holds affine expressions of SSA ids giving the anchor
    coordinate (`base_map` applied to `indices`). `access_tile_set` is the
    set of offsets from the anchor; `access_tile_order` is the permutation
    whose results, enumerated lexicographically, give the tile's shape and
    element order. Symbols of the set bind to `symbols(...)`.

    ```mlir
    %t = ktdp.construct_access_tile %v[%row, 0] {
           access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0,
                                                    d1 >= 0, -d1 + 63 >= 0)>,
           access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}
         : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    ```
  }];
  let arguments = (ins
    KTDP_MemRefOrTensor:$base,
    Variadic<Index>:$indices,
    Variadic<Index>:$symbol_operands,
    AffineMapAttr:$base_map,
    IntegerSetAttr:$access_tile_set,
    AffineMapAttr:$access_tile_order
  );
  let results = (outs KTDP_AccessTileType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def KTDP_RegionTerminatorOp : KTDP_Op<"region_terminator",
    [Terminator, Pure, HasParent<"ConstructIndirectAccessTileOp">]> {
  let summary = "implicit terminator of construct_indirect_access_tile";
  let assemblyFormat = "attr-dict";
}

def KTDP_ConstructIndirectAccessTileOp
    : KTDP_Op<"construct_indirect_access_tile", [
        AttrSizedOperandSegments,
        SingleBlockImplicitTerminator<"RegionTerminatorOp">,
        MemoryEffects<[MemRead]>]> {
  let summary = "an access tile whose coordinates are read from index views";
  let description = [{
    Enumerates the variable space (`variables_space_set` over the
    intermediate variables, in `variables_space_order`). For every point,
    a direct subscript `(expr)` gives its coordinate directly and an
    indirect subscript `ind(%view[exprs])` gives the value loaded from the
    index view. Subscript maps range over (captured variables...,
    intermediate variables...). The region only carries the intermediate
    variables as block arguments.

    ```mlir
    %t = ktdp.construct_indirect_access_tile
           intermediate_variables(%b, %h) %X[ind(%Idx[%b]), (%h)]
           {variables_space_set = #set, variables_space_order = #map}
         : memref<100x8xf16>, memref<4xi32> -> !ktdp.access_tile<4x8xindex>
    ```
  }];
  let arguments = (ins
    KTDP_MemRefOrTensor:$base,
    Variadic<AnyMemRef>:$indirect_memrefs,
    Variadic<Index>:$captured_variables,
    Variadic<Index>:$symbol_operands,
    TypedArrayAttrBase<BoolAttr, "per-dimension indirect flags">:$per_dim_subscript_kinds,
    AffineMapArrayAttr:$per_dim_subscript_maps,
    IntegerSetAttr:$variables_space_set,
    AffineMapAttr:$variables_space_order
  );
  let results = (outs KTDP_AccessTileType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The intermediate variables: the body's block arguments.
    ::mlir::Block::BlockArgListType getIntermediateVariables() {
      return getBody().front().getArguments();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def KTDP_LoadOp : KTDP_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "gather the elements of an access tile into a tensor";
  let description = [{
    ```mlir
    %d = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    ```
  }];
  let arguments = (ins KTDP_AccessTileType:$access_tile);
  let results = (outs AnyTensor:$result);
  let assemblyFormat = [{
    $access_tile attr-dict `:` type($access_tile) `->` type($result)
  }];
  let hasVerifier = 1;
}

def KTDP_StoreOp : KTDP_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "scatter a tensor onto the elements of an access tile";
  let description = [{
    ```mlir
    ktdp.store %v, %t : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    ```
  }];
  let arguments = (ins AnyTensor:$data_tile, KTDP_AccessTileType:$access_tile);
  let assemblyFormat = [{
    $data_tile `,` $access_tile attr-dict `:` type($data_tile) `,` type($access_tile)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Runtime arguments
//===----------------------------------------------------------------------===//

def KTDP_RuntimeArgExtractOp : KTDP_Op<"runtime_arg_extract", [Pure]> {
  let summary = "read the value, granularity or upperbound of a runtime_arg";
  let description = [{
    ```mlir
    %M = ktdp.runtime_arg_extract value from %arg : !ktdp.runtime_arg<index, granularity=32> -> index
    %g = ktdp.runtime_arg_extract granularity from %arg : !ktdp.runtime_arg<index, granularity=32> -> index
    ```
  }];
  let arguments = (ins KTDP_RuntimeArgExtractKind:$kind, KTDP_RuntimeArgType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind `from` $input `:` type($input) attr-dict `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Inter-tile communication
//===----------------------------------------------------------------------===//

def KTDP_YieldPartialOp : KTDP_Op<"yield_partial",
    [Terminator, ReturnLike, Pure, HasParent<"InterTileProduceOp">]> {
  let summary = "the partial values a producer tile contributes";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

def KTDP_YieldReducedOp : KTDP_Op<"yield_reduced",
    [Terminator, ReturnLike, Pure, HasParent<"InterTileReduceOp">]> {
  let summary = "the combined values of a reduction step";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

def KTDP_InterTileProduceOp : KTDP_Op<"inter_tile_produce", [
    SingleBlockImplicitTerminator<"YieldPartialOp">, RecursiveMemoryEffects]> {
  let summary = "declare which tiles contribute which partial values";
  let description = [{
    `producer_tiles_per_group` is a set `(i)[g]`: tile i produces for group
    g. The body runs on each producer with its group id and yields the
    partial values. The result future must be delivered by exactly one
    `inter_tile_consume` or `inter_tile_reduce`.

    ```mlir
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
         -> <(tensor<1x64xf32>), groups = #one_group> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1x64xf32>
    }
    ```

    The future type may also be written `!ktdp.tile_future<...>`, with the
    partial types bare or parenthesised and an inline `groups` set (even
    one containing `>=`), after a leading `: T` that repeats the partial
    types: `: tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>,
    groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>>`. The stripped form
    above is printed. The same future spellings are accepted by consume and
    reduce.
  }];
  let arguments = (ins IntegerSetAttr:$producer_tiles_per_group);
  let results = (outs KTDP_TileFutureType:$future);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `producer_tiles_per_group` `=` $producer_tiles_per_group attr-dict
    custom<ProducedFuture>(type($future)) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def KTDP_InterTileConsumeOp : KTDP_Op<"inter_tile_consume",
    [RecursiveMemoryEffects]> {
  let summary = "deliver produced partial values to consumer tiles";
  let description = [{
    `consumer_tiles_per_group` is a set `(i)[g]`. Without a
    `producer_dependency_per_consumer` set `(p)[c]` / `(p)[c, g]` every
    consumer waits for all producers of its group.

    ```mlir
    %v = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
         : <(tensor<1x64xf32>), groups = #one_group> -> tensor<1x64xf32>
    ```
  }];
  let arguments = (ins
    KTDP_TileFutureType:$future,
    IntegerSetAttr:$consumer_tiles_per_group,
    OptionalAttr<IntegerSetAttr>:$producer_dependency_per_consumer
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    `(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group
    (`,` `producer_dependency_per_consumer` `=`
         $producer_dependency_per_consumer^)?
    attr-dict `:` custom<TileFuture>(type($future)) `->` type($results)
  }];
  let hasVerifier = 1;
}

def KTDP_InterTileReduceOp : KTDP_Op<"inter_tile_reduce", [
    SingleBlockImplicitTerminator<"YieldReducedOp">, RecursiveMemoryEffects]> {
  let summary = "combine produced partial values with an associative reducer";
  let description = [{
    All-reduce (consumers == producers) or reduce-to-one. The combiner
    region takes 2*N arguments (left and right of each partial) and yields
    N values; `identity` gives one neutral tensor per partial, of the
    partial type. A result may reshape its partial type (same element type
    and static number of elements, e.g. `tensor<1x64xf16>` reduced to
    `tensor<64xf16>`): the folded partial is reshaped to it.

    ```mlir
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4,
           identity(%zero : tensor<1x64xf32>)
         : <(tensor<1x64xf32>), groups = #one_group> -> tensor<1x64xf32> {
    ^bb0(%l: tensor<1x64xf32>, %r: tensor<1x64xf32>):
      %s = arith.addf %l, %r : tensor<1x64xf32>
      ktdp.yield_reduced %s : tensor<1x64xf32>
    }
    ```
  }];
  let arguments = (ins
    KTDP_TileFutureType:$future,
    Variadic<AnyRankedTensor>:$identity,
    IntegerSetAttr:$consumer_tiles_per_group,
    OptionalAttr<IntegerSetAttr>:$producer_dependency_per_consumer
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group `,`
    (`producer_dependency_per_consumer` `=`
         $producer_dependency_per_consumer^ `,`)?
    `identity` `(` ($identity^ `:` type($identity))? `)`
    attr-dict `:` custom<TileFuture>(type($future)) `->` type($results)
    $combiner
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

#endif // KTFLOW_DIALECT_KTDP_IR_KTDPOPS_TD
