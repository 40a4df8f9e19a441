//===- KTDFAllReduceOp.cpp - The ktdf ops that move data across tiles ----===//
//
// This file implements `ktdf.all_reduce`: its groups (disjoint lists of
// linear tile ids, each of at least one tile), its combiner (an `arith`
// float op the vector units compute element-wise) and its two scratchpad
// views of one element type, the partial and the space the other members'
// chunks arrive in, and `ktdf.scatter` (ScatterAttr.h); and `ktdf.tile_copy`,
// whose two views have one type and whose sources name a tile of the grid (or
// none) per tile.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"

#include <set>

using namespace mlir;
using namespace mlir::ktdf;

SmallVector<SmallVector<int64_t>> AllReduceOp::getMembers() {
  SmallVector<SmallVector<int64_t>> members;
  for (Attribute group : getGroups()) {
    auto ids = dyn_cast<DenseI64ArrayAttr>(group);
    members.emplace_back(ids ? ids.asArrayRef() : ArrayRef<int64_t>());
    llvm::sort(members.back());
  }
  return members;
}

int64_t AllReduceOp::getNumElements() {
  return cast<MemRefType>(getPartial().getType()).getNumElements();
}

/// `ktdf.scatter` (ScatterAttr.h): a unit attribute, one ring, and groups
/// whose tiles each keep an equal chunk.
static LogicalResult verifyScatter(AllReduceOp op, int64_t largest) {
  Attribute scatter = op->getAttr(kScatterAttrName);
  if (!scatter)
    return success();
  if (!isa<UnitAttr>(scatter))
    return op.emitOpError("expects '")
           << kScatterAttrName << "' to be a unit attribute";
  if (op.getRings().value_or(1) != 1)
    return op.emitOpError("a scattered all-reduce has one ring");
  int64_t elements = op.getNumElements();
  for (Attribute group : op.getGroups()) {
    int64_t members = cast<DenseI64ArrayAttr>(group).size();
    if (members != largest || elements % members != 0)
      return op.emitOpError("a scattered all-reduce needs groups of one "
                            "size that divides its ")
             << elements << " elements; a group has " << members << " tiles";
  }
  return success();
}

LogicalResult AllReduceOp::verify() {
  static const char *const combiners[] = {"arith.addf",     "arith.mulf",
                                          "arith.maximumf", "arith.minimumf",
                                          "arith.maxnumf",  "arith.minnumf"};
  if (!llvm::is_contained(combiners, getCombiner()))
    return emitOpError("combiner '")
           << getCombiner()
           << "' is not one of arith.addf, mulf, maximumf, minimumf, "
              "maxnumf, minnumf";
  auto partial = cast<MemRefType>(getPartial().getType());
  auto received = cast<MemRefType>(getReceived().getType());
  if (!partial.hasStaticShape() || !received.hasStaticShape() ||
      !isa<FloatType>(partial.getElementType()) ||
      partial.getElementType() != received.getElementType())
    return emitOpError("expects statically shaped views of one float "
                       "element type");
  std::set<int64_t> seen;
  int64_t largest = 1;
  for (Attribute group : getGroups()) {
    auto ids = dyn_cast<DenseI64ArrayAttr>(group);
    if (!ids || ids.empty())
      return emitOpError("each group must be a non-empty array<i64> of "
                         "tile ids");
    for (int64_t id : ids.asArrayRef())
      if (id < 0 || !seen.insert(id).second)
        return emitOpError("tile ") << id << " is negative or in two groups";
    largest = std::max<int64_t>(largest, ids.size());
  }
  if (getGroups().empty())
    return emitOpError("expects at least one group");
  int64_t chunk = (partial.getNumElements() + largest - 1) / largest;
  if (received.getNumElements() < (largest - 1) * chunk)
    return emitOpError("the received view holds ")
           << received.getNumElements() << " elements; groups of " << largest
           << " need " << (largest - 1) * chunk;
  if (getPieces() && *getPieces() < 1)
    return emitOpError("expects at least one piece per chunk");
  int64_t rings = getRings().value_or(1);
  if (rings != 1 && rings != 2)
    return emitOpError("expects 1 or 2 rings, not ") << rings;
  int64_t half = (partial.getNumElements() + rings - 1) / rings;
  int64_t ringChunk = (half + largest - 1) / largest;
  if (received.getNumElements() < rings * (largest - 1) * ringChunk)
    return emitOpError("the received view holds ")
           << received.getNumElements() << " elements; " << rings
           << " rings of " << largest << " need "
           << rings * (largest - 1) * ringChunk;
  return verifyScatter(*this, largest);
}

LogicalResult TileCopyOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  if (!source.hasStaticShape() || source != getDest().getType())
    return emitOpError("expects two statically shaped views of one type");
  int64_t tiles = getSources().size();
  for (int64_t from : getSources())
    if (from < -1 || from >= tiles)
      return emitOpError("source tile ")
             << from << " is neither -1 nor one of the " << tiles
             << " tiles the list covers";
  return success();
}
