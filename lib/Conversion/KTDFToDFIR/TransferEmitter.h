//===- TransferEmitter.h - The transfers of a unit's program ----*- C++ -*-===//
//
// This file declares TransferEmitter, the part of a unit's program builder
// (ProgramBuilder.h) that emits transfers once the program has chosen
// where: a tile <-> buffer transfer as DMAs clamped to the tile's view
// (DmaLowering.cpp, DmaWindow.cpp), an indirect one as index-gated runs
// (IndirectDma.cpp), the addresses of tile elements (TransferLowering.cpp)
// and the index values all of them compute (UnitIndexValues.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTDFTODFIR_TRANSFEREMITTER_H
#define KTFLOW_LIB_CONVERSION_KTDFTODFIR_TRANSFEREMITTER_H

#include "Lowering.h"

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"

namespace mlir::ktdf::lowering {

/// A tile <-> buffer transfer with its ends resolved, and the coordinates
/// of the tile it moves (DmaLowering.cpp).
struct TileDma;
struct DmaWindow;
struct DmaPlanes;

/// Where an indirect transfer reads the indices of one index view: the
/// view in device memory, or the box of it staged in a buffer.
struct IndexSource {
  std::string memory;
  /// Byte address of coordinate `origin` (all 0 when empty).
  Value base;
  /// The coordinates the first element holds (the staged box's anchor).
  SmallVector<Value, 8> origin;
  /// Elements between consecutive coordinates along each dimension.
  SmallVector<int64_t> strides;
};

/// Emits the transfers of one unit instance's program at the builder's
/// insertion point.
class TransferEmitter {
protected:
  TransferEmitter(KernelLowering &kernel, std::string unit)
      : kernel(kernel), unit(std::move(unit)) {}

