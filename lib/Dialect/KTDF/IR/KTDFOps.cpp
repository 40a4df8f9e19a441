//===- KTDFOps.cpp - The ktdf operations ----------------------------------===//
//
// This file implements the ScheduleIR operations: the custom assembly of
// `ktdf.parallel` and of the stage's token count and unit roles, the
// verifiers (structure of pipelines, ends of transfers, FIFO block types)
// and the folders of the tiling helpers.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::ktdf;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `depends_out(N)`: N token results.
static ParseResult parseTokenCount(OpAsmParser &parser,
                                   SmallVectorImpl<Type> &types) {
  int64_t count;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(count))
    return failure();
  if (count < 0 || count > 64)
    return parser.emitError(loc, "expected between 0 and 64 tokens");
  types.assign(count, TokenType::get(parser.getContext()));
  return success();
}

static void printTokenCount(OpAsmPrinter &printer, Operation *,
                            TypeRange types) {
  printer << types.size();
}

/// `[dma_load, scratchpad_load]`.
static ParseResult parseUnitRoles(OpAsmParser &parser, ArrayAttr &roles) {
  SmallVector<Attribute> values;
  auto parseOne = [&]() -> ParseResult {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<UnitRole> role = symbolizeUnitRole(keyword);
    if (!role)
      return parser.emitError(loc, "unknown unit role '") << keyword << "'";
    values.push_back(UnitRoleAttr::get(parser.getContext(), *role));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  roles = parser.getBuilder().getArrayAttr(values);
  return success();
}

static void printUnitRoles(OpAsmPrinter &printer, Operation *,
                           ArrayAttr roles) {
  printer << "[";
  llvm::interleaveComma(roles, printer, [&](Attribute attr) {
    if (auto role = dyn_cast<UnitRoleAttr>(attr))
      printer << stringifyUnitRole(role.getValue());
    else
      printer << attr;
  });
  printer << "]";
}

#define GET_OP_CLASSES
#include "ktflow/Dialect/KTDF/IR/KTDFOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in"))
    return failure();
  SmallVector<int64_t> extents;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(extents.emplace_back());
      }))
    return failure();
  Builder &b = parser.getBuilder();
  result.addAttribute(getExtentsAttrName(result.name),
                      b.getDenseI64ArrayAttr(extents));
  if (succeeded(parser.parseOptionalKeyword("distribute"))) {
    int64_t n;
    if (parser.parseLParen() || parser.parseKeyword("num_instances") ||
        parser.parseEqual() || parser.parseInteger(n) || parser.parseRParen())
      return failure();
    result.addAttribute(getNumInstancesAttrName(result.name),
                        b.getI64IntegerAttr(n));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = b.getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void ParallelOp::print(OpAsmPrinter &printer) {
  printer << " (";
  llvm::interleaveComma(getBody().getArguments(), printer,
                        [&](BlockArgument arg) { printer << arg; });
  printer << ") in [";
  llvm::interleaveComma(getExtents(), printer);
  printer << "]";
  if (std::optional<int64_t> n = getNumInstances())
    printer << " distribute(num_instances = " << *n << ")";
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getExtentsAttrName(), getNumInstancesAttrName()});
  printer << " ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ParallelOp::verifyRegions() {
  ArrayRef<int64_t> extents = getExtents();
  if (extents.empty())
    return emitOpError("needs at least one dimension");
  if (llvm::any_of(extents, [](int64_t e) { return e <= 0; }))
    return emitOpError("extents must be positive");
  Block &block = getBody().front();
  if (block.getNumArguments() != extents.size())
    return emitOpError("has ")
           << extents.size() << " dimensions but its body takes "
           << block.getNumArguments() << " arguments";
  if (llvm::any_of(block.getArgumentTypes(),
                   [](Type t) { return !t.isIndex(); }))
    return emitOpError("body arguments must be of type index");
  if (std::optional<int64_t> n = getNumInstances(); n && *n <= 0)
    return emitOpError("distributes over a positive number of instances, "
                       "not ")
           << *n;
  if (getNumPoints() > (int64_t(1) << 31))
    return emitOpError("iteration space is too large");
  return success();
}

int64_t ParallelOp::getNumPoints() {
  int64_t n = 1;
  for (int64_t e : getExtents())
    n = e > 0 && n <= (int64_t(1) << 40) / e ? n * e : int64_t(1) << 40;
  return n;
}

//===----------------------------------------------------------------------===//
// PipelineOp, StageOp, PrivateOp
//===----------------------------------------------------------------------===//

