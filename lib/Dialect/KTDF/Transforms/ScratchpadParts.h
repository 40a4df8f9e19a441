//===- ScratchpadParts.h - Reloads of scratchpad parts ----------*- C++ -*-===//
//
// This file declares the analysis of ktdf-forward-scratchpad-parts: whether
// every load of the scratchpad parts of a distributed view returns what the
// loading tile stored there itself (a reload) or the whole tile one store
// wrote on another tile (a copy between the tiles), or reads a part of the
// view in device memory, and what replaces each such load.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADPARTS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADPARTS_H

#include "ktflow/Dialect/KTDF/Transforms/TilePieces.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

namespace mlir::ktdf {

using PartsRefusal = std::pair<Operation *, std::string>;

namespace parts {
/// The box an access tile covers from its anchor.
struct TileShape {
  ktdp::ConstructAccessTileOp tile;
  SmallVector<int64_t> extents;
};

/// The tile's box from its anchor (extents), when it is a box from the
/// anchor in identity order without symbols.
std::optional<TileShape> shapeOf(Value tile);

/// The anchor of `tile` on the grid point `point`, when it follows from the
/// tile ids and constants.
std::optional<SmallVector<int64_t>> anchorAt(ktdp::ConstructAccessTileOp tile,
                                             ArrayRef<int64_t> point);

/// Whether the boxes [a, a + ea) and [b, b + eb) share a point.
bool intersects(ArrayRef<int64_t> a, ArrayRef<int64_t> ea, ArrayRef<int64_t> b,
                ArrayRef<int64_t> eb);

/// A load, shaped as `like`, of `source`'s tile moved by `offset`.
Value reloadSlice(OpBuilder &b, ktdp::LoadOp source, ArrayRef<int64_t> offset,
                  ktdp::LoadOp like);
/// A load of the box `extents` of `source`'s tile moved by `offset`.
Value reloadSlice(OpBuilder &b, ktdp::LoadOp source, ArrayRef<int64_t> offset,
                  ArrayRef<int64_t> extents, Location loc);

/// A load of the box `extents` at the constant anchor `at` of `source`'s
/// view.
Value reloadAt(OpBuilder &b, ktdp::LoadOp source, ArrayRef<int64_t> at,
               ArrayRef<int64_t> extents, Location loc);
} // namespace parts

/// A part of the distributed view: a scratchpad box of one tile.
struct ScratchpadPart {
  ktdp::ConstructMemoryViewOp view;
  int64_t owner = 0;
  int64_t first = 0, last = 0; // element addresses
  ktdp::IntegerBox box;        // global coordinates
};

/// A part of the distributed view in device (global) memory, beside its
/// scratchpad parts: what lies in it is read from device memory.
struct DevicePart {
  ktdp::ConstructMemoryViewOp view;
  ktdp::IntegerBox box; // global coordinates
};

/// A piece of a load's box: the box `extents` at `at` in it (both empty:
/// the whole box). A load through the distributed view whose box straddles
/// parts is read piece by piece, each piece in one part on every tile.
struct LoadPiece {
  SmallVector<int64_t> at, extents;
};

/// A load of a part's memory (or a piece of it) and what replaces it.
struct PartForward {
  ktdp::LoadOp load;
  /// The load the stored tensor came from (null: the stored tensor itself
  /// is what the load reads) and the constant offset of the reloaded box in
  /// it.
  ktdp::LoadOp source;
  ktdp::StoreOp store;
  SmallVector<int64_t> offset;
  LoadPiece piece;
  /// For a reload of what another tile stored (PartCopies.cpp): the
  /// reloaded box's anchor in `source`'s view, the same on every tile
  /// (empty: `source`'s anchor on the reader, moved by `offset`).
  SmallVector<int64_t> at;
};

/// A load through the view (or a piece of it) whose box lies in one part in
/// device memory on every tile: a load of that part, in its local
/// coordinates.
struct DeviceRead {
  ktdp::LoadOp load;
  unsigned part; // in devices
  LoadPiece piece;
};

/// A load through the view (or a piece of it) whose box lies, the same box
/// on every tile, in a scratchpad part no store through the view writes:
/// it reads what was there before the kernel (an `lx<K>@ADDR` input), on
/// the part's tile, which copies it to every tile (ResidentParts.cpp).
struct ResidentRead {
  ktdp::LoadOp load;
  unsigned part; // in parts
  IntegerSet dependency, producers;
  LoadPiece piece;
};
/// A load of a part's memory that returns, on every tile, the tile (or a
/// slice of it at one offset) one store through the view wrote on one tile.
struct PartCopy {
  ktdp::LoadOp load;
  ktdp::StoreOp store;
  /// As PartForward's: what is copied is a slice of the stored tensor at
  /// `offset`, loaded again from `source` (null: the stored tensor).
  ktdp::LoadOp source;
  SmallVector<int64_t> offset;
  /// The tile each tile reads from (linear tile ids), the set `(p)[c]`
  /// that says so to an inter_tile_consume, and the set `(i)[g]` of the
  /// tiles read from (the producers).
  SmallVector<int64_t> sources;
  IntegerSet dependency, producers;
  LoadPiece piece;
};

namespace parts {
// A load read in pieces, joined where its value goes (JoinedPieces.cpp).

/// What a straddling load's value is joined in, piece by piece: the
/// element-wise ops computing from it (their other tensor operands
/// `tensor.empty`s, `tensor.splat`s or splat constants) and the stores of it,
/// or of their results, whole into device memory, in program order; or, in
/// `refused`, the first use that is neither.
SmallVector<Operation *>
joinedUses(ktdp::LoadOp load, ArrayRef<int64_t> extents, Operation *&refused);

/// `op`, one of joinedUses, computed or stored for the piece `extents` at
/// `at`, its operands looked up in `map` (the piece of each value).
void emitPiece(OpBuilder &b, Operation *op, ArrayRef<int64_t> at,
               ArrayRef<int64_t> extents, IRMapping &map);

/// The element-wise `op` computed for the piece `extents`, its operands
/// looked up in `map`, those not there (`tensor.empty`s, `tensor.splat`s,
/// splat constants) made at the piece's shape.
void computePiece(OpBuilder &b, Operation *op, ArrayRef<int64_t> extents,
                  IRMapping &map);

/// Whether a piece can make the tensor `value` at its own shape with
/// computePiece.
bool remakeableAtShape(Value value);
/// `piece` of `load`'s box (empty: the whole box) in the local coordinates
/// of a part whose box starts at `lower` (global coordinates): its offset
/// from the load's anchor minus `lower`, and its extents.
LoadPiece partLocalPiece(ktdp::LoadOp load, const LoadPiece &piece,
                         ArrayRef<int64_t> lower);
/// The sets `(p)[c]` holding p == sources[c] for every reader c, and
/// `(i)[g]` of the tiles some reader reads from, when the sources are
/// (a * c + b) mod N of the reader (a shift around the tiles, a broadcast,
/// a reversal), the forms a consume's affine set can state.
std::optional<std::pair<IntegerSet, IntegerSet>>
dependencySets(ArrayRef<int64_t> sources, MLIRContext *ctx);
} // namespace parts

/// The analysis of one distributed view over scratchpad parts.
class ScratchpadParts {
public:
  explicit ScratchpadParts(ktdp::ConstructDistributedMemoryViewOp view)
      : view(view) {}

