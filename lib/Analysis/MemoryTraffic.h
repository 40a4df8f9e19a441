//===- MemoryTraffic.h - The device memory a kernel touches -----*- C++ -*-===//
//
// This file declares the part of the roofline count (KernelDemand.h) that
// follows a kernel's memory views, access tiles, loads and stores as the
// walk executes them, and adds up the distinct bytes of each device-memory
// tensor the launched kernel reads and writes: the elements its access
// tiles touch at their runtime anchors, symbols and masks
// (AccessFootprint.h), not the extent its views declare.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_ANALYSIS_MEMORYTRAFFIC_H
#define KTFLOW_LIB_ANALYSIS_MEMORYTRAFFIC_H

#include "AccessFootprint.h"

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Device/RooflineBound.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <map>

namespace ktflow {

class MemoryTraffic {
public:
  /// The value of an index or integer SSA value at this point of the walk.
  using Evaluator = std::function<std::optional<int64_t>(mlir::Value)>;

  MemoryTraffic(mlir::func::FuncOp kernel, Evaluator value,
                const IndexValues &indexValues, device::KernelDemand &demand)
      : kernel(kernel), value(std::move(value)), indexValues(indexValues),
        demand(demand) {}

  /// Notes one execution of `op` if it is a view, a tile, a load or a
  /// store (the smallest tiles and the gaps go to the demand); returns
  /// whether it was one.
  bool visit(mlir::Operation *op);

  /// Makes `to` (a helper's argument, or a call's result) the view, tile or
  /// device-memory address `from` is, as far as it is known.
  void bind(mlir::Value to, mlir::Value from);

  /// Adds the distinct bytes read and written to the demand.
  void finish();

private:
  /// A tensor of device memory: (false, the argument's position) or (true,
  /// a literal address).
  using TensorKey = std::pair<bool, int64_t>;

  /// The distinct bytes of one tensor the kernel loads and stores.
  struct TensorUse {
    ByteRanges read, written;
  };

  /// A memory view with its values known: its parts, and where each lives:
  /// in which tensor with which element size, or (no tensor) in a
  /// scratchpad, whose parts serve coordinates too but are not device
  /// memory.
  struct View {
    llvm::SmallVector<ResolvedViewPart, 1> parts;
    llvm::SmallVector<std::optional<TensorKey>, 1> tensors;
    llvm::SmallVector<unsigned, 1> elementBytes;
  };

  /// An access tile with its values known. A direct tile touches its set's
  /// points from `anchor`; an indirect one reads the index views of its
  /// subscripts at its set's points (with the captured values in front).
  struct Tile {
    mlir::Operation *op = nullptr;
    mlir::Value view;
    llvm::SmallVector<int64_t, 4> anchor, captured, symbols;
  };

  /// The tensor an address points into and the offset (in elements) it
  /// points at: an argument plus known values, or a literal.
  std::optional<std::pair<TensorKey, int64_t>>
  resolveAddress(mlir::Value address);
  /// The known values of `range`, or none.
  std::optional<llvm::SmallVector<int64_t, 4>> values(mlir::ValueRange range);
  std::optional<llvm::SmallVector<int64_t, 4>>
  values(llvm::ArrayRef<mlir::OpFoldResult> mixed);

  void noteView(mlir::ktdp::ConstructMemoryViewOp view);
  void noteDistributedView(mlir::ktdp::ConstructDistributedMemoryViewOp view);
  /// The record of `tileOp`'s tile on `view`, its anchor or captured
  /// variables and symbols for the caller to fill; none, and a gap, when they
  /// are not `known`.
  Tile *recordTile(mlir::Operation *tileOp, mlir::Value view, bool known);
  void noteTile(mlir::ktdp::ConstructAccessTileOp tileOp);
  void noteIndirectTile(mlir::ktdp::ConstructIndirectAccessTileOp tileOp);
  void noteAccess(mlir::Value tileValue, mlir::Type tensorType, bool store);

  /// Adds `count` elements from `first` of part `part` of `view` to the
  /// bytes read or written.
  void touch(const View &view, unsigned part, int64_t first, int64_t count,
             bool store);
  void touchDirect(const Tile &tile, bool store);
  void touchIndirect(const Tile &tile, bool store);
  /// The value of element `element` of the index view `view`'s part
  /// `part`, from the launch's data.
  std::optional<int64_t> indexValue(const View &view, unsigned part,
                                    int64_t element) const;
  void noteTouchGap();
  /// Whether a part of the known view `view` is device memory.
  bool inDeviceMemory(mlir::Value view) const;

  mlir::func::FuncOp kernel;
  Evaluator value;
  const IndexValues &indexValues;
  device::KernelDemand &demand;
  /// The views and tiles with their values known (views of unknown
  /// address or sizes are absent, and so are the tiles on them).
  llvm::DenseMap<mlir::Value, View> views;
  llvm::DenseMap<mlir::Value, Tile> tiles;
  /// The addresses helpers' arguments hold (bound at each call).
  llvm::DenseMap<mlir::Value, std::pair<TensorKey, int64_t>> addresses;
  std::map<TensorKey, TensorUse> tensors;
  /// Runs or points of accesses the count still visits (2^26).
  uint64_t touchBudget = uint64_t(1) << 26;
};

} // namespace ktflow

#endif // KTFLOW_LIB_ANALYSIS_MEMORYTRAFFIC_H
