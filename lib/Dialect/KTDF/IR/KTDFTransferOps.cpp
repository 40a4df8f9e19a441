//===- KTDFTransferOps.cpp - The ktdf ops that move data ------------------===//
//
// This file implements the verifiers of the ScheduleIR ops that move data:
// `ktdf.data_transfer` (which ends it connects, access tiles, buffers or
// FIFO slots, the block it moves and where its indices and `rows` apply),
// `ktdf.ind_data_transfer` (a gather or scatter through an index buffer),
// and the FIFO reads and writes of compute stages (the slot's block type).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

using namespace mlir;
using namespace mlir::ktdf;

//===----------------------------------------------------------------------===//
// DataTransferOp
//===----------------------------------------------------------------------===//

namespace {
enum class EndKind { Tile, Buffer, Slot };
} // namespace

static std::optional<EndKind> classifyEnd(Type type) {
  if (isa<ktdp::AccessTileType>(type))
    return EndKind::Tile;
  if (isa<MemRefType>(type))
    return EndKind::Buffer;
  if (isa<FifoSlotType>(type))
    return EndKind::Slot;
  return std::nullopt;
}

static int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n = ShapedType::isDynamic(d) ? ShapedType::kDynamic : n * d;
  return n;
}

SmallVector<int64_t> DataTransferOp::getBlockShape() {
  for (Type type : {getSrc().getType(), getDst().getType()})
    if (auto slot = dyn_cast<FifoSlotType>(type))
      return llvm::to_vector(slot.getShape());
  for (Type type : {getSrc().getType(), getDst().getType()})
    if (auto tile = dyn_cast<ktdp::AccessTileType>(type))
      return llvm::to_vector(tile.getShape());
  if (getSrcIndices().empty())
    return llvm::to_vector(cast<MemRefType>(getSrc().getType()).getShape());
  return llvm::to_vector(cast<MemRefType>(getDst().getType()).getShape());
}

/// Checks one buffer end against the block it moves.
static LogicalResult verifyBufferEnd(DataTransferOp op, StringRef which,
                                     MemRefType type, ValueRange indices,
                                     ArrayRef<int64_t> block) {
  if (!indices.empty()) {
    if (indices.size() != static_cast<size_t>(type.getRank()))
      return op.emitOpError("indexes its ")
             << which << " with " << indices.size()
             << " indices, but the buffer has rank " << type.getRank();
    if (block.size() > static_cast<size_t>(type.getRank()))
      return op.emitOpError("moves a block of rank ")
             << block.size() << " within a " << which << " of rank "
             << type.getRank();
    ArrayRef<int64_t> trailing = type.getShape().take_back(block.size());
    // Whole consecutive rows of a dense buffer, as one run of elements.
    int64_t last = type.getShape().back();
    if (block.size() == 1 && type.getRank() > 1 &&
        type.getLayout().isIdentity() && type.hasStaticShape() &&
        !ShapedType::isDynamic(block[0]) && block[0] > last &&
        block[0] % last == 0 && block[0] <= type.getNumElements())
      return success();
    for (auto [b, d] : llvm::zip(block, trailing))
      if (!ShapedType::isDynamic(b) && !ShapedType::isDynamic(d) && b > d)
        return op.emitOpError("moves a block of ")
               << b << " elements along a dimension of " << d << " in its "
               << which;
    return success();
  }
  int64_t have = numElements(type.getShape()), want = numElements(block);
  if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
      have != want)
    return op.emitOpError("moves a block of ")
           << want << " elements but its " << which << " " << type << " holds "
           << have;
  return success();
}

/// A move from one access tile to another is a DMA between a scratchpad
/// view and device memory, which the DMA reaches without a buffer: one
/// end on a `ct_local` view, the other not, neither indexed, as many
/// elements of one type at each (the scratchpad end laid out as a dense
/// buffer of the other's shape would be).
static LogicalResult verifyScratchpadDma(DataTransferOp op) {
  auto src = ktdp::getAccessTileView(op.getSrc());
  auto dst = ktdp::getAccessTileView(op.getDst());
  bool srcLocal = src && ktdp::isScratchpadView(src);
  bool dstLocal = dst && ktdp::isScratchpadView(dst);
  if (!src || !dst || srcLocal == dstLocal)
    return op.emitOpError("moves from one access tile to another only "
                          "between a scratchpad view and device memory; "
                          "stage the data through a buffer");
  if (!op.getSrcIndices().empty() || !op.getDstIndices().empty())
    return op.emitOpError("a move between a scratchpad tile and a device "
                          "memory tile takes no indices");
  auto srcType = cast<ktdp::AccessTileType>(op.getSrc().getType());
  auto dstType = cast<ktdp::AccessTileType>(op.getDst().getType());
  int64_t have = numElements(srcType.getShape());
  int64_t want = numElements(dstType.getShape());
  if (have != want)
    return op.emitOpError("moves ")
           << have << " elements of its source tile into " << want
           << " of its destination tile";
  Type srcElement = cast<MemRefType>(src.getType()).getElementType();
  Type dstElement = cast<MemRefType>(dst.getType()).getElementType();
  if (srcElement != dstElement)
    return op.emitOpError("moves ")
           << srcElement << " elements into " << dstElement << " elements";
  return success();
}