  /// Proves every load of the parts' memory a reload of the loading tile's
  /// own store or a copy of another tile's, or says at which op and why
  /// not.
  LogicalResult analyze(PartsRefusal &refusal);
  void rewrite();
  /// Whether a tile reading what another tile stored, a slice of device
  /// memory nothing writes, reloads it instead of receiving a copy: where
  /// one DMA engine both loads and stores device memory (PartCopies.cpp).
  bool reloadAcrossTiles = false;
  bool forwards(ktdp::LoadOp load) const {
    return llvm::any_of(forwardList,
                        [&](const PartForward &f) { return f.load == load; }) ||
           llvm::any_of(copyList,
                        [&](const PartCopy &c) { return c.load == load; }) ||
           llvm::any_of(readList,
                        [&](const DeviceRead &r) { return r.load == load; }) ||
           llvm::any_of(residentList,
                        [&](const ResidentRead &r) { return r.load == load; });
  }

private:
  LogicalResult refuse(Operation *op, const Twine &why) {
    *refusal = {op, why.str()};
    return failure();
  }
  LogicalResult collectParts();
  LogicalResult collectDevicePart(ktdp::ConstructMemoryViewOp part);
  LogicalResult collectStores();
  LogicalResult forwardLoad(ktdp::LoadOp load);
  /// The box `load` reads from its anchor, when it is one and `load` is at
  /// the kernel's top level; else a refusal at `load`.
  FailureOr<parts::TileShape> topLevelShape(ktdp::LoadOp load);
  /// The load of device memory `store`'s tensor came from, when a slice of
  /// it may be loaded again anywhere in the kernel (a box inside its view
  /// of memory no store of the kernel writes), or a refusal at `load`.
  FailureOr<ktdp::LoadOp> sliceSource(ktdp::LoadOp load, ktdp::StoreOp store);
  /// After forwardLoad refused `load` (its reason in the refusal): a copy
  /// from the tile that stored what each tile reads (PartCopies.cpp). The
  /// refusal keeps forwardLoad's reason when no tile reads another's store.
  LogicalResult copyLoad(ktdp::LoadOp load);
  /// A load through the distributed view itself: its box (global
  /// coordinates) lies in one part on every tile, and what each tile reads
  /// is a copy of another tile's store, or a reload of its own.
  LogicalResult viewLoad(ktdp::LoadOp load);
  /// copyLoad's and viewLoad's proof, from the box each tile reads
  /// (`reads`, global coordinates) of `piece` of the load's box (`shape`:
  /// the piece's extents). `own`: a read only of the reader's own stores is
  /// a reload (else it keeps forwardLoad's refusal).
  LogicalResult copyReads(ktdp::LoadOp load, const parts::TileShape &shape,
                          ArrayRef<SmallVector<int64_t>> reads, bool own,
                          const LoadPiece &piece = {});
  /// copyReads' reload on every tile of what `copy` would move, when
  /// reloadAcrossTiles and the stored tensor is a slice of device memory
  /// nothing writes whose box is the same for every reader.
  bool reloadAcross(PartCopy &copy);
  /// viewLoad's case of a box that straddles parts on some tile: the box is
  /// cut at every part (and stored box) boundary any tile's box crosses,
  /// and each piece, in one part on every tile, is proved as a load of its
  /// own; the pieces are joined in the stores of the load's value to
  /// device memory.
  /// `straddle`: the refusal's start, naming the first straddling tile.
  LogicalResult pieceLoads(ktdp::LoadOp load, const parts::TileShape &shape,
                           ArrayRef<SmallVector<int64_t>> reads,
                           const std::string &straddle);
  /// viewLoad's and pieceLoads' case of a box in device memory: when the
  /// box each tile reads (`reads`) lies in a part in device memory on some
  /// tile, a load of that part (the same on every tile, else refused).
  /// Returns false when no tile's box lies in one.
  FailureOr<bool> deviceRead(ktdp::LoadOp load, const parts::TileShape &shape,
                             ArrayRef<SmallVector<int64_t>> reads,
                             const LoadPiece &piece);
  /// copyReads' case of a box no store through the view writes on any
  /// tile: when every tile reads the same box of one scratchpad part, a
  /// copy from the part's tile of what it holds; else a refusal.
  LogicalResult residentRead(ktdp::LoadOp load, const parts::TileShape &shape,
                             ArrayRef<SmallVector<int64_t>> reads,
                             const LoadPiece &piece);
  /// The produce, on the part's tile, of a load of the part in its local
  /// coordinates and the consume in place of the load (or of its piece);
  /// returns the consumed value.
  Value rewriteResidentRead(ResidentRead &read);
  /// The boxes of the parts, scratchpad and device, the box [read, read +
  /// extents) touches, and the names of the first two ("tile k's part" or
  /// "the part in device memory").
  SmallVector<const ktdp::IntegerBox *>
  boxesTouched(ArrayRef<int64_t> read, ArrayRef<int64_t> extents,
               SmallVectorImpl<std::string> *names = nullptr) const;
  /// The load of `read`'s part in device memory that replaces its load (or
  /// piece).
  Value rewriteDeviceRead(DeviceRead &read);
  /// The produce after the store and the consume in place of the load (or
  /// of its piece); returns the consumed value.
  Value rewriteCopy(PartCopy &copy);
  /// Whether `op` may write a scratchpad, other than through the view.
  bool writesScratchpad(Operation *op) const;
  /// The part `view` is laid out as, read on tile `reader` (the part of the
  /// tile the view names, or of the reader when it names none).
  const ScratchpadPart *partViewedBy(ktdp::ConstructMemoryViewOp view,
                                     int64_t reader) const;

  ktdp::ConstructDistributedMemoryViewOp view;
  func::FuncOp func;
  PartsRefusal *refusal = nullptr;
  SmallVector<SmallVector<int64_t>> points; // every grid point
  SmallVector<ScratchpadPart> parts;
  SmallVector<DevicePart> devices;
  /// Each device part in local coordinates (built by rewriteDeviceRead).
  DenseMap<unsigned, Value> localDeviceViews;
  SmallVector<ktdp::StoreOp> stores; // through the view
  SmallVector<PartForward, 2> forwardList;
  SmallVector<PartCopy, 2> copyList;
  SmallVector<DeviceRead> readList;
  SmallVector<ResidentRead> residentList;
  /// Each scratchpad part as its tile's own view in local coordinates
  /// (built by rewriteResidentRead).
  DenseMap<unsigned, Value> localResidentViews;
};

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADPARTS_H