LogicalResult PipelineOp::verifyRegions() {
  if (std::optional<int64_t> n = getModulo(); n && *n <= 0)
    return emitOpError("modulo size must be positive, not ") << *n;
  for (Operation &op : getBody().front())
    if (!isa<PrivateOp, StageOp>(op))
      return op.emitOpError("cannot appear directly in a ktdf.pipeline, "
                            "which holds only ktdf.private and ktdf.stage");
  // Exported buffers: result i is the one buffer marked `export i`.
  SmallVector<PrivateOp> exported(getNumResults());
  for (auto priv : getBody().front().getOps<PrivateOp>()) {
    std::optional<int64_t> index = priv.getExported();
    if (!index)
      continue;
    if (!isa<MemRefType>(priv.getType()))
      return priv.emitOpError("only buffers can be exported");
    if (*index < 0 || *index >= static_cast<int64_t>(getNumResults()))
      return priv.emitOpError("exports result ")
             << *index << " but the pipeline has " << getNumResults()
             << " result(s)";
    if (exported[*index])
      return priv.emitOpError("exports result ")
             << *index << ", which another buffer already exports";
    if (priv.getType() != getResult(*index).getType())
      return priv.emitOpError("exports result ")
             << *index << " of type " << getResult(*index).getType()
             << " but is " << priv.getType();
    exported[*index] = priv;
  }
  for (auto [i, priv] : llvm::enumerate(exported))
    if (!priv)
      return emitOpError("result ") << i << " is exported by no buffer";
  if (getPerInstance() && !isa_and_nonnull<ParallelOp>((*this)->getParentOp()))
    return emitOpError("runs once per instance of a ktdf.parallel, so it "
                       "must sit directly in one");
  if (getNumResults() && getNumCopies() != 1)
    return emitOpError("exports buffers, which live across its executions, "
                       "so it cannot rotate ")
           << getNumCopies() << " copies";
  return success();
}

PrivateOp PipelineOp::getExportedBuffer(unsigned index) {
  for (auto priv : getBody().front().getOps<PrivateOp>())
    if (priv.getExported() == static_cast<int64_t>(index))
      return priv;
  return nullptr;
}

LogicalResult StageOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  ArrayAttr roles = getApplicableUnits();
  if (roles.empty())
    return emitOpError("needs at least one applicable unit role");
  llvm::SmallDenseSet<unsigned> seen;
  for (Attribute attr : roles)
    if (!seen.insert(static_cast<unsigned>(
                         cast<UnitRoleAttr>(attr).getValue()))
             .second)
      return emitOpError("lists unit role '")
             << stringifyUnitRole(cast<UnitRoleAttr>(attr).getValue())
             << "' twice";
  if (std::optional<StringRef> unit = getUnit(); unit && unit->empty())
    return emitOpError("names an empty unit");
  for (Value token : getDependsIn()) {
    Operation *def = token.getDefiningOp();
    if (!def || !isa<StageOp, PrivateOp>(def) ||
        def->getParentOp() != (*this)->getParentOp())
      return emitOpError("waits for a token that no stage or private "
                         "resource of its pipeline defines");
  }
  return success();
}

bool StageOp::isApplicable(UnitRole role) {
  return llvm::any_of(getApplicableUnits(), [&](Attribute attr) {
    return cast<UnitRoleAttr>(attr).getValue() == role;
  });
}

LogicalResult PrivateOp::verify() {
  Type type = getResult().getType();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!memref.hasStaticShape())
      return emitOpError("buffers need a static shape, got ") << type;
    if (getBufferMemoryKind(memref).empty())
      return emitOpError("buffers need a device memory kind (a string "
                         "memory space), got ")
             << type;
    if (!memref.getLayout().isIdentity())
      return emitOpError("buffers are dense and row-major, got ") << type;
    if (std::optional<int64_t> offset = getOffset(); offset && *offset < 0)
      return emitOpError("offset must not be negative");
    return success();
  }
  if (!isa<FifoSlotType, TokenType>(type))
    return emitOpError("declares a buffer (memref), a FIFO slot or a "
                       "token, not ")
           << type;
  if (getOffset())
    return emitOpError("only buffers have an offset");
  return success();
}

void PrivateOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  Type type = getResult().getType();
  setNameFn(getResult(), isa<MemRefType>(type)    ? "buf"
                         : isa<FifoSlotType>(type) ? "slot"
                                                   : "tok");
}

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
    for (auto [b, d] : llvm::zip(block, trailing))
      if (!ShapedType::isDynamic(b) && !ShapedType::isDynamic(d) && b > d)
        return op.emitOpError("moves a block of ")
               << b << " elements along a dimension of " << d << " in its "
               << which;
    return success();
  }
  int64_t have = numElements(type.getShape()),
          want = numElements(block);
  if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
      have != want)
    return op.emitOpError("moves a block of ")
           << want << " elements but its " << which << " " << type
           << " holds " << have;
  return success();
}

