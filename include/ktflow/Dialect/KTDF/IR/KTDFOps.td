//===- KTDFOps.td - The ktdf (ScheduleIR) operations -------*- tablegen -*-===//
//
// This file defines the ScheduleIR operations: the distributed parallel loop
// over the launch grid, pipelines and their stages and private resources,
// explicit data transfers, FIFO reads and writes, and the tiling helpers
// that name a tile size before it is chosen.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_IR_KTDFOPS_TD
#define KTFLOW_DIALECT_KTDF_IR_KTDFOPS_TD

include "ktflow/Dialect/KTDF/IR/KTDFDialect.td"
include "ktflow/Dialect/KTDF/IR/KTDFTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Parallel work
//===----------------------------------------------------------------------===//

def KTDF_ParallelOp : KTDF_Op<"parallel", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "an iteration space split over identical hardware instances";
  let description = [{
    Runs its body once for every point of the box `[0, extents)`, the body's
    block arguments holding the point (one `index` per dimension, the last
    fastest). Points are independent. With `distribute(num_instances = N)`,
    the points, linearised with the first dimension slowest, are split into
    N contiguous blocks of `ceil(points / N)` (the last ones possibly
    shorter or empty), one per identical hardware instance; without it the
    split is not decided yet. With `distribute(num_instances = N, snake)`
    (N dividing the points), the points are dealt in rounds instead:
    instance k runs point r·N + k in even rounds r and r·N + N − 1 − k in
    odd ones (instance 0 gets points 0, 2N − 1, 2N, ...), which evens out
    points whose work grows or shrinks with their index (a causal
    attention's query blocks).

    The mapping group writes the launch grid of a KTIR kernel as one
    `ktdf.parallel` (its block arguments replace `ktdp.get_compute_tile_id`);
    the scheduling group chooses `num_instances` from the device (cores times
    the identical compute lanes of a core).

    ```mlir
    ktdf.parallel (%x, %y) in [32, 1] distribute(num_instances = 8) {
      ...
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$extents,
                       OptionalAttr<I64Attr>:$num_instances,
                       UnitAttr:$snake);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Product of the extents.
    int64_t getNumPoints();
  }];
}

//===----------------------------------------------------------------------===//
// Pipelines, stages, private resources
//===----------------------------------------------------------------------===//

def KTDF_PipelineOp : KTDF_Op<"pipeline", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "stages that overlap across iterations";
  let description = [{
    A pipeline holds the resources private to it (`ktdf.private`) and its
    stages (`ktdf.stage`), in an order where every stage follows the stages
    whose tokens it waits for. One execution of the pipeline runs every
    stage once. When the pipeline sits in a loop, a stage of iteration i+1
    may run while later stages of iteration i still do; with
    `modulo(size: N)` each private buffer and token exists in N copies used
    round-robin (iteration i uses copy i mod N), so a stage may run up to
    N - 1 iterations ahead of the stages that read what it writes
    (N-buffering). Without `modulo`, N is 1.

    ```mlir
    ktdf.pipeline modulo(size: 2) {
      %buf = ktdf.private : memref<3x64xf16, "L1">
      %loaded = ktdf.stage "load_x" depends_out(1) applicable_units [dma_load] {
        ktdf.data_transfer %tile to %buf : !ktdp.access_tile<3x64xindex> to memref<3x64xf16, "L1">
      }
      ...
    }
    ```

    A pipeline may *export* buffers: result i is its private buffer marked
    `export i`, which stages of later pipelines (in the same block or
    nested below it) may read. Execution e of the pipeline fills copy
    e mod N of an exported buffer, which stays live until the end of the
    block that holds the pipeline: its writer fills that copy again only
    after every reader is done with it (with N = 2 it fills the next
    execution's copy while this one is read), and a reading stage reads
    the copy of the writer's execution that precedes it.
    `ktdf-hoist-invariant-transfers` builds such pipelines for loads that
    do not change across a loop (one copy) and for row spans (two copies
    where they run once per iteration of a loop or per grid point).

    A `per_instance` pipeline sits directly in a `ktdf.parallel` and runs
    once per instance of it, before the instance's first grid point, rather
    than once per point: its transfers must not depend on the grid point,
    and the buffers it exports stay live across all of the instance's
    points (it loads data every point reads alike once per lane).

    ```mlir
    %v = ktdf.pipeline -> memref<64xf16, "L1"> {
      %buf = ktdf.private export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] {
        ktdf.data_transfer %vtile to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
    scf.for %i = %c0 to %c8 step %c1 {
      ktdf.pipeline modulo(size: 2) { ... ktdf.data_transfer %v[%j] to %slot ... }
    }
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$modulo, UnitAttr:$per_instance);
  let results = (outs Variadic<AnyStaticShapeMemRef>:$exports);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`per_instance` $per_instance^)? (`modulo` `(` `size` `` `:` $modulo^ `)`)?
    (`->` type($exports)^)? attr-dict-with-keyword $body
  }];
  let builders = [
    OpBuilder<(ins "::mlir::IntegerAttr":$modulo), [{
      build($_builder, $_state, ::mlir::TypeRange(), modulo,
            ::mlir::UnitAttr());
    }]>
  ];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of copies of each private resource (1 without modulo).
    int64_t getNumCopies() { return getModulo().value_or(1); }
    /// The buffer exported as result `index`, or null.
    PrivateOp getExportedBuffer(unsigned index);
  }];
}