  /// A tile <-> buffer transfer as DMAs: one for a scalar, else one per
  /// 2-d plane of the tile, moving only the coordinates its view holds.
  LogicalResult emitDma(DataTransferOp op, IRMapping &map,
                        const LaneInstance &li, Value copyOffset);
  /// An indirect tile <-> buffer transfer (a gather or a scatter) as
  /// index-gated DMAs, one per run (IndirectDma.cpp).
  LogicalResult emitIndirectDma(DataTransferOp op, IRMapping &map,
                                const LaneInstance &li, Value copyOffset);
  /// Where `op` reads the indices staged in `buffer`: the box the staging
  /// access tile anchors, in this copy of the buffer.
  FailureOr<IndexSource> stagedIndexSource(DataTransferOp op, Value buffer,
                                           IRMapping &map,
                                           const LaneInstance &li, Value copy);
  /// The element offset in the base view of one point of an indirect
  /// transfer over `domain` (captured values, then variables) and its
  /// run's start coordinate; reads each index from its source unless
  /// `last` (per index view: the address and value read at the previous
  /// point) has it, and appends the address and value to `next`.
  std::pair<Value, Value>
  emitIndirectPoint(Location loc, const IndirectTilePlan &plan,
                    ValueRange domain, ArrayRef<IndexSource> indexSources,
                    ValueRange last, SmallVector<Value> &next);
  /// Marks `loop`, the point loop of an indirect transfer whose iter_args
  /// start with each index view's last address and value, for
  /// KernelLowering::shareIndexReads: per index view, the memory, type
  /// and bound its reads share with other gathers', or "" (indices staged
  /// in a buffer, or a view some transfer writes) (SharedIndexReads.cpp).
  void markIndexReads(scf::ForOp loop, const IndirectTilePlan &plan,
                      ArrayRef<IndexSource> indexSources, bool staged);
  /// One run of an indirect transfer between `memAt` and `bufAt`, whose
  /// innermost base coordinate starts at `start`: clamped to the view
  /// (zeroing the buffer's row first on a load) where it may leave it.
  void emitIndirectRun(Location loc, const IndirectTilePlan &plan, bool load,
                       StringRef memName, Value memAt, StringRef bufName,
                       Value bufAt, Value start);
  /// The pending DMA of an indirect transfer whose runs may lie evenly
  /// spaced (`pend`: its memory and buffer addresses, row bytes, rows and
  /// memory stride) extended by the run between `memAt` and `bufAt`, or
  /// moved with `rowsDma` first; `indices` and `lastIndices` are the
  /// point's and the previous point's index addresses and values, in
  /// pairs. Returns the next pending DMA.
  SmallVector<Value> extendSpaced(
      Location loc, ValueRange pend, Value memAt, Value bufAt,
      ArrayRef<Value> indices, ValueRange lastIndices, int64_t runBytes,
      llvm::function_ref<void(Value, Value, Value, Value, Value)> rowsDma);
  /// The pending DMA of planes of a permuted indirect transfer whose runs
  /// may lie evenly spaced (`pend`: its memory and buffer addresses,
  /// planes and memory stride between planes) extended by the run between
  /// `memAt` and `bufAt` as its next plane, `bufStride` bytes after the
  /// last in the buffer, or moved with `planesDma` first; `indices` and
  /// `lastIndices` as for extendSpaced. Returns the next pending DMA.
  SmallVector<Value>
  extendPlanes(Location loc, ValueRange pend, Value memAt, Value bufAt,
               ArrayRef<Value> indices, ValueRange lastIndices,
               int64_t bufStride,
               llvm::function_ref<void(Value, Value, Value, Value)> planesDma);
  /// The byte address of the first element of `view`'s tensor it holds.
  FailureOr<Value> viewStart(Location loc, ktdp::ConstructMemoryViewOp view,
                             IRMapping &map);
  /// The ends of a tile <-> buffer transfer, in program values.
  FailureOr<TileDma> resolveTileDma(DataTransferOp op, IRMapping &map,
                                    const LaneInstance &li, Value copyOffset);
  /// One DMA between tensor and buffer in the transfer's direction; with
  /// `nRows`, that many rows `memStride` bytes apart in the tensor (or
  /// `runtimeMemStride`, when given) and `bufStride` bytes apart in the
  /// buffer; with `planes` too, that many planes of those rows.
  void emitDirectedDma(Location loc, const TileDma &dma, Value size,
                       Value memAt, Value bufAt, Value nRows, int64_t memStride,
                       int64_t bufStride, Value runtimeMemStride = {},
                       const DmaPlanes *planes = nullptr);
  /// The tensor's byte stride of `dma` along `d`, as a program value.
  Value strideBytes(Location loc, const TileDma &dma, unsigned d);
  /// The coordinates of the tile the transfer moves along the dimensions
  /// where it may leave its view (and the rows of every 2-d tile).
  FailureOr<DmaWindow> clampToView(DataTransferOp op, const TileDma &dma,
                                   IRMapping &map);
  /// Before a load: zeroes the coordinates of the buffer outside `window`
  /// along the dimensions where the tile may leave its view, where the
  /// reference interpreter loads 0.
  void emitMaskFills(Location loc, const TileDma &dma, const DmaWindow &window);
  /// A 2-d tile masked only past its last valid row: `validRows` full rows.
  void emitMaskedRowsDma(Location loc, const TileDma &dma, Value validRows);
  /// A tile that stays inside its view: one DMA of planes of rows per point
  /// of the dimensions above its last three.
  void emitOuterLoopDma(Location loc, const TileDma &dma);
  /// A tile with a permuted order: DMAs of planes of strided rows into the
  /// buffer's (permuted) layout, one per point of the dimensions that are
  /// neither the rows, the elements of a row nor the planes; with a
  /// `window`, only its coordinates (the tile clamped to its view).
  void emitPermutedDma(Location loc, const TileDma &dma,
                       const DmaWindow *window = nullptr);
  /// A tile masked along any dimension, at either end: the valid part of
  /// each 2-d plane inside the view.
  void emitMaskedDma(Location loc, const TileDma &dma, const DmaWindow &window);
  /// Calls `emitRows` with the tensor and buffer addresses of each point of
  /// a tile's dimensions above its last `innerDims` (row-major; once for a
  /// tile of rank `innerDims` or less), skipping points whose coordinate
  /// along a dimension d is not below `end[d]` or is below `begin[d]` (when
  /// given).
  void forEachOuterPoint(Location loc, const TileDma &dma,
                         ArrayRef<Value> begin, ArrayRef<Value> end,
                         function_ref<void(Value, Value)> emitRows,
                         unsigned innerDims = 2);
  /// Byte address and memory instance of element `indices` (relative to
  /// the tile's anchor) of an access tile.
  FailureOr<std::pair<Value, std::string>> tileAddress(Value tile,
                                                       ValueRange indices,
                                                       IRMapping &map,
                                                       const LaneInstance &li);
  /// A load into (`load`) or a store from FIFO `fifo` of one block of
  /// `slot`'s shape at `addr` in `memory`, whose rows start `pitch`
  /// elements apart: rows of the block's row bytes when they are wider
  /// than it (a column block), else one contiguous run.
  void emitLoadOrStore(Location loc, bool load, FlatSymbolRefAttr fifo,
                       StringAttr memory, Value addr, FifoSlotType slot,
                       int64_t pitch);
  /// The element offset, in its view of `strides`, of element `indices`
  /// (relative to `anchor`, the tile's origin; fewer indices than
  /// dimensions mean 0) of an access tile, computed by ops at `loc`. A
  /// dynamic stride is the view's run-time stride.
  FailureOr<Value> tileElementOffset(Location loc,
                                     ktdp::ConstructAccessTileOp tile,
                                     ArrayRef<Value> anchor,
                                     ArrayRef<int64_t> strides,
                                     ValueRange indices, IRMapping &map);
  /// The number of coordinates `view` holds along dimension `d`, as a
  /// program value: its size, or fewer where its coordinate_set bounds the
  /// dimension tighter.
  FailureOr<Value> viewExtent(Location loc, ktdp::ConstructMemoryViewOp view,
                              unsigned d, IRMapping &map);
  /// The program value for `v`, cloning the index arithmetic it needs.
  FailureOr<Value> materialize(Value v, IRMapping &map);
  Value constant(int64_t v);
  /// Runs `body` only when `condition` holds (a loop of 0 or 1 trips).
  void emitIf(Value condition, function_ref<void()> body);
  /// Gives a guard loop and the select counting its trips, built before
  /// the body they guard, the location of the body's first located op, so
  /// that the instructions they become name the kernel's op.
  static void locateGuard(scf::ForOp guard, arith::SelectOp trips);
  /// The copy of `buffer` a transfer of `li` uses: `copy`, its own
  /// pipeline's, unless `buffer` is another pipeline's export, whose copy
  /// is that of the exporter's latest execution.
  Value copyOf(Value buffer, Value copy, const LaneInstance &li);

  KernelLowering &kernel;
  std::string unit;
  OpBuilder *builder = nullptr;
  /// Per exported buffer (a pipeline result) and lane instance, the copy
  /// its exporter's latest execution filled, set where the program passes
  /// the exporter: the stages reading it come later in the same block or
  /// inside it, so the value dominates them.
  llvm::DenseMap<std::pair<Value, const LaneInstance *>, Value> exportedCopy;
};

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_LIB_CONVERSION_KTDFTODFIR_TRANSFEREMITTER_H