LogicalResult DataTransferOp::verify() {
  std::optional<EndKind> src = classifyEnd(getSrc().getType());
  std::optional<EndKind> dst = classifyEnd(getDst().getType());
  if (!src || !dst)
    return emitOpError("ends must be access tiles, memrefs or FIFO slots, "
                       "got ")
           << getSrc().getType() << " and " << getDst().getType();
  if (*src == EndKind::Tile && *dst == EndKind::Tile)
    return emitOpError("cannot move from one access tile to another; stage "
                       "the data through a buffer");
  if (*src == EndKind::Slot && *dst == EndKind::Slot)
    return emitOpError("cannot move from one FIFO slot to another");
  if (!getSrcIndices().empty() && *src == EndKind::Slot)
    return emitOpError("only a buffer or access tile source can be indexed");
  if (!getDstIndices().empty() && *dst == EndKind::Slot)
    return emitOpError("only a buffer or access tile destination can be "
                       "indexed");
  // An indexed access tile moves a block of a slot's shape starting at the
  // indices within the tile.
  for (auto [kind, type, indices] :
       {std::make_tuple(*src, getSrc().getType(), getSrcIndices()),
        std::make_tuple(*dst, getDst().getType(), getDstIndices())}) {
    if (kind != EndKind::Tile || indices.empty())
      continue;
    auto tile = cast<ktdp::AccessTileType>(type);
    if (indices.size() != static_cast<size_t>(tile.getRank()))
      return emitOpError("indexes an access tile of rank ")
             << tile.getRank() << " with " << indices.size() << " indices";
    if (*src != EndKind::Slot && *dst != EndKind::Slot)
      return emitOpError("an indexed access tile moves a FIFO slot's block");
  }
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
  SmallVector<int64_t> block = getBlockShape();
  Type elementType;
  for (Type type : {getSrc().getType(), getDst().getType()}) {
    Type elem;
    if (auto m = dyn_cast<MemRefType>(type))
      elem = m.getElementType();
    else if (auto s = dyn_cast<FifoSlotType>(type))
      elem = s.getElementType();
    if (!elem)
      continue;
    if (elementType && elem != elementType)
      return emitOpError("moves ") << elementType << " elements into "
                                   << elem << " elements";
    elementType = elem;
  }
  if (auto m = dyn_cast<MemRefType>(getSrc().getType()))
    if (failed(verifyBufferEnd(*this, "source", m, getSrcIndices(), block)))
      return failure();
  if (auto m = dyn_cast<MemRefType>(getDst().getType()))
    if (failed(verifyBufferEnd(*this, "destination", m, getDstIndices(),
                               block)))
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
  auto indexed = cast<MemRefType>(getSrcIndex() ? getSrc().getType()
                                                : getDst().getType());
  auto plain = cast<MemRefType>(getSrcIndex() ? getDst().getType()
                                              : getSrc().getType());
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
  bool scalarInUnitSlot = shaped.getRank() == 0 &&
                          slot.getShape() == ArrayRef<int64_t>{1};
  if ((shaped.getShape() != slot.getShape() && !scalarInUnitSlot) ||
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

//===----------------------------------------------------------------------===//
// Tiling helpers
//===----------------------------------------------------------------------===//

LogicalResult ReserveSizeOp::verify() {
  if (getExtent() <= 0)
    return emitOpError("extent must be positive");
  if (getGranularity() <= 0)
    return emitOpError("granularity must be positive");
  return success();
}

static std::optional<int64_t> constantOf(Attribute attr) {
  if (auto i = dyn_cast_if_present<IntegerAttr>(attr))
    return i.getValue().getSExtValue();
  return std::nullopt;
}

OpFoldResult DeriveSizeOp::fold(FoldAdaptor adaptor) {
  auto size = constantOf(adaptor.getSize()),
       offset = constantOf(adaptor.getOffset()),
       extent = constantOf(adaptor.getExtent());
  if (!size || !offset || !extent || *offset > *extent)
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          std::min(*size, *extent - *offset));
}

OpFoldResult LinearizeIndexOp::fold(FoldAdaptor adaptor) {
  auto tile = constantOf(adaptor.getTile()),
       inner = constantOf(adaptor.getInner()),
       size = constantOf(adaptor.getSize());
  if (tile && *tile == 0)
    return getInner();
  if (!tile || !inner || !size)
    return {};
  return IntegerAttr::get(IndexType::get(getContext()),
                          *tile * *size + *inner);
}
