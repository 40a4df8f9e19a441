//===- Passes.td - ScheduleIR passes -----------------------*- tablegen -*-===//
//
// This file declares the passes of the scheduler that work within one IR:
// target import and the device's PDL checkpoints, the mapping passes that
// prepare KTIR (support check, memory-space mapping, generalisation), and
// the scheduling passes on ScheduleIR (routing, tiling, buffering,
// distribution, hoisting of loop-invariant loads, scratchpad allocation).
// docs/scheduler.md gives the IR contract between the groups.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_TD
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Target and checkpoints
//===----------------------------------------------------------------------===//

def KTDFImportTarget : Pass<"ktdf-import-target", "::mlir::ModuleOp"> {
  let summary = "Bring the kernel's target device into the module";
  let description = [{
    Resolves the module's `ktdf_arch.target`: a device imported from a file
    is copied into the module and the declaration loses its `from`, so every
    later pass (and every intermediate dump) is self-contained.

    ```mlir
    // before
    ktdf_arch.target @sample_device from "../devices/sample_device.mlir" memory_map ...
    // after
    ktdf_arch.device @sample_device { ... }
    ktdf_arch.target @sample_device memory_map ...
    ```
  }];
  let dependentDialects = ["::mlir::ktdf_arch::KTDFArchDialect"];
}

def KTDFRecordTensorExtents
    : Pass<"ktdf-record-tensor-extents", "::mlir::ModuleOp"> {
  let summary = "Record every tensor's extent before any view can be dropped";
  let description = [{
    Computes, for each kernel argument that is the start address of memory
    views and for each literal address of global memory, the tensor's
    extent under the definition the interpreter shares
    (`ktflow/Analysis/TensorExtent.h`: the elements every view at that
    address declares), and records it: `ktdf.tensor` (a tensor type, `?`
    for dimensions given by launch scalars: runtime arguments or plain
    integer arguments, possibly through `arith.index_cast`, whose positions
    `ktdf.tensor_dims` lists) on the argument, `ktdf.literal_tensors` on the
    function. It runs first, so that views later passes fold away still
    count. Views with dynamic sizes whose extent would depend on the sizes'
    values beyond the sizes themselves are an error at the view.

    Views at a launch scalar times a constant past the argument
    (`%x + %n * 64`, the second of two halves of n rows) declare a tensor
    whose dimension is that scalar times a constant, listed in
    `ktdf.tensor_dim_scales` when not 1 (two 64n-element halves: 128n
    elements, flat). Those the definition cannot size for every value of
    the scalar (overlapping views, a view whose elements are not the scalar
    times a constant) are left unrecorded for ktdf-check-supported.

    ```mlir
    func.func @k(%a: index {ktdf.tensor = tensor<96x64xf16>}, ...)
    func.func @k(%x: index {ktdf.tensor = tensor<?x64xf16>,
                            ktdf.tensor_dims = array<i64: 2>}, ...,
                 %M: !ktdp.runtime_arg<index>)
    func.func @k(%x: index {ktdf.tensor = tensor<?xf16>,
                            ktdf.tensor_dims = array<i64: 1>,
                            ktdf.tensor_dim_scales = array<i64: 128>},
                 %n: i32)
    ```
  }];
}

