//===- DeviceParts.cpp - Parts of scratchpad views in device memory ------===//
//
// This file implements ktdf-forward-scratchpad-parts' parts in device
// memory: a distributed view may stitch parts in the scratchpads of tiles
// with parts in device (global) memory (the field guide's per-core LX
// views: rows 0..95 in device memory, 96..127 in tile 0's LX, 128..191 in
// tile 1's). A load through the view is cut at the parts' boundaries as
// any straddling load is (PartCopies.cpp); a piece in a scratchpad part is
// a reload or a copy between the cores, a piece in a part in device memory
// a load of that part in its local coordinates (global minus the part's
// lower bound, as the interpreter indexes parts): a DMA like any other
// load of device memory, ordered with the kernel's other accesses by the
// usual hazard analysis. The view is never stored into a part in device
// memory: its stores become copies and write no memory.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::parts;

LogicalResult
ScratchpadParts::collectDevicePart(ktdp::ConstructMemoryViewOp part) {
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(part.getCoordinateSet(), {});
  if (!part.getSizes().empty() || !part.getStrides().empty() ||
      part.getCoordinateSet().getNumSymbols() != 0 ||
      !ktdp::isBoxShaped(part.getCoordinateSet()) || failed(box) ||
      box->isEmpty())
    return refuse(view, "a part in device memory is not a box of static "
                        "sizes and strides");
  for (const DevicePart &other : devices)
    if (intersects(other.box.lower, other.box.getExtents(), box->lower,
                   box->getExtents()))
      return refuse(view, "two parts share memory or coordinates");
  devices.push_back({part, *box});
  return success();
}

SmallVector<const ktdp::IntegerBox *>
ScratchpadParts::boxesTouched(ArrayRef<int64_t> read, ArrayRef<int64_t> extents,
                              SmallVectorImpl<std::string> *names) const {
  SmallVector<const ktdp::IntegerBox *> touched;
  auto visit = [&](const ktdp::IntegerBox &box, const Twine &name) {
    if (!intersects(box.lower, box.getExtents(), read, extents))
      return;
    touched.push_back(&box);
    if (names)
      names->push_back(name.str());
  };
  for (const ScratchpadPart &part : parts)
    visit(part.box, "tile " + Twine(part.owner) + "'s part");
  for (const DevicePart &device : devices)
    visit(device.box, "the part in device memory");
  return touched;
}

FailureOr<bool>
ScratchpadParts::deviceRead(ktdp::LoadOp load, const TileShape &shape,
                            ArrayRef<SmallVector<int64_t>> reads,
                            const LoadPiece &piece) {
  // The device part holding what each tile reads, if one does.
  SmallVector<std::optional<unsigned>> held;
  for (ArrayRef<int64_t> read : reads) {
    std::optional<unsigned> &part = held.emplace_back();
    for (auto [index, device] : llvm::enumerate(devices))
      if (intersects(device.box.lower, device.box.getExtents(), read,
                     shape.extents))
        part = index;
  }
  auto first = llvm::find_if(held, [](auto part) { return part.has_value(); });
  if (first == held.end())
    return false;
  for (auto [c, part] : llvm::enumerate(held))
    if (part != *first)
      return refuse(load, "on tile " + Twine(first - held.begin()) +
                              " it reads a part in device memory, on tile " +
                              Twine(c) +
                              " another part: the parts a load (or each "
                              "of its pieces) reads must be the same on "
                              "every tile");
  readList.push_back({load, **first, piece});
  return true;
}

Value ScratchpadParts::rewriteDeviceRead(DeviceRead &read) {
  const DevicePart &device = devices[read.part];
  MLIRContext *ctx = read.load.getContext();
  SmallVector<int64_t> extents = device.box.getExtents();
  // The part in local coordinates: its box moved to the origin.
  Value &local = localDeviceViews[read.part];
  if (!local) {
    OpBuilder b(device.view);
    b.setInsertionPointAfter(device.view);
    auto clone = cast<ktdp::ConstructMemoryViewOp>(b.clone(*device.view));
    clone.setCoordinateSet(ktdp::getBoxSet(extents, ctx));
    local = clone.getResult();
  }
  auto tile =
      read.load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  LoadPiece at = partLocalPiece(read.load, read.piece, device.box.lower);
  OpBuilder b(read.load);
  return ktdp::LoadOp::create(
      b, read.load.getLoc(),
      RankedTensorType::get(at.extents, getElementTypeOrSelf(read.load)),
      pieceOfTile(b, tile, at.at, at.extents, local));
}

LoadPiece mlir::ktdf::parts::partLocalPiece(ktdp::LoadOp load,
                                            const LoadPiece &piece,
                                            ArrayRef<int64_t> lower) {
  auto type = cast<RankedTensorType>(load.getType());
  LoadPiece local = piece;
  if (local.at.empty()) {
    local.at.assign(type.getRank(), 0);
    local.extents.assign(type.getShape().begin(), type.getShape().end());
  }
  for (auto [offset, low] : llvm::zip(local.at, lower))
    offset -= low;
  return local;
}