def KTDF_StageOp : KTDF_Op<"stage", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects, HasParent<"PipelineOp">]> {
  let summary = "one step of a pipeline, run by one kind of execution unit";
  let description = [{
    A stage runs its body once per execution of its pipeline, after every
    stage whose token it lists in `depends_in` has finished the same
    iteration; it produces `depends_out` (a count) fresh tokens when it
    finishes. `applicable_units` lists the unit roles that may run it (the
    device model derives roles from features and the datapath graph); once
    routing has chosen the unit, `unit` holds its device-model name (the
    template of the first lane; the lowering finds the other instances).

    ```mlir
    %ready = ktdf.stage "compute" depends_in(%loaded) depends_out(1)
        applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
      %x = ktdf.read_from_fifo %in : !ktdf.fifo.slot<L1LU -> SFU, 64xf16> -> vector<64xf16>
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<KTDF_TokenType>:$depends_in,
                       KTDF_UnitRoleArrayAttr:$applicable_units,
                       OptionalAttr<StrAttr>:$unit);
  let results = (outs Variadic<KTDF_TokenType>:$depends_out);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`depends_in` `(` $depends_in^ `)`)?
    `depends_out` `(` custom<TokenCount>(type($depends_out)) `)`
    `applicable_units` custom<UnitRoles>($applicable_units)
    (`unit` $unit^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether `role` is one of the applicable units.
    bool isApplicable(UnitRole role);
    /// Whether a compute unit (vector or matrix) runs the stage: it moves
    /// no data between memories.
    bool isCompute();
  }];
}

def KTDF_PrivateOp : KTDF_Op<"private", [HasParent<"PipelineOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a resource private to a pipeline";
  let description = [{
    Declares a FIFO slot, a scratchpad buffer or a token owned by the
    enclosing pipeline (which makes `modulo` copies of it). A buffer is a
    memref whose memory space is the kind of a device memory (a string);
    scratchpad allocation records its byte `offset` in that memory (copy k
    of an N-buffered resource sits at `offset + k * size`). A buffer marked
    `export i` is the pipeline's result i (see `ktdf.pipeline`).

    ```mlir
    %buf = ktdf.private offset 0 : memref<3x64xf16, "L1">
    %slot = ktdf.private : !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
    %free = ktdf.private : !ktdf.token
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset,
                       OptionalAttr<I64Attr>:$exported);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    (`offset` $offset^)? (`export` $exported^)? attr-dict `:` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::IntegerAttr":$offset), [{
      build($_builder, $_state, type, offset, ::mlir::IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def KTDF_DataTransferOp : KTDF_Op<"data_transfer", [AttrSizedOperandSegments]> {
  let summary = "explicit movement between memories and FIFO slots";
  let description = [{
    Moves one block of elements from `src` to `dst`. Each end is a KTIR
    access tile (global memory, addressed by the tile's view), a buffer
    (memref) or a FIFO slot. A memref end may be indexed, in which case the
    block starts at those indices; the block's shape is the slot's if a slot
    is involved, else the access tile's, else the unindexed memref's. At most
    one end is a slot. Both ends are access tiles only for a DMA between a
    scratchpad (`ct_local`) view and device memory, which needs no buffer:
    neither end indexed, as many elements of one type at each, the
    scratchpad end laid out as a dense buffer of the other's shape would be
    (the kept per-row statistics of a `ktdf.row_stats` view stored after
    the loop). Otherwise at most one end is an access tile. An access tile moving
    to or from a slot may be indexed too (a block of the slot's shape at
    those indices within the tile: how a compute unit streams a scratchpad
    view the kernel manages itself). A one-dimensional block indexed into
    a buffer of the identity layout may span whole consecutive rows (its
    elements a multiple of the last dimension, within the buffer): rows
    narrower than a compute unit's issue, streamed several to a chunk.

    ```mlir
    ktdf.data_transfer %tile to %buf : !ktdp.access_tile<3x64xindex> to memref<3x64xf16, "L1">
    ktdf.data_transfer %buf[%r, %c] to %slot : memref<3x64xf16, "L1"> to !ktdf.fifo.slot<L1LU -> SFU, 64xf16>
    ktdf.data_transfer %tile to %buf rows %n : !ktdp.access_tile<12x64xindex> to memref<12x64xf16, "L1">
    ktdf.data_transfer %stats to %out : !ktdp.access_tile<65xindex> to !ktdp.access_tile<65xindex>
    ```

    With `rows %n`, only the first n rows (along the first dimension) of
    the block move: the last tile of a loop whose trip count is not a
    multiple of the tiling.

    With `indices(%b, ...)`, the transfer moves an indirect access tile (a
    gather or a scatter) whose unit does not read the memory of its index
    views: buffer k holds the box of index view k that an earlier stage
    (on a unit that reads it) staged there, through the access tile that
    stage moves into it, and the unit reads the indices from the buffer.

    ```mlir
    ktdf.data_transfer %rows to %scatter indices(%slots : memref<8xi32, "L1">)
        : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>
    ```
  }];
  let arguments = (ins AnyType:$src, Variadic<Index>:$src_indices,
                       AnyType:$dst, Variadic<Index>:$dst_indices,
                       Optional<Index>:$rows,
                       Variadic<AnyMemRef>:$staged_indices);
  let assemblyFormat = [{
    $src (`[` $src_indices^ `]`)? `to` $dst (`[` $dst_indices^ `]`)?
    (`rows` $rows^)?
    (`indices` `(` $staged_indices^ `:` type($staged_indices) `)`)?
    attr-dict `:` type($src) `to` type($dst)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src, "::mlir::ValueRange":$srcIndices,
                   "::mlir::Value":$dst, "::mlir::ValueRange":$dstIndices), [{
      build($_builder, $_state, src, srcIndices, dst, dstIndices,
            ::mlir::Value(), ::mlir::ValueRange());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of the block moved.
    ::llvm::SmallVector<int64_t> getBlockShape();
  }];
}

def KTDF_IndDataTransferOp : KTDF_Op<"ind_data_transfer", [
    AttrSizedOperandSegments]> {
  let summary = "movement through an indirect-address buffer";
  let description = [{
    A gather (`src[%indices]`) or a scatter (`dst[%indices]`) along the
    first dimension: row `i` of the unindexed end is row `indices[i]` of the
    indexed one. `indices` is a rank-1 buffer of integers or indices; the
    unindexed end has as many rows as it has elements, and both ends agree
    in their other dimensions and element type.

    ```mlir
    ktdf.ind_data_transfer %table[%idx] to %rows
        : memref<1024x64xf16>[memref<8xi32, "L1">] to memref<8x64xf16, "L1">
    ```
  }];
  let arguments = (ins AnyMemRef:$src, Optional<AnyMemRef>:$src_index,
                       AnyMemRef:$dst, Optional<AnyMemRef>:$dst_index);
  let assemblyFormat = [{
    $src (`[` $src_index^ `]`)? `to` $dst (`[` $dst_index^ `]`)? attr-dict
    `:` type($src) (`[` type($src_index)^ `]`)? `to` type($dst)
    (`[` type($dst_index)^ `]`)?
  }];
  let hasVerifier = 1;
}

def KTDF_ReadFromFifoOp : KTDF_Op<"read_from_fifo"> {
  let summary = "a compute stage consumes one FIFO slot";
  let description = [{
    Pops the slot's block as a vector or a tensor of the slot's shape and
    element type (a rank-0 tensor for a one-element slot).

    ```mlir
    %x = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<L1LU -> SFU, 64xf16> -> vector<64xf16>
    ```
  }];
  let arguments = (ins KTDF_FifoSlotType:$slot);
  let results = (outs AnyTypeOf<[AnyVectorOfNonZeroRank, AnyRankedTensor]>:$result);
  let assemblyFormat = "$slot attr-dict `:` qualified(type($slot)) `->` type($result)";
  let hasVerifier = 1;
}

def KTDF_WriteToFifoOp : KTDF_Op<"write_to_fifo"> {
  let summary = "a compute stage produces one FIFO slot";
  let description = [{
    Pushes a vector or tensor of the slot's shape and element type (a
    rank-0 tensor fills a one-element slot).

    ```mlir
    ktdf.write_to_fifo %z to %slot : vector<64xf16> to !ktdf.fifo.slot<SFU -> L1SU, 64xf16>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyVectorOfNonZeroRank, AnyRankedTensor]>:$value,
                       KTDF_FifoSlotType:$slot);
  let assemblyFormat = [{
    $value `to` $slot attr-dict `:` type($value) `to` qualified(type($slot))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data between tiles
//===----------------------------------------------------------------------===//

def KTDF_AllReduceOp : KTDF_Op<"all_reduce"> {
  let summary = "an all-reduce of a scratchpad view across the tiles of groups";
  let description = [{
    Every tile of each group (linear tile ids, every tile of the grid in
    exactly one group) holds a partial in its scratchpad view `partial`;
    afterwards each holds, in the same view, the partials of its group
    combined element-wise with `combiner` (an `arith` float op name). The
    tiles exchange pieces of the partial over the core interconnect into
    their `received` views ((members - 1) chunks of ceil(elements /
    members)). ktdf-lower-inter-tile makes it from an
    `inter_tile_produce` + `inter_tile_reduce` pair;
    ktdf-schedule-all-reduce chooses `pieces` (per chunk) and `lanes` (of
    a core, combining the pieces in turn: piece j of a chunk on lane j mod
    lanes) and `rings` (2: the partial's two halves go round the ring one
    after the other, the first half's all-gather sent while the second
    half is combined) and makes it a pipeline whose stages (send; feed,
    combine and drain per lane) each hold a copy of it; the lowering emits
    the ring in each stage's unit program.

    ```mlir
    ktdf.all_reduce %partial, %received {combiner = "arith.addf",
        groups = [array<i64: 0, 1, 2, 3>]} : memref<1x128xf16, #ct>, memref<96xf16, #ct>
    ```
  }];
  let arguments = (ins AnyMemRef:$partial, AnyMemRef:$received,
                       StrAttr:$combiner, ArrayAttr:$groups,
                       OptionalAttr<I64Attr>:$pieces,
                       OptionalAttr<I64Attr>:$lanes,
                       OptionalAttr<I64Attr>:$rings);
  let assemblyFormat = [{
    $partial `,` $received attr-dict `:` type($partial) `,` type($received)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The members of each group, ascending.
    SmallVector<SmallVector<int64_t>> getMembers();
    /// The elements of the partial.
    int64_t getNumElements();
  }];
}

def KTDF_TileCopyOp : KTDF_Op<"tile_copy"> {
  let summary = "copies of a scratchpad view from tile to tile";
  let description = [{
    Afterwards the `dest` view of every tile `c` with `sources[c] >= 0`
    (linear tile ids, one entry per tile of the grid) holds what the
    `source` view of tile `sources[c]` held: the broadcast or routed copy
    of an `inter_tile_consume`. A tile whose source is itself wrote `dest`
    before the copy; with `stored_locally`, every tile wrote its `dest`
    before the copy, so a sender waits until its consumer is ready for
    the bytes. ktdf-lower-inter-tile makes it; ktdf-schedule-all-reduce
    makes it a pipeline of one `send` stage on the data mover that reads
    the scratchpad, whose remote DMAs cross the core interconnect.

    ```mlir
    ktdf.tile_copy %E, %R {sources = array<i64: 0, 0, 0, 0>, stored_locally}
        : memref<64xf16, #ct>, memref<64xf16, #ct>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, AnyMemRef:$dest,
                       DenseI64ArrayAttr:$sources, UnitAttr:$stored_locally);
  let assemblyFormat = [{
    $source `,` $dest attr-dict `:` type($source) `,` type($dest)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tiling helpers
//===----------------------------------------------------------------------===//

def KTDF_ReserveSizeOp : KTDF_Op<"tiling.reserve_size", [Pure]> {
  let summary = "a tile size chosen later";
  let description = [{
    Stands for the size of the tiles a loop of `extent` iterations is cut
    into, before the cost model picks it: a multiple of `granularity` (the
    device's SIMD width or transfer granularity, in elements) that divides
    `extent`. Tile-size selection replaces it with a constant.

    ```mlir
    %ts = ktdf.tiling.reserve_size "row_chunk" extent 128 granularity 64
    ```
  }];
  let arguments = (ins StrAttr:$name, I64Attr:$extent, I64Attr:$granularity);
  let results = (outs Index:$size);
  let assemblyFormat = "$name `extent` $extent `granularity` $granularity attr-dict";
  let hasVerifier = 1;
}

def KTDF_DeriveSizeOp : KTDF_Op<"tiling.derive_size", [Pure]> {
  let summary = "the extent of the current tile";
  let description = [{
    `min(size, extent - offset)`: the number of iterations of the tile that
    starts at `offset` in a loop of `extent` iterations cut into tiles of
    `size`. Folds when its operands are constants.

    ```mlir
    %n = ktdf.tiling.derive_size %ts at %iv extent %c128
    ```
  }];
  let arguments = (ins Index:$size, Index:$offset, Index:$extent);
  let results = (outs Index:$result);
  let assemblyFormat = "$size `at` $offset `extent` $extent attr-dict";
  let hasFolder = 1;
}

def KTDF_LinearizeIndexOp : KTDF_Op<"tiling.linearize_index", [Pure]> {
  let summary = "the original index of an element of a tile";
  let description = [{
    `tile * size + inner`: the index, in the loop before tiling, of element
    `inner` of tile number `tile` when tiles have `size` elements. Folds when
    its operands are constants, and to `inner` for tile 0.

    ```mlir
    %i = ktdf.tiling.linearize_index %t, %inner by %ts
    ```
  }];
  let arguments = (ins Index:$tile, Index:$inner, Index:$size);
  let results = (outs Index:$result);
  let assemblyFormat = "$tile `,` $inner `by` $size attr-dict";
  let hasFolder = 1;
}

#endif // KTFLOW_DIALECT_KTDF_IR_KTDFOPS_TD