/// An indexed access tile moves a block of a slot's shape starting at the
/// indices within the tile: one index per dimension, and a slot at the
/// other end.
static LogicalResult verifyIndexedTiles(DataTransferOp op, EndKind src,
                                        EndKind dst) {
  for (auto [kind, type, indices] :
       {std::make_tuple(src, op.getSrc().getType(), op.getSrcIndices()),
        std::make_tuple(dst, op.getDst().getType(), op.getDstIndices())}) {
    if (kind != EndKind::Tile || indices.empty())
      continue;
    auto tile = cast<ktdp::AccessTileType>(type);
    if (indices.size() != static_cast<size_t>(tile.getRank()))
      return op.emitOpError("indexes an access tile of rank ")
             << tile.getRank() << " with " << indices.size() << " indices";
    if (src != EndKind::Slot && dst != EndKind::Slot)
      return op.emitOpError("an indexed access tile moves a FIFO slot's "
                            "block");
  }
  return success();
}

/// Staged index buffers go with an indirect access tile moving to or from
/// a buffer: one per index view, holding its element type.
static LogicalResult verifyStagedIndices(DataTransferOp op) {
  if (op.getStagedIndices().empty())
    return success();
  Value tileEnd = isa<ktdp::AccessTileType>(op.getSrc().getType()) ? op.getSrc()
                  : isa<ktdp::AccessTileType>(op.getDst().getType())
                      ? op.getDst()
                      : Value();
  auto tile = tileEnd
                  ? tileEnd.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>()
                  : nullptr;
  if (!tile)
    return op.emitOpError("staged indices go with an indirect access tile "
                          "end");
  if (!isa<MemRefType>(op.getSrc().getType()) &&
      !isa<MemRefType>(op.getDst().getType()))
    return op.emitOpError("an indirect access tile with staged indices "
                          "moves to or from a buffer");
  ValueRange views = tile.getIndirectMemrefs();
  if (views.size() != op.getStagedIndices().size())
    return op.emitOpError("stages ")
           << op.getStagedIndices().size()
           << " index buffers for an indirect access tile reading "
           << views.size() << " index views";
  for (auto [buffer, view] : llvm::zip(op.getStagedIndices(), views)) {
    Type have = cast<MemRefType>(buffer.getType()).getElementType();
    Type want = cast<ShapedType>(view.getType()).getElementType();
    if (have != want)
      return op.emitOpError("stages ")
             << want << " indices in a buffer of " << have;
  }
  return success();
}

/// The buffer and slot ends of a transfer hold the same element type.
static LogicalResult verifyElementTypes(DataTransferOp op) {
  Type elementType;
  for (Type type : {op.getSrc().getType(), op.getDst().getType()}) {
    Type elem;
    if (auto m = dyn_cast<MemRefType>(type))
      elem = m.getElementType();
    else if (auto s = dyn_cast<FifoSlotType>(type))
      elem = s.getElementType();
    if (!elem)
      continue;
    if (elementType && elem != elementType)
      return op.emitOpError("moves ")
             << elementType << " elements into " << elem << " elements";
    elementType = elem;
  }
  return success();
}

