//===- KTDFOps.cpp - The ktdf operations ----------------------------------===//
//
// This file implements the structure of ScheduleIR: the custom assembly of
// `ktdf.parallel` and of the stage's token count and unit roles, the
// verifiers of the grid, pipelines, stages and private resources, and the
// folders of the tiling helpers. The ops that move data are in
// KTDFTransferOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"
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
        parser.parseEqual() || parser.parseInteger(n))
      return failure();
    result.addAttribute(getNumInstancesAttrName(result.name),
                        b.getI64IntegerAttr(n));
    if (succeeded(parser.parseOptionalComma())) {
      if (parser.parseKeyword("snake"))
        return failure();
      result.addAttribute(getSnakeAttrName(result.name), b.getUnitAttr());
    }
    if (parser.parseRParen())
      return failure();
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
    printer << " distribute(num_instances = " << *n
            << (getSnake() ? ", snake)" : ")");
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getExtentsAttrName(), getNumInstancesAttrName(), getSnakeAttrName()});
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
  if (getSnake() &&
      (!getNumInstances() || getNumPoints() % *getNumInstances() != 0))
    return emitOpError("deals its points in snake order only over a number "
                       "of instances that divides them");
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
  if (getNumResults() && getPerInstance() && getNumCopies() != 1)
    return emitOpError("runs once per instance and exports buffers that "
                       "live across the instance's points, so it cannot "
                       "rotate ")
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

bool StageOp::isCompute() {
  return (isApplicable(UnitRole::vector_compute) ||
          isApplicable(UnitRole::matrix_compute)) &&
         !isApplicable(UnitRole::dma_load);
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