def KTDFApplyDevicePatterns
    : Pass<"ktdf-apply-device-patterns", "::mlir::ModuleOp"> {
  let summary = "Apply the device's PDL patterns of one checkpoint";
  let description = [{
    Collects the `pdl.pattern`s of every `patterns` block of the target
    device that lists `checkpoint`, and applies them greedily to the kernel
    (every op of the module outside the device description). Native rewrite
    and constraint functions are registered by name; see
    docs/scheduler.md for the ones ktflow provides (`widen_to_f32`, ...).
    A checkpoint without patterns leaves the IR unchanged.
  }];
  let options = [
    Option<"checkpoint", "checkpoint", "std::string", "\"\"",
           "pre_mapping, pre_scheduling, post_scheduling or post_lowering">
  ];
  let dependentDialects = ["::mlir::pdl::PDLDialect",
                           "::mlir::pdl_interp::PDLInterpDialect",
                           "::mlir::arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// Mapping
//===----------------------------------------------------------------------===//

def KTDFSelectKernel : Pass<"ktdf-select-kernel", "::mlir::ModuleOp"> {
  let summary = "Keep the kernel, with its calls inlined and a launch grid";
  let description = [{
    Picks the kernel the way the interpreter does (`func`, else the only
    function with a `grid`, else the only function with a body), inlines
    every `func.call` in it with MLIR's inliner (the callees run on the
    caller's tiles), gives a kernel without a grid the one-tile grid `[1]`
    (or the grid of the op that encloses it), and erases every other
    function, so the later passes see one kernel with no calls. A call of a
    function without a body, or a recursive call, is an error at the call.

    ```mlir
    // before
    func.func private @act(%x: tensor<4x64xf32>) -> tensor<4x64xf32> { ... }
    func.func @k(...) attributes {grid = [32]} {
      %a = func.call @act(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    // after: @act is gone, its body stands in @k where the call was
    ```
  }];
  let options = [
    Option<"function", "func", "std::string", "\"\"",
           "the kernel function (default: the module's only kernel)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def KTDFUpliftWhile : Pass<"ktdf-uplift-while", "::mlir::ModuleOp"> {
  let summary = "Turn counted scf.while loops into signed scf.for";
  let description = [{
    A `scf.while` whose condition compares the carried index with a bound
    defined outside the loop (`arith.cmpi slt`, or `ult` when the start, the
    step and the bound are known not to be negative, where the two agree)
    and whose body adds a positive loop-invariant step to it is a counted
    loop: MLIR's `upliftWhileToForLoop` rewrites it into the `scf.for` the
    later passes schedule (other carried values become `iter_args`). Any
    other `scf.while` is an error at the loop naming what it lacks. An
    `scf.for unsigned` whose bounds are known not to be negative becomes a
    signed `scf.for` (the same trips), so the scheduler's passes and the
    machine, which compare signed, never see the flag; ktdf-check-supported
    refuses any other unsigned loop.

    ```mlir
    // before
    %end = scf.while (%row = %id) : (index) -> index {
      %more = arith.cmpi ult, %row, %M : index
      scf.condition(%more) %row : index
    } do {
    ^bb0(%r: index):
      ...
      %next = arith.addi %r, %c32 : index
      scf.yield %next : index
    }
    // after
    scf.for %r = %id to %M step %c32 { ... }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KTDFLowerIf : Pass<"ktdf-lower-if", "::mlir::ModuleOp"> {
  let summary = "Turn scf.if into selects and loops of at most one trip";
  let description = [{
    MLIR's `scf.if` canonicalization first turns an `if` whose branches
    only yield values defined outside it into `arith.select`. Every `if`
    left without results then becomes loops the later passes schedule:
    what only a branch uses (side-effect-free ops, and loads no store
    between them and the `if` may write) sinks into it (MLIR's
    `controlFlowSink`), and each branch becomes an `scf.for` of
    `select(%c, 1, 0)` (else: `select(%c, 0, 1)`) trips, so views, tiles,
    loads, stores and compute built inside run on the tiles that take the
    branch. Before that, an `if` whose branches compute its results
    loses them: pure scalar computations move before it (it becomes a
    select), and the users of tensor results after it (a store of the
    picked row) are cloned into both branches; an `arith.select` of whole
    tensors by one `i1` is first made such an `if`. An `if` with results
    left (one leaving its block, such as a loop's carried value) is an
    error at the `if`.

    ```mlir
    // before
    scf.if %is_last { ...view, tile, load, compute, store... }
    // after
    %n = arith.select %is_last, %c1, %c0 : index
    scf.for %i = %c0 to %n step %c1 { ...view, tile, load, compute, store... }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KTDFMergeColumnBlocks
    : Pass<"ktdf-merge-column-blocks", "::mlir::ModuleOp"> {
  let summary = "Merge a loop over adjacent column blocks into one wide block";
  let description = [{
    Triton walks a row in column blocks: an `scf.for` of constant trips
    whose tiles move by their own width along the last dimension each trip
    (through the induction variable or an index carried in `iter_args`,
    Triton's pointer increment). When the body only loads such tiles,
    computes element-wise (splats included) and stores such tiles, and no
    trip reads what another writes, the loop is one block N times as wide:
    it is replaced by its first trip with every tile and tensor widened, at
    most `max-block-bytes` per tensor.

    A loop of constant start and step whose bound is known only at run time
    (Triton's `for off in range(0, N, BLOCK)` over an `index` N) and that
    carries nothing becomes loops of blocks K, K/2, ..., 2 times as wide
    (K a power of two, each widened block at most 2 KiB and inside the
    views) followed by the loop itself for the trips left, so a row's
    blocks leave in one transfer or a few instead of one each. Every block
    is the union of the blocks of the trips it replaces; a loop carrying
    `iter_args` is left as written (its sums round as the kernel's).

    ```mlir
    // before
    scf.for %i = %c0 to %c4 step %c1 {
      %o = arith.muli %i, %c128 : index
      %t = ktdp.construct_access_tile %X[%r, %o] ... -> !ktdp.access_tile<1x128xindex>
      ...
    }
    // after
    %o = arith.muli %c0, %c128 : index
    %t = ktdp.construct_access_tile %X[%r, %o] ... -> !ktdp.access_tile<1x512xindex>
    ```
  }];
  let options = [
    Option<"maxBlockBytes", "max-block-bytes", "int64_t", "32768",
           "merge only when every widened tensor has at most this many bytes">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFLowerCarriedScalars
    : Pass<"ktdf-lower-carried-scalars", "::mlir::ModuleOp"> {
  let summary = "Derive carried offsets from the loop variable, carry floats as tensors, widen i32 offsets";
  let description = [{
    On the loops ktdf-unroll-carried-loops will not unroll (a trip count
    known only at run time, or more than its `max-trips`): a carried
    integer to which each trip adds the same loop-invariant amount (Triton's
    `off += BLOCK` pointer increment, `arith.addi %a, %k` or
    `arith.subi %a, %k`) and whose value after the loop is unused stops
    being carried: in each trip it is `init + ((iv - lb) / step) * k`
    (`init + (iv - lb) * (k / step)` when the step divides a constant k),
    computed in its own type. A loop that goes on carrying a tensor or a
    float and uses its trip number only for one such `index` offset (k > 0
    a constant) runs over the offset instead: `for off = init to init +
    ceil((ub - lb) / step) * k step k`, the form in which the row-span and
    kept-chunk passes read a block loop (`for off in range(0, N, BLOCK)`).
    A carried float becomes a `tensor<1xT>`
    (`tensor.extract` at its uses, `tensor.splat` of what the trip yields),
    which ktdf-carry-in-scratchpad keeps in the scratchpad. Other carried
    integers are left as they are (ktdf-check-supported refuses them).

    The units hold integers in 64-bit registers, without a narrower type's
    wrap-around. So an `index_cast` (or `index_castui`) to `index` of an
    integer narrower than 64 bits computed by additions, subtractions and
    products from constants, kernel arguments and casts of `index` values
    (Triton's `i32` offsets, a derived one included) is computed on `index`
    values instead, then sign- (zero-) extended from the narrow width by an
    `arith.andi`, which is left out where the range analysis proves the
    value inside the narrow type.

    ```mlir
    // before
    scf.for %i = %c0 to %n step %c1 iter_args(%row = %pid) -> (index) {
      ... %X[%row, %c0] ...
      %next = arith.addi %row, %c16 : index
      scf.yield %next : index
    }
    // after
    scf.for %i = %c0 to %n step %c1 {
      %0 = arith.muli %i, %c16 : index
      %row = arith.addi %pid, %0 : index
      ... %X[%row, %c0] ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFUnrollCarriedLoops
    : Pass<"ktdf-unroll-carried-loops", "::mlir::ModuleOp"> {
  let summary = "Unroll the loops that carry values a known number of times";
  let description = [{
    The scheduler turns the tensor computation of a block into one compute
    group whose values stay in the compute unit; an `scf.for` that carries
    values from one iteration to the next (`iter_args`) has no place in its
    pipelines. A carrying loop whose results nothing uses (and that writes
    nothing) is erased; one whose bounds and step are constants and that
    runs at most `max-trips` times is unrolled: its iterations follow one
    another in its block, each reading what the previous one yielded, so
    the carried tensor is one chain of values the compute unit keeps and
    never travels through device memory. A loop that holds an
    `inter_tile_reduce` is unrolled the same way, carrying or not (its
    all-reduce is scheduled once per kernel). Innermost loops first,
    repeated while an unrolled loop exposes constant bounds. Other carrying loops
    are left as they are (ktdf-check-supported refuses them).

    ```mlir
    // before
    %y = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> tensor<4x64xf32> {
      %next = arith.addf %acc, %one : tensor<4x64xf32>
      scf.yield %next : tensor<4x64xf32>
    }
    // after
    %0 = arith.addf %x, %one : tensor<4x64xf32>
    %y = arith.addf %0, %one : tensor<4x64xf32>
    ```
  }];
  let options = [
    Option<"maxTrips", "max-trips", "int64_t", "::mlir::ktdf::kMaxUnrolledTrips",
           "unroll loops of at most this many trips">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KTDFSplitBatchedReductions
    : Pass<"ktdf-split-batched-reductions", "::mlir::ModuleOp"> {
  let summary = "Cut a column reduction that keeps a batch dimension into one per batch";
  let description = [{
    The stream planner reduces the columns of a tile only when every
    leading dimension is reduced or of extent 1. A `linalg.reduce` of a
    loaded tile (or of element-wise arithmetic on loads) that keeps a
    leading dimension of extent B > 1 besides the columns (a 2x16x64 tile
    summed over its rows, two batches kept), whose result is stored,
    becomes B reductions, each of a window of one batch
    (`tensor.extract_slice`), joined by `tensor.concat`; ktdf-lift-slices
    then loads each window alone and stores each result where it lands.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def KTDFLiftSlices : Pass<"ktdf-lift-slices", "::mlir::ModuleOp"> {
  let summary = "Turn tensor slices of loaded and stored tiles into transfers of sub-tiles";
  let description = [{
    Kernels slice the blocks they load (the two halves of a row in RoPE,
    the first rows of a block, one head's columns) and build outputs from
    pieces (tensor.insert_slice into a tensor.empty, tensor.concat) that
    they store at once. The scheduler has no operation that cuts or glues
    tensors, but with constant sizes and unit strides a window of a box
    tile is a box tile of the same view:

    * a tensor.extract_slice of a ktdp.load through a box access tile (a
      box from its anchor, any order) becomes a load of the sub-tile at
      the slice's offset (an offset known at run time becomes an index of
      the sub-tile's anchor, and the sub-tile is loaded where the slice
      was); through element-wise arithmetic on such loads
      (and splat constants) the operands are sliced and the arithmetic is
      redone on the window (a rank-reducing slice gets a
      tensor.collapse_shape of its unit dimensions);
    * a ktdp.store of a tensor built from pieces at constant offsets
      becomes one store per piece through the sub-tile where it lands,
      when the pieces cover the tensor exactly once.

    The sub-tiles name the same coordinates of the view as the windows,
    so masked coordinates stay masked. What the pass leaves (strides
    other than 1, run-time sizes, a window of a reduction's result...)
    ktdf-check-supported refuses at the op, saying why.

    ```mlir
    // before
    %v = ktdp.load %t : !ktdp.access_tile<4x128xindex> -> tensor<4x128xf16>
    %s = tensor.extract_slice %v[0, 64] [4, 64] [1, 1]
        : tensor<4x128xf16> to tensor<4x64xf16>
    // after: %t's anchor moved 64 columns, its set the 4x64 box
    %s = ktdp.load %t2 : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def KTDFForwardStores : Pass<"ktdf-forward-stores", "::mlir::ModuleOp"> {
  let summary = "Use a stored tensor where the kernel loads it back";
  let description = [{
    A kernel that stores a tensor and later, in the same block, loads the
    same access tile back (a two-pass softmax that parks exp(x - max) in its
    output and rereads it to normalise) reads what it wrote: nothing orders
    the store's DMA before the load's through device memory inside one
    compute group, whose loads all run before its stores. When the tile
    provably lies inside the coordinates its view holds (no masked
    coordinate, where the load would read 0), its set is a box from the
    anchor, the view's strides do not alias, and no op between the two may
    write those elements, the load's uses take the stored tensor instead
    and the load is erased: the value stays in the compute unit and the
    round trip through memory disappears. Stores stay where they are. Other
    reloads are left to the scheduler (ktdf-check-supported orders or
    refuses them).

    ```mlir
    // before
    ktdp.store %e, %tile : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
    %r = ktdp.load %tile : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %y = arith.divf %r, %s : tensor<16x64xf16>
    // after
    ktdp.store %e, %tile : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
    %y = arith.divf %e, %s : tensor<16x64xf16>
    ```
  }];
}

def KTDFStreamWideRows : Pass<"ktdf-stream-wide-rows", "::mlir::ModuleOp"> {
  let summary = "Compute rows wider than the scratchpad allows in column chunks";
  let description = [{
    A block that loads whole rows and computes on them (element-wise ops,
    broadcasts of row scalars, reductions along the row, stores of whole
    rows) needs every row tensor it keeps in the scratchpad at once; a
    1x262144 f16 softmax row is all of a 512 KiB scratchpad. When a row
    tensor of such a group is over `max-tile-bytes`, each consumer of the
    rows (a reduction along the last dimension, a store) is redone in an
    `scf.for` over column chunks of at most that size: the chunk's loads
    are re-read from device memory (what two consumers need is read twice,
    never kept), the element-wise chain is recomputed on the chunk, a
    reduction carries its accumulator through `iter_args` (starting from
    the original init) and a store writes the chunk. Independent consumers
    share one loop. The loops stay loops (the pass runs after
    ktdf-unroll-carried-loops; ktdf-carry-in-scratchpad keeps their
    accumulators). A group some op of which cannot be chunked (a
    `linalg.index`, a transposed or masked tile, a store between a load and
    the consumer that re-reads it) is left whole with a warning saying why.
    With `max-tile-bytes=0` (the default) the pass does nothing; the
    compiler driver retries a kernel whose scratchpad is over capacity with
    halving limits (docs/scheduler.md, "Rows wider than the scratchpad").

    The same limit splits gathers: a gathered tensor (an indirect access
    tile's load) that is only stored, possibly through a
    `tensor.expand_shape` adding unit dimensions, and is over
    `max-tile-bytes` becomes one loop over chunks of its leading variables
    of at most 32 KiB, marked `ktdf.spread_chunks` so that
    ktdf-spread-iterations deals them over every lane; each iteration
    gathers one chunk and stores it at the matching offsets of the
    destination (SplitGathers.cpp; the field guide's 16 MB paged KV gather
    through a 2 MB scratchpad).

    ```mlir
    // before (in a row loop)
    %x = ktdp.load %tx : <1x262144xindex> -> tensor<1x262144xf16>
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x262144xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    // after (max-tile-bytes=131072)
    %max = scf.for %k = %c0 to %c262144 step %c65536 iter_args(%acc = %init) -> (tensor<1xf16>) {
      %t = ktdp.construct_access_tile %X[%r, %k] {...} : memref<2x262144xf16> -> !ktdp.access_tile<1x65536xindex>
      %x = ktdp.load %t : <1x65536xindex> -> tensor<1x65536xf16>
      %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x65536xf16>) outs(%acc : tensor<1xf16>) dimensions = [1]
      scf.yield %m : tensor<1xf16>
    }
    ```
  }];
  let options = [
    Option<"maxTileBytes", "max-tile-bytes", "int64_t", "0",
           "stream row groups whose row tensors exceed this many bytes "
           "(0: off)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KTDFCarryInScratchpad
    : Pass<"ktdf-carry-in-scratchpad", "::mlir::ModuleOp"> {
  let summary = "Keep what a loop carries in the tile's scratchpad";
  let description = [{
    A loop that carries tensors (`scf.for` `iter_args`) and that
    ktdf-unroll-carried-loops left in place (its trip count is known only at
    run time, or it has too many trips) keeps each carried tensor in a
    scratchpad view of its own (`ct_local`, at a literal address past the
    kernel's own scratchpad views, marked `ktdf.carried`): the initial
    value is stored into it before the loop, each trip loads it right before
    its first use (after an all-reduce whose result the trip adds to it, so
    that the addition's compute group lies after the exchange) and stores
    what it yields at the end, and the loop's result
    is loaded after the loop. The compute groups this makes are ordinary
    pipelines whose feed reads the view and whose drain writes it; the
    lowering orders a trip's drain before the next trip's feed, and later
    readers after the last trip, with the channels it uses for scratchpad
    views. The value never goes through device memory, and each trip rounds
    it as the kernel writes it. Inner loops first.

    ```mlir
    // before
    %r = scf.for %i = %c0 to %n step %c128 iter_args(%a = %zero) -> tensor<1x128xf16> {
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %s = arith.addf %a, %x : tensor<1x128xf16>
      scf.yield %s : tensor<1x128xf16>
    }
    // after
    ktdp.store %zero, %tc : tensor<1x128xf16>, <1x128xindex>
    scf.for %i = %c0 to %n step %c128 {
      %a = ktdp.load %tc : <1x128xindex> -> tensor<1x128xf16>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %s = arith.addf %a, %x : tensor<1x128xf16>
      ktdp.store %s, %tc : tensor<1x128xf16>, <1x128xindex>
    }
    %r = ktdp.load %tc : <1x128xindex> -> tensor<1x128xf16>
    ```

    A carried value that is not a statically shaped tensor is an error at
    the loop (ktdf-check-supported reports it first in the pipeline).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

def KTDFStoreStatsAfterLoop
    : Pass<"ktdf-store-stats-after-loop", "::mlir::ModuleOp"> {
  let summary = "Keep a row loop's one-element stores in the scratchpad and "
                "store each output once after the loop";
  let description = [{
    A grid-stride row loop (`scf.for %r = %pid to %n_rows step %c16`) that
    stores one value a row (a row's maximum and sum, a layernorm's mean and
    reciprocal standard deviation) into a vector `OUT[%r]` makes one 2-byte
    DMA a row and output, each holding one of the store engine's slots for
    the whole device-memory latency. Instead each store writes element
    `lb * (R + 1) + min((r - lb) / step, R)`, R = ceil(V / step), of a
    scratchpad view of its own (`ct_local`, marked `ktdf.carried` and
    `ktdf.row_stats`; R + 1 elements for each start, so that the points of
    a lane keep theirs apart), and after the loop the point's R elements go
    out in one transfer into a 2-d view of the output, rows of `step`
    elements at column `lb`, whose row count is the number of trips that
    stored inside the output (a run-time value): one strided DMA per output
    and grid point, which the lowering makes straight from the view.

    Applied only where the stores bind the store engine: more stores queue
    than its slots across the lanes it serves, a trip's stores hold the
    slots at least half as long as the trip's rows take the engine, and on
    an engine that also loads, the loop stores nothing else. Left alone: an
    output anything else in the kernel reads or writes, a step that is not a
    constant, a start that may lie outside `[0, step)`, a grid of fewer
    points than lane instances (ktdf-spread-iterations spreads the trips
    instead), kept views over an eighth of a lane's scratchpad. Runs after
    ktdf-carry-in-scratchpad (its views go past the carried views) and only
    when the chunk width is the cost model's.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

def KTDFRemoteScratchpadLoads
    : Pass<"ktdf-remote-scratchpad-loads", "::mlir::ModuleOp"> {
  let summary = "Loads of another tile's scratchpad as inter-tile copies";
  let description = [{
    On a grid of several tiles, a load through a `ct_local` view naming tile
    k (`ct_id = k`) reads what tile k stored into its own scratchpad. When
    one store of the kernel writes that region (the same tile of a view
    without `ct_id` at the same address and layout), before the load in the
    kernel's body, and every tile makes the same loads before it (none in a
    branch or a loop of non-constant bounds, no inter-tile exchange before
    it), the load becomes an `inter_tile_consume` by every tile of an
    `inter_tile_produce` of the stored value by tile k, placed right after
    the store; ktdf-lower-inter-tile makes the pair a `ktdf.tile_copy` over
    the core interconnect. Other such loads are left for
    ktdf-check-supported to refuse, with the reason.

    ```mlir
    // before
    ktdp.store %p, %own_tile      // ct_local view at 0, no ct_id
    %q = ktdp.load %tile_of_k     // the same tile of a ct_id = 2 view at 0
    // after
    ktdp.store %p, %own_tile
    %f = ktdp.inter_tile_produce producer_tiles_per_group = (i)[g] : (i - 2 == 0, g == 0) ...
    %q = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = (i)[g] : (i >= 0, -i + 3 >= 0, g == 0) ...
    ```
  }];
  let dependentDialects = ["::mlir::ktdp::KTDPDialect"];
}

def KTDFForwardScratchpadParts
    : Pass<"ktdf-forward-scratchpad-parts", "::mlir::ModuleOp"> {
  let summary = "Reloads of a distributed view's scratchpad parts as copies "
                "(local, or between cores)";
  let description = [{
    A distributed view whose parts lie in the scratchpads of several tiles
    (`ct_local`, `ct_id = k`) is written by stores that reach other tiles'
    scratchpads, which the scheduler does not do. When every load of the
    parts' memory (through a view laid out as part k, in its local
    coordinates) provably returns what the loading tile itself stored there
    — checked on every grid point: the loaded box lies in part k and in the
    box the nearest earlier store through the distributed view wrote, at the
    same offset on every tile, no scratchpad write between them, and no
    other tile's store through the view touches it — the load is replaced
    by the stored tensor, or, when it reads a slice, by a load of that slice
    from the device memory the stored tensor was loaded from (which no
    store of the kernel writes), and the stores through the view are
    erased. Nothing crosses the interconnect.

    A load that returns, on every tile, the tile one store through the view
    wrote on a tile (another tile for some), or a slice of it at one offset,
    becomes a copy between the cores: an `inter_tile_produce` of the stored
    tensor (a slice: reloaded as above, on the writer) after the store
    and an `inter_tile_consume` in place of the load, whose producer per
    consumer is `(a * c + b) mod N` of the consumer c. Checked on every grid
    point: one store on one tile writes what the tile reads, the same store
    for every tile, before the load in the kernel's body, and every tile
    makes the same loads before it (no branch, loop of varying trips or
    inter-tile exchange), so the interpreter, which yields before each
    load, shows the load that store whatever the tile order
    (`examples/kernels/distributed_exchange.mlir`). A load through the
    distributed view itself (global coordinates) is proved the same way
    when its box lies in one part on every tile: a copy, or a reload when
    every tile reads its own store. A box straddling parts is cut at the
    part boundaries the tiles' boxes cross and each piece proved so (a copy
    or a reload), when the load's value, or what element-wise ops compute
    from it, is only stored whole into device memory: each piece runs those
    ops at its shape and is stored into its box there. A box (or piece) of
    a scratchpad part that no store through the view writes on any tile
    holds what was there before the kernel (an `lx<K>@ADDR` input): when
    every tile reads the same box, the part's tile loads it from its own
    scratchpad inside an `inter_tile_produce` and every tile consumes it in
    place of the load. A part whose innermost dimension is not contiguous
    (column-major) is read and copied through the row-major view of its
    elements (its dimensions by decreasing stride), and each tile
    transposes its copy back with a `linalg.transpose`.

    Otherwise nothing changes and ktdf-resolve-distributed-views refuses
    the view with this pass's reason
    (`examples/kernels/distributed_copy.mlir`).

    ```mlir
    // before: tile t stores A's rows 16t.. through D (parts: column blocks
    // in tiles 0..3's scratchpads), reads block k back through L_k
    %rows = ktdp.load %ta                  // A[16t, 0], 16x64
    ktdp.store %rows, %td                  // D[16t, 0]
    %v1 = ktdp.load %tl1                   // L_1[16t, 0], 16x16
    // after
    %v1 = ktdp.load %ta1                   // A[16t, 16], 16x16
    ```
  }];
  let dependentDialects = ["::mlir::ktdp::KTDPDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFRowMajorViews : Pass<"ktdf-row-major-views", "::mlir::ModuleOp"> {
  let summary = "Views of device memory whose innermost dimension is not "
                "contiguous as row-major views and transposes";
  let description = [{
    A view of device memory with static sizes and strides whose innermost
    dimension is not contiguous (a column-major view: `sizes: [32, 64]`,
    `strides: [1, 64]`, element (i, j) at i + 64j) holds the same elements
    as the row-major view of its dimensions by decreasing stride (64x32,
    `strides: [64, 1]`). When every user of the view is an access tile in
    identity order over a box from the origin, only loaded or stored
    through, the view becomes that row-major view, each tile its box and
    anchor in that order, each load a load of the reordered tile followed
    by a `linalg.transpose` back, and each store a store of its value
    transposed. ktdf-generalize then moves the transposes into the tiles'
    order (permuted tiles: strided DMAs of one-element rows). Any other
    such view stays, and ktdf-check-supported refuses it at the view.

    ```mlir
    // before
    %V = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [1, 64]
    %t = ktdp.construct_access_tile %V[0, 0] ... -> <32x64xindex>
    %v = ktdp.load %t : <32x64xindex> -> tensor<32x64xf16>
    // after
    %V = ktdp.construct_memory_view %x, sizes: [64, 32], strides: [64, 1]
    %t = ktdp.construct_access_tile %V[0, 0] ... -> <64x32xindex>
    %w = ktdp.load %t : <64x32xindex> -> tensor<64x32xf16>
    %v = linalg.transpose ins(%w) outs(...) permutation = [1, 0]
    ```
  }];
  let dependentDialects = ["::mlir::ktdp::KTDPDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFResolveDistributedViews
    : Pass<"ktdf-resolve-distributed-views", "::mlir::ModuleOp"> {
  let summary = "Access tiles of distributed views as tiles of one part";
  let description = [{
    A distributed view whose parts are shards of one tensor — global views
    with the same sizes, strides and element type, coordinate sets that are
    consecutive boxes of one extent L along one dimension, starting at
    `ptr + c0 + k * delta` for part k — is accessed through tiles that each
    lie in one part: the anchor minus the first part's lower bound is
    provably a multiple of L along that dimension, the tile at most L wide,
    and the anchor within the parts. Each such tile becomes a tile of a
    view of part `k = (anchor - lo) floordiv L` at its computed address
    (`ptr + c0 + k * delta`), in the part's local coordinates (global
    minus the part's lower bound along every dimension, as the interpreter
    indexes parts), so the part is chosen per grid point and loop
    iteration like any computed view address. Runs after
    ktdf-record-tensor-extents (the tensors' extents are the kernel's as
    written). Other distributed views over global parts of static sizes
    whose coordinate sets are disjoint boxes (tiles that may straddle
    parts, parts at unrelated addresses) are accessed part by part: each
    load and store of a tile becomes one masked access per part it may
    touch, in the part's local coordinates, and the element-wise ops
    between those loads and the stores are repeated per part; a store goes
    to the same part of a distributed view with the same part boxes at the
    same anchor, or to the part's box of a plain view. Refused at the
    view, the tile or the access, with the reason: parts in a scratchpad,
    overlapping or dynamic parts, values of straddling loads used other
    than element-wise or stored elsewhere, other users of a distributed
    view.

    ```mlir
    // before: X stored as two column shards of 16x128 at ptr and ptr + 2048
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : ...) : memref<16x256xf16>
    %t = ktdp.construct_access_tile %X[%row, %col0] ...
    // after
    %k = arith.divui %col, %c128 : index
    %a = arith.addi %ptr, (%c0 + %k * %c2048) : index
    %P = ktdp.construct_memory_view %a, sizes: [16, 128], strides: [128, 1] ...
    %t = ktdp.construct_access_tile %P[%row, %col0 - 128 * %k] ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

def KTDFLowerInterTile : Pass<"ktdf-lower-inter-tile", "::mlir::ModuleOp"> {
  let summary = "Inter-tile reductions as all-reduces of scratchpad views";
  let description = [{
    Turns each `ktdp.inter_tile_produce` + `ktdp.inter_tile_reduce` pair
    into a `ktdf.all_reduce` of a scratchpad view: the partial the produce
    yields is stored into a `ct_local` view of its own (marked
    `ktdf.exchange`, at a literal address past the kernel's scratchpad
    views), the all-reduce combines the views of each group's tiles in
    place (the other tiles' chunks arrive in a second such view), and the
    reduce's result is loaded back (reshaped to the declared result type, a
    1x128 partial to 128). Groups are enumerated at compile time (every
    tile of the grid in exactly one group, its consumers its producers).

    ```mlir
    // before
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4 -> <(tensor<1x128xf16>), groups = #g0> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<1x128xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x128xf16>) ... {
      ^bb0(%a: tensor<1x128xf16>, %b: tensor<1x128xf16>):
        %s = arith.addf %a, %b : tensor<1x128xf16>
        ktdp.yield_reduced %s : tensor<1x128xf16>
    }
    // after
    ktdp.store %p, %te : tensor<1x128xf16>, <1x128xindex>
    ktdf.all_reduce %E, %R {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]} : ...
    %r = ktdp.load %te : <1x128xindex> -> tensor<1x128xf16>
    ```

    Refused, at the op with the reason (ktdf-check-supported reports the
    same first): an inter-tile op inside a loop or a branch that earlier
    passes did not remove, a produce whose body computes (it must only
    yield values defined before it) or yields several values, a combiner
    that is not one element-wise `arith` float op (addf, mulf, maximumf,
    minimumf, maxnumf, minnumf) of its two arguments (or the linalg.add,
    mul, max or min applying it), an identity that is
    not that op's neutral element as a splat constant, consumers other
    than the producers, a `producer_dependency_per_consumer` set, groups
    that do not partition the grid.

    An `inter_tile_produce` + `inter_tile_consume` pair becomes a
    `ktdf.tile_copy`: the produce's body moves before it (KTDFToDFIR runs
    it only on the tiles that send the partial or keep their own), the
    partial is stored into an exchange view, the copy moves each consumer's
    one producer's view (chosen by the dependency set, if any) into the
    consumer's second view, and the result is loaded from it; a consumer
    that is its own producer stores the partial into that view itself
    (`stored_locally`). Refused: consumers that do not cover the grid, a
    consumer with no or several producers, a body that uses the group id
    or reads a tensor the kernel writes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::ktdp::KTDPDialect",
                           "::mlir::ktdf::KTDFDialect"];
}

def KTDFMergeExchangeTiles
    : Pass<"ktdf-merge-exchange-tiles", "::mlir::ModuleOp"> {
  let summary = "Several tiles of one lane merged at an all-reduce or copy";
  let description = [{
    When a kernel's grid has more tiles than the device has lanes (cores
    times the lanes of a core, or the cores when `use-lanes` is off, as
    ktdf-distribute counts them), a lane would run several tiles in
    sequence, and a tile cannot wait at an all-reduce for tiles that run
    after it on its own lane. The kernel is cut at its one
    `ktdf.all_reduce` (or `ktdf.tile_copy`) instead: runs of `b` consecutive tiles along one grid
    dimension (the first, and the smallest `b` of at least tiles / lanes
    dividing its extent, whose runs each lie inside one group and leave a
    group's merged tiles on different cores, for the ring) become one
    tile of a grid `b` times smaller. It runs the part before the exchange
    for each of its tiles in ascending order (ops that touch memory or
    depend on the tile id, once per tile; the rest once), folds their
    partials with the combiner in that order (`((x0 op x1) op x2) ...`),
    stores the fold into the exchange view, reduces it with the merged
    groups, and runs the part after the exchange for each of its tiles.

    ```mlir
    // before: grid [16, 1, 1], groups of 4 tiles, 8 lanes
    %t = ktdp.get_compute_tile_id : index
    %x = <partial of tile %t>
    ktdp.store %x, %te
    ktdf.all_reduce %E, %R {combiner = "arith.maximumf",
        groups = [array<i64: 0, 1, 2, 3>, ...]}
    <after the exchange, tile %t>
    // after: grid [8, 1, 1], groups of 2 merged tiles
    %v:3 = ktdp.get_compute_tile_id : index, index, index
    %t0 = %v#0 * 2 + 0    %t1 = %v#0 * 2 + 1
    %x0 = <partial of tile %t0>
    %x1 = <partial of tile %t1>
    %m = arith.maximumf %x0, %x1
    ktdp.store %m, %te
    ktdf.all_reduce %E, %R {combiner = "arith.maximumf",
        groups = [array<i64: 0, 1>, ...]}
    <after the exchange, tile %t0>
    <after the exchange, tile %t1>
    ```

    A `ktdf.tile_copy` (a broadcast) is merged the same way when the tiles
    of each run consume one tile's value and every producer lies at the
    same position of its run: the merged tile stores that position's
    partial, and its source is the merged tile of its tiles' source; a
    producer and its consumers stay on different cores.

    Refused, at the op: more than one all-reduce or copy, one inside a
    loop or a branch, scratchpad views other than the exchange's (the
    merged tiles share one scratchpad), no dimension whose runs stay
    inside groups (or share a source) on different cores.
  }];
  let options = [
    Option<"useLanes", "use-lanes", "bool", "true",
           "count every lane of a core, not only one (as ktdf-distribute)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

def KTDFScheduleAllReduce
    : Pass<"ktdf-schedule-all-reduce", "::mlir::ModuleOp"> {
  let summary = "Schedule each ktdf.all_reduce as a ring over the interconnect";
  let description = [{
    Makes each `ktdf.all_reduce` a pipeline of four stages bound to the
    first lane's units: `send` on the data mover that reads the scratchpad
    (its remote DMAs cross the core interconnect), `feed`, `combine` and
    `drain` on the lane's load, vector and store units, with the FIFO
    slots between them (a stick wide). Each stage holds a copy of the
    all-reduce; the lowering emits, per tile, its part of a ring
    reduce-scatter then all-gather over the group's tiles in ascending
    order. It chooses `pieces`: each of the group's P chunks moves as that
    many pieces with their own tokens, so that one piece crosses the ring
    while the previous one is combined (at least 256 bytes a piece, at most
    8). A device without a core interconnect, tiles of a group on one core,
    or a lane without a data mover reading its scratchpad is an error at
    the all-reduce. Runs after ktdf-allocate-scratchpad (the views are the
    kernel's scratchpad region; the pipeline has no buffers).
    A `ktdf.tile_copy` becomes a pipeline of one `send` stage on that data
    mover, holding the copy.
  }];
}

def KTDFCheckSupported : Pass<"ktdf-check-supported", "::mlir::ModuleOp"> {
  let summary = "Reject KTIR constructs the scheduler cannot handle yet";
  let description = [{
    Reports, at the offending op and naming the construct, every part of a
    kernel that the mapping group cannot turn into ScheduleIR: inter-tile
    communication, indirect access tiles, distributed and scratchpad views,
    views at literal addresses, non-box or permuted access tiles, matrix
    products and other non-element-wise linalg ops, `scf.while` loops that
    do not count and `scf.if` with results computed in a branch (the
    pipeline lowers the others before this check: run alone, it accepts
    what ktdf-uplift-while and ktdf-lower-if lower), calls, loops carrying
    values that ktdf-unroll-carried-loops does not remove,
    `tensor.extract`/`tensor.splat` other
    than the broadcast of a one-element tensor, and access tiles that may
    start before their view. Loads that may reach past their view are
    accepted: the DMA lowering zeroes what they mask, where the reference
    interpreter reads 0. The IR is not changed.
  }];
}

def KTDFMapMemorySpaces : Pass<"ktdf-map-memory-spaces", "::mlir::ModuleOp"> {
  let summary = "Map KTIR memory spaces onto device memories";
  let description = [{
    Tags every `ktdp.construct_memory_view` with `ktdf.memory`, the kind of
    the device memory its memory space maps to under the target's
    `memory_map` (either spelling of the space). A space the map leaves out
    is an error at the view.

    ```mlir
    %A = ktdp.construct_memory_view %a, ... {memory_space = #ktdp.memory_space<global>, ...}
    // becomes
    %A = ktdp.construct_memory_view %a, ... {ktdf.memory = "DDR", memory_space = ...}
    ```
  }];
}

def KTDFSinkIntoLoops : Pass<"ktdf-sink-into-loops", "::mlir::ModuleOp"> {
  let summary = "Clone loop-invariant tensors into the loops that use them";
  let description = [{
    A tensor (or a scalar `tensor.extract` takes from one) defined outside a
    loop body and used by an op in it is recomputed at the start of that
    body: its defining op and, recursively, the ops computing its operands
    are cloned there, back to constants, tensor ops and loads, so that each
    compute group ktir-to-ktdf builds lies in one block. A load is cloned
    only when no store of the kernel writes its tensor (reloading it then
    reads the same data); a value that cannot be cloned is left for
    ktir-to-ktdf to refuse. Ops left without uses are erased. The DMA of a
    sunk load whose tile does not change across the loop is hoisted back out
    by ktdf-hoist-invariant-transfers.

    Sinking recomputes a value once per trip, so a loop of at most 16
    constant trips whose body uses arithmetic done outside it (a row
    statistic: reductions, scalar math) is unrolled first instead, and then
    a load of a tile an earlier load in the same block loaded, from a tensor
    no store writes, is replaced by that earlier load (the unrolled column
    loop reuses the row the statistic's pass loaded). A row statistic in
    a loop that is not unrolled (a float scalar computed with a reduction
    in the loop's block) is computed once, by a clone of its computation
    that stores it into a one-element scratchpad view (`ktdf.carried`),
    and each trip loads that element instead of reducing again.

    ```mlir
    // before
    %cos = ktdp.load %tcos : <8x16xindex> -> tensor<8x16xf16>
    scf.for %h = %a to %b step %c1 {
      %p = arith.mulf %x1, %cos : tensor<8x16xf16>
    // after
    scf.for %h = %a to %b step %c1 {
      %cos = ktdp.load %tcos : <8x16xindex> -> tensor<8x16xf16>
      %p = arith.mulf %x1, %cos : tensor<8x16xf16>
    ```
  }];
}

def KTDFGeneralize : Pass<"ktdf-generalize", "::mlir::ModuleOp"> {
  let summary = "Generalise and fuse the arithmetic into linalg.generic";
  let description = [{
    In every kernel: element-wise `arith`/`math` ops on tensors become
    `linalg.generic`, named linalg ops (`add`, `fill`, `reduce`,
    `broadcast`, ...) are generalised, and element-wise producers are fused
    into their consumers, so a compute group is a small DAG of
    `linalg.generic` ops whose scalar bodies are what the units compute.
    `tensor.splat` of a `tensor.extract` of a one-element tensor becomes a
    generic broadcasting that tensor through a constant indexing map.
    `tensor.collapse_shape` / `expand_shape` that only remove or add
    dimensions of extent 1 become copies whose indexing maps carry the
    reshape (fused away), and `linalg.matmul(x, linalg.transpose(x))` with
    a 1x1 result, a row's sum of squares, becomes an f32-accumulated row
    reduction of `x * x`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KTDFLegalizeUnitTypes
    : Pass<"ktdf-legalize-unit-types", "::mlir::ModuleOp"> {
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let summary = "Compute bf16 arithmetic in f32, refuse what the unit lacks";
  let description = [{
    Visits every `arith`/`math` operation on floats or on integer tensor
    data (i8 to i64; not index arithmetic, computed in f32, nor i1 masks)
    in a `linalg.generic` body (what the lane's vector unit computes) whose
    class (element-wise, transcendental, reduction for an operation folding
    into a reduction's accumulator) the unit has no rate for on its element
    type. An element-wise or transcendental operation on a 16-bit float
    (bf16 on the shipped devices: no vector unit has bf16 lanes) that the
    unit computes on f32 is computed in f32: its operands extended, the op
    on f32, its result rounded back with `arith.truncf`, which the unit is
    charged for at f32 (ChargedType.h). A reduction into a bf16
    accumulator accumulates in f32 (its initial value extended, its result
    rounded once, by a linalg.generic each), as the interpreter and the
    simulator keep a 16-bit accumulator. Every other such operation (f32 on
    an f16-only unit, i32 on a float-only one) is reported at the
    operation, naming the unit and the types it does compute. An operation
    no compute unit has an instruction for (ScalarInstruction.h:
    `math.powf`, `math.exp2`, the shifts) is reported too, naming the
    device and its unit; `math.powf`
    by the constant 2.0 or 1.0 is first computed as `x * x` or `x`, which
    is exact. Runs after ktdf-generalize, before scheduling; the bundle
    emitter keeps the same checks as the backstop.
  }];
}

def KTDFSplitMatrixGroups
    : Pass<"ktdf-split-matrix-groups", "::mlir::ModuleOp"> {
  let summary = "Give a compute group's matrix products to the matrix unit";
  let description = [{
    A compute group that holds matrix products the lane's matrix unit
    multiplies and element-wise work (a SwiGLU's SiLU and gate between its
    projections) would run entirely on the vector unit: a matrix unit has
    no element-wise datapath. Where the device feeds both units from the
    scratchpad `ct_local` maps to and drains both into it, the group is cut
    into the products and the element-wise ops: each value one side hands
    to the other is stored into a scratchpad view of its own (`ct_local`
    at a literal address past the kernel's own, marked `ktdf.handover`)
    right after it is computed and loaded back just before its first use
    on the other side, so ktir-to-ktdf makes one pipeline per side, and
    the lowering orders the hand-overs with the channels of scratchpad
    views. Loads and fills both sides use are duplicated. A group whose
    parts would have to run in a different order than their ops appear
    (an element-wise op after a product it feeds) is left whole.

    ```mlir
    // before
    %h = linalg.matmul ins(%x, %w : ...) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    %g = linalg.generic ... ins(%h : tensor<8x64xf16>) ...   // SiLU
    // after
    %h = linalg.matmul ins(%x, %w : ...) outs(%zero : tensor<8x64xf16>) -> tensor<8x64xf16>
    ktdp.store %h, %th : tensor<8x64xf16>, <8x64xindex>      // %th: a ktdf.handover view
    %h2 = ktdp.load %th : <8x64xindex> -> tensor<8x64xf16>
    %g = linalg.generic ... ins(%h2 : tensor<8x64xf16>) ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

def KTDFSplitShapeGroups
    : Pass<"ktdf-split-shape-groups", "::mlir::ModuleOp"> {
  let summary = "Give a window's computation a compute stage of its shape";
  let description = [{
    One compute stage streams tiles of one shape, and ktir-to-ktdf makes
    one compute stage of each compute group. A group that computes on a
    window of a loaded row (a sub-tile ktdf-lift-slices loads) and on the
    whole row, joined only by row scalars — a one-element tensor a compute
    op yields (a reduction of the window, an element computed apart) that
    its user broadcasts over its tile — is cut into parts of one tile shape
    each: each such scalar is stored into a scratchpad view of its own
    (`ct_local` at a literal address past the kernel's own, marked
    `ktdf.handover`, as ktdf-split-matrix-groups does) right after it is
    computed and loaded back before its first use in the other part, which
    the stream planner reads as one value per row. Parts of the same shape
    stay one (a softmax's row maximum and exp share one stage); fills both
    parts use are duplicated. A group whose two shapes' parts would have to
    run in another order than their ops appear (the window's computation
    uses the row's maximum, the row's op the window's sum) is refused at
    the window's op, saying so; one on a device whose vector unit is not
    fed from the scratchpad `ct_local` maps to is left whole.

    ```mlir
    // before: each row minus the sum of its left half
    %l = ktdp.load %left : <1x64xindex> -> tensor<1x64xf16>
    %s = linalg.generic ... ins(%l : tensor<1x64xf16>) outs(%zero : tensor<1xf16>)  // sum
    %y = linalg.generic ... ins(%x, %s : tensor<1x128xf16>, tensor<1xf16>) ...     // x - s
    // after
    %s = linalg.generic ... ins(%l : tensor<1x64xf16>) outs(%zero : tensor<1xf16>)
    ktdp.store %s, %th : tensor<1xf16>, <1xindex>   // %th: a ktdf.handover view
    %s2 = ktdp.load %th : <1xindex> -> tensor<1xf16>
    %y = linalg.generic ... ins(%x, %s2 : tensor<1x128xf16>, tensor<1xf16>) ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

def KTDFShareLeftOperands
    : Pass<"ktdf-share-left-operands", "::mlir::ModuleOp"> {
  let summary = "Share a loop's computed left operands between idle lanes";
  let description = [{
    A gated FFN computes, on each trip of its hidden loop, a gate from loads
    and accumulates its product with the trip's rows of W2 into the output
    block the loop carries: ktdf-split-output-blocks would compute every
    gate in each copy, and splitting the trips into partial sums would
    round the accumulator differently. When the grid has fewer points than
    instances (cores times lanes, or the cores when `use-lanes` is off, as
    ktdf-distribute counts them: a lane cannot run two copies that
    exchange), the device has a core interconnect and a scratchpad per
    core, this pass adds a last grid dimension `%c` of extent S (a power
    of two: idle instances per point, at most the cores, dividing the
    output columns into slices of at least `min-columns`) and makes the
    loop three phases: copy `%c` computes the gates of trips `%c`,
    `%c + S`, ... into a trip-major `ct_local` exchange view zeroed
    before, a `ktdf.all_reduce` (addf) gives every copy all the gates, and
    the loop, loading each trip's gate from the view, is cut into column
    slices as ktdf-split-output-blocks cuts it. Each gate is computed once
    and each output element accumulated in the kernel's order: the results
    are the kernel's. A loop with a run-time trip count shares the trips
    whose right operand starts inside its view; later trips run as
    written, in a tail loop.

    When a point's gate has m rows and the lane's matrix unit M > m rows
    (its `matrix` shape), F = ceil(M / m) consecutive grid points are first
    merged into one of F m rows where the grid dimension placing the rows
    divides by F and the merged points' copies keep at least as many
    instances busy: the tile id steps F times as far and every tensor
    flowing from or to its row tiles grows F times along its rows. Each
    copy then computes a trip's gate in F parts of its columns (an inner
    loop over the right operands' column slices), so the right operands
    of a part take 1/F of the scratchpad. The function is then marked
    `ktdf.merged_points = F`: the exchange view holds F times the rows,
    and the compile driver compiles a kernel whose scratchpad comes out
    over capacity again with `merge-points` off.

    ```mlir
    // before: grid = [8]
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%a = %zero) -> (tensor<8x1024xf16>) {
      %g = ... gate of trip %j ... : tensor<8x64xf16>
      %w2 = ktdp.load %W2[%j, 0] : tensor<64x1024xf16>
      %n = linalg.matmul ins(%g, %w2) outs(%a)
    }
    // after: grid = [8, 8]
    scf.for %j = %c * 64 to %ub step 512 { ... ktdp.store %g, %G[%j / 64 * 8, 0] }
    ktdf.all_reduce %G, %R {combiner = "arith.addf", groups = [...]}
    %acc = scf.for %j = %c0 to %ub step %c64 iter_args(%a = %zero) -> (tensor<8x128xf16>) {
      %g = ktdp.load %G[%j / 64 * 8, 0] : tensor<8x64xf16>
      %w2 = ktdp.load %W2[%j, %c * 128] : tensor<64x128xf16>
      ...
    }
    ```
  }];
  let options = [
    Option<"maxFactor", "max-factor", "int64_t", "0",
           "at most this many copies per point (0: no limit)">,
    Option<"minColumns", "min-columns", "int64_t", "64",
           "no slice narrower than this many columns">,
    Option<"useLanes", "use-lanes", "bool", "true",
           "count every lane of a core, not only one (as ktdf-distribute)">,
    Option<"mergePoints", "merge-points", "bool", "true",
           "merge grid points up to the matrix unit's rows">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect",
                           "::mlir::ktdf::KTDFDialect"];
}

def KTDFSplitOutputBlocks
    : Pass<"ktdf-split-output-blocks", "::mlir::ModuleOp"> {
  let summary = "Split each grid point's output block over idle lanes";
  let description = [{
    A kernel with matrix products whose grid has fewer points than the
    device has instances (cores times lanes, or the cores when `use-lanes`
    is off, as ktdf-distribute counts them) leaves matrix units idle, and
    a K loop carrying the accumulator cannot be spread. When every tensor
    flowing into the kernel's stores can be cut into column slices — loads
    through 2-d identity-order box tiles, splat constants, empties, fills,
    element-wise ops, `scf.for` iter_args, and `linalg.matmul` through its
    right operand and output, its left operand a load left whole — the pass
    adds a last grid dimension `%j` of extent S (the largest power of two
    that the idle instances allow, that divides the columns and leaves
    slices of at least `min-columns`) and copy `%j` computes columns
    `[%j * C/S, (%j + 1) * C/S)` of every such tensor: loads and stores
    through tiles C/S wide anchored `%j * C/S` further right. Each output
    element is computed by one copy from the same operands in the same
    order, so the results are the kernel's. Only loads are left whole (the
    copies repeat no computation): a kernel whose left operand is computed
    (an attention's P.V, a SwiGLU's gated down projection) is not split.
    A kernel without products whose stores take column reductions (a
    reduction over dimension 0 of a 2-d tensor, one value per column, and
    element-wise work on such vectors) is split the same way, each copy
    folding its own columns, in slices of at least `min-reduction-columns`.

    When the kernel's output rows can be cut too (every store through a
    tile whose first coordinate moves with a tile id, by any stride, the
    products' left operands and outputs keeping their rows apart, their
    right operands read whole), the copies are R parts of the rows (a grid
    dimension before the columns') times C column slices: the most copies
    whose parts fill the matrix unit's rows and whose slices are at least
    16 columns wide, then the fewest operand bytes a copy loads (m/R + n/C),
    then the most row parts. Part h's row tiles sit `h * m/R` rows further.

    ```mlir
    // before: grid = [2, 16]
    %tb = ktdp.construct_access_tile %B[%k, %n] ... -> !ktdp.access_tile<128x512xindex>
    // after: grid = [2, 16, 2]
    %pm, %pn, %j = ktdp.get_compute_tile_id : index, index, index
    %col = arith.muli %j, %c256 : index
    %tb = ktdp.construct_access_tile %B[%k, %n + %col] ... -> !ktdp.access_tile<128x256xindex>
    ```
  }];
  let options = [
    Option<"maxFactor", "max-factor", "int64_t", "0",
           "at most this many copies per point (0: no limit)">,
    Option<"minColumns", "min-columns", "int64_t", "64",
           "no slice narrower than this many columns">,
    Option<"minReductionColumns", "min-reduction-columns", "int64_t", "16",
           "in a kernel of column reductions and no matrix product, no "
           "slice narrower than this many columns">,
    Option<"useLanes", "use-lanes", "bool", "true",
           "count every lane of a core, not only one (as ktdf-distribute)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ktdp::KTDPDialect"];
}

//===----------------------------------------------------------------------===//
// Scheduling
//===----------------------------------------------------------------------===//

def KTDFRouteTransfers : Pass<"ktdf-route-transfers", "::mlir::ModuleOp"> {
  let summary = "Route every transfer through the device's hierarchy";
  let description = [{
    Replaces each logical transfer between device memory and the compute
    stage with one stage per hop of the route the device graph gives (from
    the global memory to the first lane's vector compute unit and back): a
    DMA stage into each intermediate memory (a new private buffer), one
    feed stage that streams buffers into the compute unit's FIFO, one drain
    stage that writes its results back. Stages get the unit's role and
    name, FIFO slots the names of the units they join, and tokens mark
    every buffer hand-over.

    ```mlir
    // before
    %s = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16>
    %t = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
      ktdf.data_transfer %tile to %s : ...
    }
    // after (sample_device)
    %b = ktdf.private : memref<3x64xf16, "L1">
    %s = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 3x64xf16>
    %t = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
      ktdf.data_transfer %tile to %b : ...
    }
    %f = ktdf.stage "feed" depends_in(%t) depends_out(0) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
      ktdf.data_transfer %b to %s : ...
    }
    ```
  }];
}

def KTDFTileStreams : Pass<"ktdf-tile-streams", "::mlir::ModuleOp"> {
  let summary = "Tile compute, feed and drain stages at SIMD granularity";
  let description = [{
    Rewrites each pipeline's compute stage from whole-tile `linalg.generic`
    ops into loops over the tile's rows and over chunks of its innermost
    dimension, one FIFO slot per chunk, with row reductions carried across
    chunks and the passes over a row that reductions require (a value that
    needs a row's reduction is computed in a later pass). The feed and drain
    stages get the same loops with one chunk transfer per slot, so every
    FIFO carries its entries in the order the compute unit reads them. The
    chunk width comes from the cost model (a multiple of the unit's SIMD
    lanes dividing the row) unless `chunk` fixes it.
  }];
  let options = [
    Option<"chunk", "chunk", "int64_t", "0",
           "elements per chunk (0: ask the cost model)">,
    Option<"useCostModel", "use-cost-model", "bool", "true",
           "pick the chunk with the cost model; otherwise one SIMD width">,
    Option<"chunkScale", "chunk-scale", "int64_t", "0",
           "multiply the cost model's chunk by 2^N (N < 0 divides) where "
           "that still divides the row in whole sticks (the tuner's knob)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::scf::SCFDialect"];
}

def KTDFCoarsen : Pass<"ktdf-coarsen", "::mlir::ModuleOp"> {
  let summary = "Merge consecutive iterations into larger transfers";
  let description = [{
    A DMA pays its route's latency once per transfer. When the tiles of
    consecutive iterations of the loop (or the grid dimension) driving a
    pipeline lie next to each other along their first dimension, F
    iterations become one: the loop steps F times as far, the tiles that
    move with it and their buffers grow F times along the first dimension,
    and the streamed stages run over F times as many rows. F divides the
    trip count and each instance's share of the grid; the cost model picks
    the smallest F whose transfers carry twice the bytes the route holds in
    flight, within the scratchpad, unless `factor` fixes it.

    ```mlir
    // before: one 3x64 tile per grid point
    ktdf.parallel (%t) in [32] distribute(num_instances = 8) { ... [3t, 0] ... }
    // after (F = 4): one 12x64 tile per four points
    ktdf.parallel (%t) in [8] distribute(num_instances = 8) {
      %p = arith.muli %t, %c4 : index  ... [3p, 0] ...
    }
    ```
  }];
  let options = [
    Option<"factor", "factor", "int64_t", "0",
           "iterations merged (0: ask the cost model)">,
    Option<"factorScale", "factor-scale", "int64_t", "0",
           "multiply the cost model's factor by 2^N (N < 0 divides) where "
           "that still divides the iterations (the tuner's knob)">
  ];
}

def KTDFBuffer : Pass<"ktdf-buffer", "::mlir::ModuleOp"> {
  let summary = "N-buffer the private resources of pipelines in loops";
  let description = [{
    Sets `modulo(size: N)` on every pipeline, so that a DMA stage may run up
    to N - 1 iterations ahead of the stages that read its buffers. N comes
    from the cost model (enough copies to hide the route's latency, as many
    as the scratchpad holds) unless `depth` fixes it.
  }];
  let options = [
    Option<"depth", "depth", "int64_t", "0",
           "copies of each resource (0: ask the cost model)">
  ];
}

def KTDFSplitProductColumns
    : Pass<"ktdf-split-product-columns", "::mlir::ModuleOp"> {
  let summary = "Split a product's columns over the two lanes of a core";
  let description = [{
    After ktdf-split-point-rows put the halves of a grid point's rows on a
    core's two lanes: where a lane's rows fill at most half the matrix
    unit's m and the product has at least twice its n columns of a right
    operand both lanes share, each lane multiplies the point's rows by its
    half of the columns, the halves rejoined in a scratchpad view the lanes
    share (`ktdf.lanes_shared`): lane h's drain writes columns
    [h N/2, (h + 1) N/2) of it and each lane's consumer reads its rows of
    it whole, as before, so the output is the kernel's bit for bit
    (docs/scheduler.md, "The columns split, built").
  }];
}

def KTDFJoinProductColumns
    : Pass<"ktdf-join-product-columns", "::mlir::ModuleOp"> {
  let summary = "Multiply one left operand by two right operands as one "
                "product of their columns side by side";
  let description = [{
    Where a matrix stage multiplies one left operand by two right operands
    (loaded from device memory, from zero) whose columns together fit one
    block of the matrix unit's n, the two products become one: both right
    operands load into the column halves of one buffer, the unit multiplies
    once, and the result drains into one handover view whose column windows
    the later pipelines read (a SwiGLU's X.[W1|W3] on mesh_device;
    docs/scheduler.md). Left alone: different left operands, a product
    accumulating onto a value, right operands whose columns need two
    blocks anyway, units without a matrix engine. Runs before
    ktdf-allocate-scratchpad, which places the wider buffer and the view.
  }];
}

def KTDFSplitIndexBoundGathers
    : Pass<"ktdf-split-index-bound-gathers", "::mlir::ModuleOp"> {
  let summary = "Move a gather bound by its index reads and only stored in "
                "chunks over idle lanes";
  let description = [{
    A gather's DMA engine reads each index from device memory and waits
    the read's round trip before addressing the element or run. A gather
    whose innermost variable feeds an index subscript reads one for every
    element (RFC-style 2-d gathers: ~300 cycles an element on spyre_like,
    one engine busy); a row or page gather (`ind(%PT[%b, (%t floordiv
    16)])`) reads one per run that needs another index, and is bound by
    those reads when they take its engine longer than its bytes take the
    route (IndexStaging.cpp indexReadsBind; not where ktdf-route-transfers
    stages the indices in a scratchpad the engine reads sooner,
    mesh_device's). When the gathered tensor is only stored and the grid
    leaves lanes idle, the load and the store become a loop over chunks
    (the chunking of ktdf-stream-wide-rows' split gathers,
    SplitGathers.cpp), which ktdf-spread-iterations deals over the lanes:
    every core's DMA engine reads its share of the indices. A per-element
    gather is cut into about the point's elements over its idle lanes, 16
    elements at least; a row or page gather into whole runs, at most one
    chunk a lane, the cut whose reads weigh least on the busiest DMA
    engine (of equals, the most chunks). Gathers computed on, nested in a
    loop, or in a body that stores anything else stay whole. The
    optimising pipeline alone runs it: on one lane the chunks only add
    their stores' latencies.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def KTDFSplitPointRows : Pass<"ktdf-split-point-rows", "::mlir::ModuleOp"> {
  let summary = "Cut grid points into parts of rows for idle lanes and cores";
  let description = [{
    ktdf-distribute deals grid points of unequal work in snake order only
    when they take two or more rounds; with no more points than instances
    (cores times lanes, or the cores when `use-lanes` is off) each point
    runs on its own instance and the busiest one sets the time (a causal
    attention of 64 query blocks on spyre_like's 64 lanes: the last block
    walks 8 key blocks, the mean 4.5). When a loop bound follows from the
    tile id (the points' work differs) and the point's rows are
    independent, the pass adds a last grid dimension of extent 2 and gives
    copy h of each point rows [h R/2, (h + 1) R/2) of its R rows: the
    snake then deals instance k a half of point k and a half of the mirror
    point. A half computes everything else as its point does (its loop
    bounds stay the point's); its row tiles are anchored `h * R/2` rows
    further and `linalg.index 0` in its generics (a causal mask's row
    number) reads `h * R/2` more.

    Row tiles are the 2-d (or 1-d) identity-order box tiles into device
    memory whose first coordinate moves R rows per point and whose others
    do not move; every store goes through one, and every tensor loaded or
    stored through one, and everything computing them or computed from
    them, must keep its rows apart: element-wise ops, empties, fills,
    splats, loop-carried values, a product's left operand and output (its
    right operand read whole), reductions and broadcasts that keep
    dimension 0, and generics whose dimension 0 is parallel and is the
    first coordinate of the row values and no coordinate of the values
    read whole. R must be even and, when the kernel multiplies matrices,
    R/2 at least the matrix unit's rows. Each output element is computed
    by the same ops from the same operands in the same order: the numerics
    are the kernel's.

    Points of equal work are cut too when there are at most half as many
    as instances, a multiple of the cores, and a point loads at least as
    many bytes through tiles that are no row tiles (read whole by every
    row, gathers included) as through row tiles: the halves are then a
    first grid dimension, so the two lanes of a core run the halves of one
    point and its DMA engine loads those bytes once for both (a paged
    attention on spyre_like). The matrix-unit rows are not checked there:
    each half's products run the point's waves.

    Points that leave at least 3 instances each idle, after the trips of
    the loops ktdf-spread-iterations would spread (constant trip counts,
    nothing carried, directly in the function), are cut into more parts,
    whatever their work: P, the largest divisor of R with P times the
    points at most the instances, parts of R/P rows as a last grid
    dimension, copy h anchored `h * R/P` rows further (and its
    `linalg.index 0` reading `h * R/P` more). When every product of the
    kernel multiplies loaded rows (a load or its extf), a part keeps at
    least the matrix unit's rows: fewer pad its products to them and
    re-read the right operand. Each instance runs at most one part; what
    every row reads whole (an attention's keys and values, their widening
    and transpose) each part loads and computes again.
  }];
  let options = [
    Option<"useLanes", "use-lanes", "bool", "true",
           "count every lane of a core, not only one (as ktdf-distribute)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFSplitWideReductions
    : Pass<"ktdf-split-wide-reductions", "::mlir::ModuleOp"> {
  let summary = "Cut wide rows or contraction columns into parts over idle "
                "cores, all-reducing the partials";
  let description = [{
    A kernel of one grid point that reduces rows (a softmax's maximum and
    sum, an RMSNorm's sum of squares) runs on one compute unit however wide
    its rows are. The pass cuts every row tensor of the kernel along its
    last dimension into P parts, P a new first grid dimension: part p
    loads, computes and stores columns [p W/P, (p + 1) W/P) of each row
    (every tile id the point read is 0), and each reduction along the row
    (a `linalg.reduce` of the last dimension, or a generic whose last loop
    is its only reduction, whose body folds with `addf`, `mulf`,
    `maximumf`, `minimumf`, `maxnumf` or `minnumf` from that combiner's
    neutral element) is followed by an `inter_tile_produce` +
    `inter_tile_reduce` of its partial over the P parts, whose result
    replaces it (ktdf-lower-inter-tile lowers the pair, in its loop).

    Row tensors are found from the stores backwards and from each cut
    tensor forwards, as ktdf-split-output-blocks' column slices: loads and
    stores through identity-order box tiles of W columns into device
    memory, splats, empties, fills, element-wise ops, and generics whose
    last loop reads a cut operand as its last coordinate only (operands
    not reading it, a row's maximum, are read whole by every part). Any
    other use (a carried row, an extract, a `linalg.index` of the column)
    leaves the kernel whole. P is the largest divisor of W at most the
    device's cores (a ring runs between different cores' scratchpads)
    leaving at least `min-part-columns` columns a part; a kernel whose
    reductions have as many known rows (constant loop trips times the
    rows of a tensor) as the device has cores is left to the passes that
    spread rows. A maximum or minimum is the kernel's bit for bit; a sum
    is the same terms associated differently.

    When the stores give no such plan, the columns a contraction reads are
    cut instead: from the left operand of the first `linalg.matmul` whose
    left operand is computed (a SwiGLU's gate), the cut columns are
    followed back through element-wise ops and products that compute them
    (their right operands and outputs cut along columns, their left
    operands read whole by every part); each product contracting them
    reads its own rows of its right operand (a load used once) and leaves
    a whole partial. A product accumulating into another's partial (its
    only use) continues it; the last of such a chain is all-reduced with
    addf, and its first must start from zero (a zero splat or fill).
    A chain of 16-bit products is widened to f32 (an f32 zero start, each
    product accumulating in f32), so the parts exchange f32 partials and
    one truncf rounds the sum once, as the kernel's own product does.
    Stores of whole values run on part 0 only. P is the largest divisor of
    the columns at most the cores leaving 8 columns a part,
    whatever the rows (the parts divide the weights every row reads).

    A kernel of several points is cut only this way, and only when its
    contraction's partial goes, through shape casts, into the kernel's
    own addf all-reduce over every tile in one group, outside loops (a
    FFN sharded over its hidden columns): each shard's columns are cut
    into P parts, a new last grid dimension, P the largest divisor of the
    shard's columns at most the cores over the points leaving 8 columns
    a part; the parts' partials are all-reduced within their shard, then
    the kernel's all-reduce sums the shards in P groups (part p of every
    shard), and part 0 of the storing point stores.
  }];
  let options = [
    Option<"minPartColumns", "min-part-columns", "int64_t", "1024",
           "the fewest columns of a row a part keeps">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFSplitRowTiles : Pass<"ktdf-split-row-tiles", "::mlir::ModuleOp"> {
  let summary = "Cut a loop's row tiles so its trips fill idle lanes";
  let description = [{
    ktdf-spread-iterations gives each instance a grid point leaves idle at
    most one iteration of its loop: a loop of T trips over tiles of R rows
    with T x points below the device's instances (cores times lanes, or
    the cores when `use-lanes` is off, as ktdf-distribute counts them)
    leaves some idle (the shipped rmsnorm: 8 trips of 4 rows, 16 cores on
    mesh_device). When the loop body computes row by row, the pass cuts
    each trip into F trips of R/F rows, F the largest divisor of R with
    T x F x points at most the instances (and T x F at most `max-factor`):
    the loop becomes `scf.for %k = 0 to T * F step 1`, and its row tiles are
    anchored `%k * R/F` rows after where trip 0's was.

    A grid-stride loop whose trip count is known only at launch
    (`scf.for %b = %pid to ceildiv(2n, 64) step 2`) keeps its trips and is
    wrapped in a loop of S row slices of at least 16 rows, which
    ktdf-spread-iterations deals to the idle instances. Slices pay while a
    point has few trips and lose when it has many (each trip pays its
    transfers' latency S times), so the whole loop is kept beside the sliced
    one and tile 0's trip count picks one at run time by the cost model's
    estimate of each. A run-time step is refused.

    Otherwise it applies to a kernel's one loop directly in the function, of
    constant bounds, carrying nothing, outside which the kernel only stages
    data into the scratchpad (what ktdf-spread-iterations spreads). Row tiles
    are the loop's 2-d (or 1-d) identity-order box tiles into device memory
    whose first coordinate is the loop variable's linear function, one
    trip's R rows after the previous trip's, all at the same rows of a
    trip; the loop variable may do nothing else, every store of the body
    goes through one, and every tensor loaded or stored through one, and
    everything computing them or computed from them, must keep its rows
    apart: element-wise ops, empties, fills, splat constants, reductions
    that keep dimension 0, and generics whose dimension 0 is parallel and
    is the first coordinate of the row values and no coordinate of the
    values read whole (a weight). Each output element is computed by the
    same ops from the same operands in the same order: the numerics are
    the kernel's.
  }];
  let options = [
    Option<"maxFactor", "max-factor", "int64_t", "0",
           "at most this many trips for ktdf-spread-iterations to spread "
           "(0: no limit)">,
    Option<"useLanes", "use-lanes", "bool", "true",
           "count every lane of a core, not only one (as ktdf-distribute)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KTDFOrderGrid : Pass<"ktdf-order-grid", "::mlir::ModuleOp"> {
  let summary = "Order the grid's dimensions so that exchanging tiles "
                "run on distinct cores";
  let description = [{
    ktdf-distribute runs point p of a `ktdf.parallel` (first dimension
    slowest) on core p mod C, and the ring of an all-reduce, like a tile
    copy, sends between the scratchpads of different cores. When the tiles
    of an all-reduce group, or a copy's producer and consumer, would share
    a core, the pass takes the first order of the parallel's dimensions
    in which none do: the extents and the body's coordinates are permuted
    and the tiles the exchanges name (all-reduce groups, tile-copy sources;
    first dimension fastest) renumbered for the new grid. A [2, 4] grid
    with groups of the four tiles 4g to 4g + 3 on a 4-core device becomes
    a [4, 2] parallel whose point p is the kernel's tile p: each group runs
    on cores 0 to 3. The order stays when it already separates them, when
    no order does (ktdf-schedule-all-reduce then refuses the kernel, in
    its own tile numbering), and when a scratchpad view names a tile
    (`ct_id`).
  }];
}

def KTDFSpreadIterations
    : Pass<"ktdf-spread-iterations", "::mlir::ModuleOp"> {
  let summary = "Spread a grid point's loop iterations over idle lanes";
  let description = [{
    When the launch grid has fewer points than the device has instances
    (cores times lanes, or the cores when `use-lanes` is off, as
    ktdf-distribute counts them), the loops directly in the
    `ktdf.parallel` body run
    their iterations on K = instances / points instances instead of one: a
    new last grid dimension `%j` in `[0, K)` is added, and every such loop
    `scf.for %i = %lb to %ub step %s` becomes `scf.for %i = %lb + %j * %s
    to %ub step %s * K` (iteration t of the point runs on its copy t mod K);
    a loop with constant bounds and step of T trips gives copy j the
    contiguous block [j T/K, (j + 1) T/K) (K dividing T), which
    --ktdf-coarsen can still merge. Applies only when every pipeline of the
    body lies in such a loop or only stages data into the scratchpad (each
    copy fills its own lane's region; no compute group storing to device
    memory is repeated K times), no loop carries values, the kernel's
    scratchpad views are carried values, matrix hand-overs (each lane fills
    its own) or written only by those staging pipelines, and no loop with a
    constant lower bound and step has a run-time trip count (--ktdf-coarsen
    may merge it: merged iterations pay fewer DMA latencies, and spreading
    would take its tiles apart). K is at most the loops' trip count when it
    is known.
    Iterations of a loop are independent: --ktdf-check-supported refuses
    kernels whose iterations communicate through memory. A loop with a
    transfer to device memory whose destination is not known to move with
    every trip (it does not change with the induction variable, or may
    repeat, `r mod 4`: trips may store to one place, which
    --ktdf-check-supported refuses only when it can enumerate the trips)
    is not spread: on one lane its trips store in order and the last wins.
  }];
  let options = [
    Option<"maxFactor", "max-factor", "int64_t", "0",
           "at most this many copies per point (0: no limit)">,
    Option<"useLanes", "use-lanes", "bool", "true",
           "count every lane of a core, not only one (as ktdf-distribute)">
  ];
}

def KTDFDistribute : Pass<"ktdf-distribute", "::mlir::ModuleOp"> {
  let summary = "Distribute the launch grid over identical instances";
  let description = [{
    Sets `distribute(num_instances = N)` on the kernel's `ktdf.parallel`:
    N is the number of cores times the lanes of a core (identical copies of
    the vector compute unit with their load and store units), or the number
    of cores when `use-lanes` is off, never more than the grid has points.

    With `balance` (the default), when N divides the points into two or
    more rounds and the points' work differs, it deals them in snake order
    (`distribute(num_instances = N, snake)`: instance k runs points k,
    2N - 1 - k, 2N + k, ...) if that gives the busiest instance less work
    than contiguous blocks. A point's work is the number of pipeline
    executions it runs: its loops' trip counts evaluated from its
    coordinates, constants and enclosing loop variables. A causal
    attention's query block t walks t / 8 + 1 key blocks; over 16
    instances the last block of four points walks 32, dealt in snake order
    every instance walks 18. When a bound is known only at run time (a
    grid-stride row loop up to a launch scalar), the points' work is
    evaluated with the index and integer scalars set to each of 1 to twice
    the points, and snake order is taken when it is no worse for any of
    those values and better for one; otherwise the points stay in blocks.
  }];
  let options = [
    Option<"useLanes", "use-lanes", "bool", "true",
           "spread tiles over every lane of a core, not only one">,
    Option<"balance", "balance", "bool", "true",
           "deal points of unequal work in snake order when that evens "
           "out the instances' work">
  ];
}

def KTDFHoistInvariantTransfers
    : Pass<"ktdf-hoist-invariant-transfers", "::mlir::ModuleOp"> {
  let summary = "Load data that does not change across a loop once";
  let description = [{
    A DMA load stage (the first hop of a load, tile to buffer) of a pipeline
    inside `scf.for` loops moves out of the outermost of those loops across
    which its transfer does not change: its access tile depends neither on
    the induction variables nor on anything else computed in the loop, and
    nothing in the loop writes the tensor it reads. The stage and its
    buffer move into a new pipeline right before that loop, which exports
    the buffer (`ktdf.pipeline -> memref<...>`, the buffer marked `export
    i`); the stages that read the buffer in the loop read the export, and
    drop their token from the moved stage. The index arithmetic and access
    tile the transfer needs are cloned before the loop. A loop known to run
    at most once gains nothing and is left alone. A transfer that does not
    change across the grid's points either leaves the grid when a lane
    walks several of them: its pipeline is `per_instance`, at the top of
    the `ktdf.parallel` body, and runs once per lane instance (unless
    `grid` is off).

    With `spans` (default), a load its loop slides along the last
    dimension of its view (the tile's last coordinate is the loop's
    induction variable, from a constant >= 0 by a constant step; nothing
    else about it changes in the loop) becomes one load of the view's whole
    extent along that dimension plus one tile of zeros, placed before the
    loop and exported the same way; its readers take their block at
    min(iv, extent). Loads of the same span in sibling loops share it (a
    layernorm's passes over its row), and a span leaves enclosing loops and
    the grid like an invariant load. Spans use at most a quarter of the
    lane's scratchpad. A span whose pipeline runs more than once per lane
    (it stays inside a loop or the grid's body: a layernorm's row loop)
    gets `span-copies` copies where that quarter holds them, so its DMA
    loads the next row while the compute units work on this one.

    With `repeats` (default), a load whose access tile later sibling
    pipelines of its block load again, nothing in between writing the
    tensor (an RMSNorm's row, loaded for the sum of squares before its
    all-reduce and again for the normalisation after it), is loaded once:
    it moves into an exporting pipeline right before the first, which all
    of them read, within the same quarter of the scratchpad and with
    `span-copies` copies. A row loop of at least 16 trips a lane (or a
    run-time count) whose body is the row's partial, its all-reduce and
    the partial's use gets one copy more where the quarter holds it:
    ktdf-to-dfir then runs each lane's partial of trip t + 1 while trip
    t's exchange goes round (LanePipelining.cpp), holding rows t and
    t + 1 while the span of t + 2 loads.

    ```mlir
    // before
    scf.for %i = %c0 to %c16 step %c1 {
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private : memref<128xf16, "L1">
        %t = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "..." {
          ktdf.data_transfer %vtile to %buf : ...
        }
        %f = ktdf.stage "feed" depends_in(%x, %t) ... { ... %buf[%j] ... }
        ...
      }
    }
    // after
    %v = ktdf.pipeline modulo(size: 1) -> memref<128xf16, "L1"> {
      %buf = ktdf.private export 0 : memref<128xf16, "L1">
      %t = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "..." {
        ktdf.data_transfer %vtile to %buf : ...
      }
    }
    scf.for %i = %c0 to %c16 step %c1 {
      ktdf.pipeline modulo(size: 2) {
        %f = ktdf.stage "feed" depends_in(%x) ... { ... %v[%j] ... }
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"grid", "grid", "bool", "true",
           "also hoist loads out of the grid (once per lane instance)">,
    Option<"spans", "spans", "bool", "true",
           "load the whole row span of a tile a loop slides along its "
           "last dimension once, before the loop">,
    Option<"repeats", "repeats", "bool", "true",
           "load a tile that later sibling pipelines load again once, "
           "before the first of them">,
    Option<"spanCopies", "span-copies", "int64_t", "2",
           "copies of a span loaded once per iteration of a loop or per "
           "grid point (1: single-buffered; a lane-pipelined row loop's "
           "span gets one more)">
  ];
}

def KTDFWidenInvariantColumns
    : Pass<"ktdf-widen-invariant-columns", "::mlir::ModuleOp"> {
  let summary = "Widen a lane's invariant column chunks once, not per row";
  let description = [{
    A buffer a `per_instance` pipeline exports (loaded once per lane: a
    layernorm's W and B) whose every reader is a feed transfer into a FIFO
    slot of the lane's compute unit, each read of which the compute stage
    only extends to a wider float (`arith.extf` in an element-wise
    generic) inside a loop of the stage (per row: ktdf-tile-streams did
    not hold the widened columns in the unit), is widened once per lane:
    a new `per_instance` pipeline after the exporting one feeds the
    buffer's chunks to the compute unit, which extends them and writes
    them to the drain, which stores them into a buffer of the wide type
    the pipeline exports. The slots then carry the wide type, the feed
    transfers read the new export and the compute stage uses the read in
    place of the extension: every element goes through the same `extf`,
    bit-identical results. Applies where extending a chunk costs the
    compute unit more cycles than the feed FIFO spends on the bytes the
    wider chunk adds, and where the lane's share of the drain's memory
    holds the wide buffer beside the kernel's others.

    A buffer of a type the unit holds wider (bf16, held in f32) is widened
    after any pipeline exporting it (per grid point too: the new pipeline
    is `per_instance` when that one is), and also where each read feeds a
    generic whose body only extends its element (ktdf-legalize-unit-types'
    f32 computation of a bf16 operation): the body then takes the wide
    element in place of its `arith.extf`s.

    ```mlir
    // before, in the row loop of a compute stage
    %w = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<L1LU -> SFU, 64xf16> -> tensor<64xf16>
    %wf = linalg.generic ... ins(%w) { arith.extf ... } -> tensor<64xf32>
    // after
    %wf = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<L1LU -> SFU, 64xf32> -> tensor<64xf32>
    ```
  }];
}

def KTDFKeepCarriedChunks
    : Pass<"ktdf-keep-carried-chunks", "::mlir::ModuleOp"> {
  let summary = "Keep a loop's carried chunks in the compute unit across "
                "its trips";
  let description = [{
    A loop that ktdf-carry-in-scratchpad gave a carried scratchpad view
    (`ktdf.carried`: a running sum over the blocks of a row up to a
    run-time N) runs its pipeline once a trip, and every trip reads each
    chunk of the view and writes it back. When the loop's body is index
    arithmetic and one pipeline of a feed, a compute and a drain stage
    whose chunk loops walk the same constant space, the feed reading each
    carried chunk once and the drain writing it back at the same position
    (and neither the compute nor the drain stage seeing the trip), the
    loop moves inside the chunk loops: per chunk, the feed reads the
    carried chunk and then each trip's reads (the loop's index arithmetic
    computed again there), the compute stage takes the chunk and carries
    it through an `scf.for` of the loop's trips, giving it once, and the
    drain writes it once. The pipeline then runs once where the loop ran
    it once a trip. Each element sees the same operations in the same
    order, each rounded as before: bit-identical results. A carried chunk
    that an earlier pipeline of the block only fills with a splat constant
    (chunk by chunk at the positions the drain writes, nothing in between
    touching the view: a running sum's zeros) starts from the constant in
    the compute stage instead, and the filling pipeline is erased. When
    the next pipeline touching the loop's one carried view only folds it
    into a row statistic (one `reduction` generic per chunk, carried by
    its chunk loop, over the same positions in the same order, nothing
    else reading the view), the compute stage folds each kept chunk into
    the statistic instead of sending it, makes and sends the statistic as
    that pipeline did, and that pipeline and the view are erased.

    ```mlir
    // before
    scf.for %off = %c0 to %N step %c1024 {
      ktdf.pipeline modulo(size: 4) {
        feed:    scf.for %c = 0 to 1024 step 32 { acc[%c] -> %a; x[%c + %off] -> %x }
        compute: scf.for %c = 0 to 1024 step 32 { %s = add(%a, %x) -> %out }
        drain:   scf.for %c = 0 to 1024 step 32 { %out -> acc[%c] }
      }
    }
    // after
    ktdf.pipeline modulo(size: 4) {
      feed:    scf.for %c { acc[%c] -> %a; scf.for %off { x[%c + %off] -> %x } }
      compute: scf.for %c { %a0 = take %a
                            %s = scf.for %off iter_args(%acc = %a0) { add(%acc, %x) }
                            %s -> %out }
      drain:   scf.for %c { %out -> acc[%c] }
    }
    ```
  }];
}
def KTDFMergeAdjacentLoads
    : Pass<"ktdf-merge-adjacent-loads", "::mlir::ModuleOp"> {
  let summary = "Load side-by-side tiles of one pipeline as one wide tile";
  let description = [{
    Where a lane's transfers from device memory are few in flight (the
    engine is shared by a core's lanes, or has few slots of its own), the
    DMA load stages of
    one pipeline that load tiles of one view lying side by side along the
    last dimension (same shape, same place along the other dimensions,
    each starting where the previous one ends), each into a private buffer
    of its own read in windows by one stage (the feed), become one stage
    loading the wide tile into one wide buffer; the feed reads window k of
    it where it read buffer k. The unrolled column blocks of a Triton loop
    carrying a running sum are the case: each 256-byte block was a transfer
    of its own. The compute stage is unchanged. A row is merged only when
    it has at least as many blocks as a lane's share of the engine's
    in-flight slots (`max_outstanding` over the lanes one engine serves:
    sample_device 4 / 2 = 2, spyre_like 8 / 2 = 4, mesh_device's engine
    of its own 4): fewer blocks already fit the slots, and a wide transfer
    then only waits longer. On an engine of its own a merged tile also
    moves within one latency of the route (bandwidth x latency, 5,248
    bytes on mesh_device): a longer row keeps the engine busy anyway, and
    merged its feed would wait for the last block. Stores merge by the
    same rule, within one latency, where lanes share the engine. At most
    `max-bytes` per merged tile; `all-engines` lifts the latency bound on
    one-lane engines and merges their stores too.

    ```mlir
    // before: two stages, %a and %b loading X[%r, 0] and X[%r, 128]
    ktdf.data_transfer %a to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
    ktdf.data_transfer %b to %buf_0 : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
    // after: one stage; the feed reads %wide[%i, %j] and %wide[%i, %j + 128]
    ktdf.data_transfer %ab to %wide : !ktdp.access_tile<1x256xindex> to memref<1x256xf16, "L1">
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", "32768",
           "merge only into tiles of at most this many bytes">,
    Option<"allEngines", "all-engines", "bool", "false",
           "on engines of one lane, merge stores too and tiles longer than one latency">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def KTDFRowBlocks : Pass<"ktdf-row-blocks", "::mlir::ModuleOp"> {
  let summary = "Hand small tiles to the feed, and from the drain, in blocks of rows";
  let description = [{
    Marks a DMA load stage `ktdf.row_blocks = B` when it only loads one 2-d
    tile into a buffer that one other transfer stage of its pipeline (the
    feed) reads first in a loop over the buffer's rows (constant, from 0
    by 1, every read of the buffer in it at the loop's row, only loops of
    constant bounds around it), and the cost model
    (`sched::chooseRowBlocks`) finds that B blocks of rows beat the whole
    tile: the compute unit starts on the first block while the engine
    loads the others, at the price of more transfers, each paying the
    route latency on an engine that keeps a few in flight. The load stages
    of a pipeline on the same unit whose tiles have the same height are
    weighed together (the lowering interleaves their blocks). The lowering
    (--ktdf-to-dfir) moves block k of each tile as its own DMA (clamped to
    the rows the tile's view holds) followed by its own token, and the
    feed waits for block k just before its row loop reaches the block's
    first row (in the first trip of the loops around it).

    A DMA store stage that only stores one 2-d tile from a buffer that one
    other transfer stage (the drain) writes only in such a loop is marked
    the same way when the cost model (`sched::chooseStoreRowBlocks`, the
    loads in their chosen blocks) finds B blocks faster: the drain sends
    the stage's token after each block's last row (in the last trip of
    the loops around), and the engine stores each block once its token
    has arrived.

    Where the load engine serves several lanes of a core (where blocks are
    not chosen), a DMA load stage of a pipeline of the grid's body that
    loads one 2-d tile into a buffer may instead be marked
    `ktdf.merged_executions = array<i64: K or 1 per lane of the core>`:
    that lane loads the tiles of K consecutive executions (K divides its
    executions and the buffer's copies) as one transfer into K consecutive
    copies, where the cost model's walk of the shared engine, the lanes'
    compute and their shared store engine (`sched::chooseMergedLoads`)
    finds the set of (lane, tensor) pairs faster than none. The lowering
    merges only where it proves the tiles contiguous (MergedLoads.cpp).

    ```mlir
    %l = ktdf.stage "load_0" ... unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
      ktdf.data_transfer %tile to %buf : !ktdp.access_tile<4x256xindex> to memref<4x256xf16, "SPM">
    }
    ```
  }];
  let options = [
    Option<"blocksOption", "blocks", "int64_t", "0",
           "Blocks per eligible loaded tile (0: the cost model chooses; 1: "
           "none)">,
    Option<"storeBlocksOption", "store-blocks", "int64_t", "0",
           "Blocks per eligible stored tile (0: the cost model chooses; 1: "
           "none)">,
    Option<"mergeLoadsOption", "merge-loads", "int64_t", "0",
           "Loads of a lane's consecutive executions as one transfer, on an "
           "engine lanes share (0: the cost model chooses; 1: none; 2: "
           "every eligible one)">,
  ];
}

def KTDFAllocateScratchpad
    : Pass<"ktdf-allocate-scratchpad", "::mlir::ModuleOp"> {
  let summary = "Place private buffers in their scratchpads";
  let description = [{
    Gives every private buffer a byte `offset` in its memory: pipelines run
    one after another, so each reuses the memory from the start; within a
    pipeline buffers are packed (N copies each, aligned to the datapath
    granularity). Every lane that shares the memory gets its own region.
    A memory whose regions exceed its capacity (from the device's memory
    tree) is a located error naming the pipeline.
  }];
}

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_TD