LogicalResult DataTransferOp::verify() {
  std::optional<EndKind> src = classifyEnd(getSrc().getType());
  std::optional<EndKind> dst = classifyEnd(getDst().getType());
  if (!src || !dst)
    return emitOpError("ends must be access tiles, memrefs or FIFO slots, "
                       "got ")
           << getSrc().getType() << " and " << getDst().getType();
  if (*src == EndKind::Tile && *dst == EndKind::Tile &&
      failed(verifyScratchpadDma(*this)))
    return failure();
  if (*src == EndKind::Slot && *dst == EndKind::Slot)
    return emitOpError("cannot move from one FIFO slot to another");
  if (!getSrcIndices().empty() && *src == EndKind::Slot)
    return emitOpError("only a buffer or access tile source can be indexed");
  if (!getDstIndices().empty() && *dst == EndKind::Slot)
    return emitOpError("only a buffer or access tile destination can be "
                       "indexed");
  if (failed(verifyIndexedTiles(*this, *src, *dst)))
    return failure();
  if (getRows()) {
    bool tileEnd = (*src == EndKind::Tile && getSrcIndices().empty()) ||
                   (*dst == EndKind::Tile && getDstIndices().empty());
    Type tile = *src == EndKind::Tile ? getSrc().getType() : getDst().getType();
    if (!tileEnd || (*src != EndKind::Buffer && *dst != EndKind::Buffer) ||
        cast<ktdp::AccessTileType>(tile).getRank() < 2)
      return emitOpError("'rows' limits a transfer between a whole access "
                         "tile of rank 2 or more and a buffer");
  }
  if (*src == EndKind::Buffer && *dst == EndKind::Buffer &&
      !getSrcIndices().empty() && !getDstIndices().empty())
    return emitOpError("cannot infer the block shape when both buffers "
                       "are indexed");
  if (failed(verifyStagedIndices(*this)))
    return failure();
  SmallVector<int64_t> block = getBlockShape();
  if (failed(verifyElementTypes(*this)))
    return failure();
  if (auto m = dyn_cast<MemRefType>(getSrc().getType()))
    if (failed(verifyBufferEnd(*this, "source", m, getSrcIndices(), block)))
      return failure();
  if (auto m = dyn_cast<MemRefType>(getDst().getType()))
    if (failed(
            verifyBufferEnd(*this, "destination", m, getDstIndices(), block)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// IndDataTransferOp
//===----------------------------------------------------------------------===//

LogicalResult IndDataTransferOp::verify() {
  Value index = getSrcIndex() ? getSrcIndex() : getDstIndex();
  if (!index || (getSrcIndex() && getDstIndex()))
    return emitOpError("needs exactly one indexed end (a gather from the "
                       "source or a scatter to the destination)");
  auto indexType = cast<MemRefType>(index.getType());
  if (indexType.getRank() != 1 ||
      !(indexType.getElementType().isIndex() ||
        isa<IntegerType>(indexType.getElementType())))
    return emitOpError("index buffer must be a rank-1 memref of integers, "
                       "got ")
           << indexType;
  auto indexed =
      cast<MemRefType>(getSrcIndex() ? getSrc().getType() : getDst().getType());
  auto plain =
      cast<MemRefType>(getSrcIndex() ? getDst().getType() : getSrc().getType());
  if (indexed.getElementType() != plain.getElementType())
    return emitOpError("moves ")
           << indexed.getElementType() << " elements into "
           << plain.getElementType() << " elements";
  if (indexed.getRank() != plain.getRank() || indexed.getRank() == 0)
    return emitOpError("ends must have the same non-zero rank");
  int64_t rows = plain.getShape().front(), count = indexType.getShape().front();
  if (!ShapedType::isDynamic(rows) && !ShapedType::isDynamic(count) &&
      rows != count)
    return emitOpError("moves ")
           << count << " indexed rows but the unindexed end has " << rows;
  for (auto [a, b] : llvm::zip(indexed.getShape().drop_front(),
                               plain.getShape().drop_front()))
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return emitOpError("ends disagree in a row dimension (")
             << a << " vs " << b << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// FIFO reads and writes
//===----------------------------------------------------------------------===//

static LogicalResult verifyFifoBlock(Operation *op, Type valueType,
                                     FifoSlotType slot) {
  if (!op->getParentOfType<StageOp>())
    return op->emitOpError("must be inside a ktdf.stage");
  auto shaped = cast<ShapedType>(valueType);
  // A scalar (rank-0 tensor) fills a one-element slot.
  bool scalarInUnitSlot =
      shaped.getRank() == 0 && slot.getShape() == ArrayRef<int64_t>{1};
  // A slot of rows (a column block of a wider buffer, which its load or
  // store unit moves as rows a buffer row apart) streams its elements in
  // row-major order: the compute unit may take them as one flat chunk.
  bool flatRows = shaped.getRank() == 1 && slot.getShape().size() > 1 &&
                  shaped.hasStaticShape() &&
                  shaped.getNumElements() == numElements(slot.getShape());
  if ((shaped.getShape() != slot.getShape() && !scalarInUnitSlot &&
       !flatRows) ||
      shaped.getElementType() != slot.getElementType())
    return op->emitOpError("moves ")
           << valueType << " through a slot of " << slot;
  return success();
}

LogicalResult ReadFromFifoOp::verify() {
  return verifyFifoBlock(*this, getResult().getType(), getSlot().getType());
}

LogicalResult WriteToFifoOp::verify() {
  return verifyFifoBlock(*this, getValue().getType(), getSlot().getType());
}
