//===- TileLowering.h - Access tiles as the tier lowers them -----*- C++
//-*-===//
//
// This file declares what AccessLowering.cpp, IndirectTiles.cpp and
// DenseTiles.cpp share: an access tile (direct or indirect) rewritten into
// values the loop nests of its loads and stores use, and the helpers that
// emit view guards and addresses (ViewGuards.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_TILELOWERING_H
#define KTFLOW_LIB_CPUJIT_TILELOWERING_H

#include "AccessLowering.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"

namespace ktflow::jit {

/// One subscript of an indirect tile: affine expressions over (captured
/// values, set point); for an indirect subscript, the coordinates at which
/// its index view is read.
struct Subscript {
  mlir::AffineMap map;
  const ViewLowering *indexView = nullptr;
};

/// An access tile, rewritten. Values are defined at the tile's op.
struct TileLowering {
  const ViewLowering *view = nullptr;
  llvm::SmallVector<mlir::Value> anchor;
  llvm::SmallVector<unsigned> perm;
  mlir::IntegerSet set;
  llvm::SmallVector<int64_t> setLower, setUpper, shape;
  /// Every tile position is a point of the set.
  bool dense = true;
  /// Proved at compile time: on every tile of the grid the whole tile lies
  /// inside its view's sizes and coordinate_set (inViewOnGrid), so only
  /// the tensor's extent is left to check when it runs.
  bool inViewOnGrid = false;
  /// Indirect tiles: the captured values and one subscript per base
  /// dimension, and the base view's coordinate bounds, which every value
  /// read from an index view must respect.
  bool indirect = false;
  llvm::SmallVector<mlir::Value> captured;
  llvm::SmallVector<Subscript> subscripts;
  llvm::SmallVector<int64_t> baseLower, baseUpper;
};

/// The conjunction of the constraints of `set` at (`dims`, `symbols`).
mlir::Value emitContains(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::IntegerSet set, mlir::ValueRange dims,
                         mlir::ValueRange symbols);

/// Where coordinate `coord` of `view` is in its buffer (`address`), and
/// whether it is inside the view's sizes and the buffer (`valid`).
void emitViewAddress(mlir::OpBuilder &b, mlir::Location loc,
                     const ViewLowering &view, mlir::ValueRange coord,
                     mlir::Value &address, mlir::Value &valid);

/// Whether coordinate `coord` is in `view`'s coordinate_set (for a
/// distributed view, in some part's; `inView`), where it is in the buffer
/// (`address`) and whether that is inside the view's (the part's) sizes and
/// the buffer (`valid`).
void emitViewLookup(mlir::OpBuilder &b, mlir::Location loc,
                    const ViewLowering &view, mlir::ValueRange coord,
                    mlir::Value &inView, mlir::Value &address,
                    mlir::Value &valid);
/// Records that `rows` rows of a store wrote elements `lo + k * step` ..
/// `hi + k * step` of the view's buffer (kStoredRangeFunctionName), when
/// `lo <= hi`.
void emitRowReport(mlir::OpBuilder &b, mlir::Location loc, unsigned buffer,
                   mlir::Value lo, mlir::Value hi, mlir::Value rows,
                   mlir::Value step, mlir::Value status);

/// Whether the tile's loads and stores get the unguarded fast path
/// (DenseTiles.cpp): a dense direct tile in identity order whose view's
/// coordinate_set is convex.
bool hasFastPath(const TileLowering &tile);

/// Whether a tile with a fast path lies inside its view's sizes and
/// coordinate_set on every tile of the grid, its anchor being sums,
/// differences and products of constants, the tile ids `tileIds` (each
/// with the grid's extent along it) and induction variables of `scf.for`
/// loops with a constant positive step over such bounds.
bool liesInViewOnGrid(const TileLowering &tile,
                      llvm::ArrayRef<std::pair<mlir::Value, int64_t>> tileIds);

/// Whether the whole tile lies inside its view's sizes, coordinate_set and
/// buffer at run time; `base` is the address of its first position.
mlir::Value emitTileInBounds(mlir::OpBuilder &b, mlir::Location loc,
                             const TileLowering &tile, mlir::Value &base);

/// The tile loaded without guards into `init`, from `base` on.
mlir::Value emitDenseLoad(mlir::OpBuilder &b, mlir::Location loc,
                          const TileLowering &tile, mlir::Value base,
                          mlir::Value init);

/// `data` stored without guards from `base` on, each block of rows reported.
void emitDenseStore(mlir::OpBuilder &b, mlir::Location loc,
                    const TileLowering &tile, mlir::Value base,
                    mlir::Value data, mlir::Value status);

/// The tile's view, set, order and shape, shared by direct and indirect
/// tiles (`baseRank` is the rank the view must have).
mlir::LogicalResult
shapeTile(TileLowering &tile, mlir::Value base, mlir::IntegerSet set,
          mlir::AffineMap order, mlir::ShapedType type, unsigned baseRank,
          const llvm::DenseMap<mlir::Value, ViewLowering> &views,
          std::string &why);

/// An indirect tile, rewritten (IndirectTiles.cpp).
mlir::FailureOr<TileLowering>
lowerIndirectTile(mlir::ktdp::ConstructIndirectAccessTileOp op,
                  const llvm::DenseMap<mlir::Value, ViewLowering> &views,
                  std::string &why);

/// The coordinates of an indirect tile at set point `point`, and whether
/// every index-view read behind them is allowed (`readable`).
llvm::SmallVector<mlir::Value> emitIndirectCoordinates(
    mlir::OpBuilder &b, mlir::Location loc, const TileLowering &tile,
    llvm::ArrayRef<mlir::Value> point, mlir::Value &readable);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_TILELOWERING_H
