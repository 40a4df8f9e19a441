//===- TileDma.h - A tile <-> buffer transfer being lowered -----*- C++ -*-===//
//
// This file defines what the DMA lowering knows of a tile <-> buffer
// transfer once its ends are resolved (TileDma) and the window of tile
// coordinates it moves where its view may end first (DmaWindow), shared by
// DmaLowering.cpp (the transfers) and DmaWindow.cpp (the clamp and the
// fills that zero what a load leaves out).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTDFTODFIR_TILEDMA_H
#define KTFLOW_LIB_CONVERSION_KTDFTODFIR_TILEDMA_H

#include "Lowering.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

/// A tile <-> buffer transfer with its ends resolved: the byte addresses
/// of the tile's origin in its tensor and of the buffer's copy, the
/// memories they are in, and the tile's shape and its view's strides (a
/// stride known only at launch is ShapedType::kDynamic in `strides`, its
/// program value in `runtimeStrides`).
struct mlir::ktdf::lowering::TileDma {
  /// Tensor to buffer (a load), else buffer to tensor.
  bool load = false;
  ktdp::ConstructAccessTileOp tile;
  ktdp::ConstructMemoryViewOp view;
  SmallVector<Value, 8> anchor;
  Value memAddr, bufAddr;
  std::string memName, bufName;
  int64_t esize = 0;
  SmallVector<int64_t> extents;
  ArrayRef<int64_t> strides;
  /// Per dimension, the element stride computed at run time, or null (all
  /// null, or empty, when the view's strides are static).
  SmallVector<Value> runtimeStrides;
  /// The bytes between the buffer's rows when the tile moves into (or
  /// out of) a column block of a wider buffer (an indexed buffer end, as
  /// ktdf-join-product-columns makes); 0 when the buffer's rows are the
  /// tile's.
  int64_t bufPitch = 0;

  Value runtimeStride(unsigned d) const {
    return d < runtimeStrides.size() ? runtimeStrides[d] : Value();
  }
};

/// A DMA's second level of strides: `count` planes of its rows, the first
/// rows of consecutive planes `memStride` bytes apart in the tensor and
/// `bufStride` bytes apart in the buffer.
struct mlir::ktdf::lowering::DmaPlanes {
  Value count, memStride;
  int64_t bufStride = 0;
};

/// The tile coordinates a transfer moves along each dimension where they
/// may be fewer than the tile's extent (null elsewhere): from `begin[d]`
/// (set where the tile may start before its view) up to `end[d]`, `count[d]`
/// of them.
struct mlir::ktdf::lowering::DmaWindow {
  SmallVector<Value> begin, end, count;
  /// The transfer's `rows` bound on the rows of a 2-d tile (else null):
  /// rows past it belong to no iteration.
  SmallVector<Value> limit;
};

#endif // KTFLOW_LIB_CONVERSION_KTDFTODFIR_TILEDMA_H
