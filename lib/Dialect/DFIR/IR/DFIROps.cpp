//===- DFIROps.cpp - The dfir operations ----------------------------------===//
//
// This file implements the device-independent verifiers of DataflowIR:
// declarations are well formed, compute ops have consistent shapes, and
// every symbol use names a declaration of the right kind that the using
// unit may use (a FIFO is sent to only by its producer and received from
// only by its consumer; likewise for syncs). Checks against a device live
// in the bundle emitter.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/DFIR/IR/DFIR.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dfir;

#define GET_OP_CLASSES
#include "ktflow/Dialect/DFIR/IR/DFIROps.cpp.inc"

// I64Attr getters return uint64_t; the checks below read them signed.
static int64_t sgn(uint64_t v) { return static_cast<int64_t>(v); }

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

LogicalResult KernelOp::verifyRegions() {
  llvm::StringSet<> units;
  for (Operation &op : getBody().front()) {
    if (auto unit = dyn_cast<UnitOp>(op)) {
      if (!units.insert(unit.getUnit()).second)
        return unit.emitOpError("a second program for unit '")
               << unit.getUnit() << "'";
      continue;
    }
    if (!isa<TensorOp, RuntimeArgOp, BufferOp, FifoOp, SyncOp>(op))
      return op.emitOpError("is not allowed directly in a dfir.kernel");
  }
  return success();
}

/// Checks the origin fields `op` carries (`argument`, `named`, `at`).
static LogicalResult verifyOrigin(Operation *op,
                                  std::optional<int64_t> argument,
                                  std::optional<StringRef> name,
                                  std::optional<int64_t> address) {
  if (argument && (*argument < 0 || *argument >= UINT32_MAX))
    return op->emitOpError("argument position must be in [0, 2^32 - 1), got ")
           << *argument;
  if (name && !argument)
    return op->emitOpError("names an argument but has no argument position");
  if (address && argument)
    return op->emitOpError("has both an argument position and a literal "
                           "address");
  if (address && *address < 0)
    return op->emitOpError("literal address must be non-negative, got ")
           << *address;
  return success();
}

LogicalResult TensorOp::verify() {
  if (failed(verifyOrigin(*this, getArgument(), getArgName(), getAddress())))
    return failure();
  if (getTile() && (!getAddress() || *getTile() < 0))
    return emitOpError("a tensor of a tile's scratchpad needs a literal "
                       "address and a non-negative tile");
  auto type = cast<RankedTensorType>(getType());
  int64_t dynamic = type.getNumDynamicDims();
  int64_t given = getDims() ? getDims()->size() : 0;
  if (dynamic != given)
    return emitOpError("has ") << dynamic << " dynamic dimension"
                               << (dynamic == 1 ? "" : "s") << " but "
                               << given << " runtime argument"
                               << (given == 1 ? "" : "s") << " in dims [...]";
  for (int64_t d : type.getShape())
    if (!ShapedType::isDynamic(d) && d <= 0)
      return emitOpError("dimensions must be positive");
  if (getDimScales() &&
      (static_cast<int64_t>(getDimScales()->size()) != given ||
       llvm::any_of(*getDimScales(), [](int64_t s) { return s <= 0; })))
    return emitOpError("needs one positive scale per runtime argument in "
                       "dims [...]");
  if (!getDims())
    return success();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayAttr dims = *getDims();
  for (Attribute a : dims) {
    auto ref = cast<FlatSymbolRefAttr>(a);
    if (!isa_and_nonnull<RuntimeArgOp>(
            SymbolTable::lookupSymbolIn(kernel, ref.getAttr())))
      return emitOpError("dimension ") << ref << " is not a dfir.runtime_arg";
  }
  return success();
}

LogicalResult RuntimeArgOp::verify() {
  if (failed(verifyOrigin(*this, getArgument(), getArgName(), std::nullopt)))
    return failure();
  if (std::optional<Type> type = getFloatType()) {
    if (!type->isF16() && !type->isBF16() && !type->isF32())
      return emitOpError("a float runtime argument must be f16, bf16 or f32, "
                         "got ")
             << *type;
    return success();
  }
  int64_t granularity = sgn(getGranularity()), upperbound = sgn(getUpperbound());
  if (granularity <= 0)
    return emitOpError("granularity must be positive, got ") << granularity;
  if (!getLowerbound()) {
    if (upperbound < granularity)
      return emitOpError("upperbound ")
             << upperbound << " is below the granularity " << granularity;
    return success();
  }
  if (upperbound < getMinimum())
    return emitOpError("upperbound ")
           << upperbound << " is below the lowerbound " << getMinimum();
  return success();
}

LogicalResult BufferOp::verify() {
  if (sgn(getSize()) <= 0)
    return emitOpError("size must be positive, got ") << sgn(getSize());
  if (getOffset() && sgn(*getOffset()) < 0)
    return emitOpError("offset must not be negative, got ")
           << sgn(*getOffset());
  return success();
}

LogicalResult FifoOp::verify() {
  if (sgn(getEntry()) <= 0 || sgn(getEntry()) > (1 << 20))
    return emitOpError("entry size must be in [1, 1048576] bytes, got ")
           << sgn(getEntry());
  if (getDepth() && sgn(*getDepth()) <= 0)
    return emitOpError("depth must be positive, got ") << sgn(*getDepth());
  if (getFrom() == getTo())
    return emitOpError("joins unit '") << getFrom() << "' to itself";
  return success();
}

//===----------------------------------------------------------------------===//
// Symbol uses
//===----------------------------------------------------------------------===//

/// The declaration `ref` names in the enclosing kernel, after checking that
/// `op` sits in a unit program; null (with an error) otherwise.
static Operation *lookupDecl(Operation *op, SymbolTableCollection &tables,
                             FlatSymbolRefAttr ref, UnitOp *unit = nullptr) {
  auto enclosing = op->getParentOfType<UnitOp>();
  if (!enclosing) {
    op->emitOpError("must be inside a dfir.unit program");
    return nullptr;
  }
  if (unit)
    *unit = enclosing;
  auto kernel = enclosing->getParentOfType<KernelOp>();
  Operation *decl = tables.lookupSymbolIn(kernel, ref.getAttr());
  if (!decl)
    op->emitOpError("refers to ") << ref << ", which the kernel does not declare";
  return decl;
}

/// Checks that `ref` names a FIFO whose producer (or consumer) is the unit
/// executing `op`, and that `bytes` (if known) fit one entry.
static LogicalResult verifyFifoUse(Operation *op,
                                   SymbolTableCollection &tables,
                                   FlatSymbolRefAttr ref, bool producer,
                                   std::optional<int64_t> bytes = {}) {
  UnitOp unit;
  Operation *decl = lookupDecl(op, tables, ref, &unit);
  if (!decl)
    return failure();
  auto fifo = dyn_cast<FifoOp>(decl);
  if (!fifo)
    return op->emitOpError() << ref << " is not a dfir.fifo";
  StringRef endpoint = producer ? fifo.getFrom() : fifo.getTo();
  if (endpoint != unit.getUnit())
    return op->emitOpError("FIFO misuse: unit '")
           << unit.getUnit() << "' is not the "
           << (producer ? "producer" : "consumer") << " of FIFO " << ref
           << " (" << (producer ? "from" : "to") << " '" << endpoint << "')";
  if (bytes && *bytes > sgn(fifo.getEntry()))
    return op->emitOpError("FIFO misuse: ")
           << *bytes << " bytes do not fit one " << fifo.getEntry()
           << "-byte entry of FIFO " << ref;
  return success();
}

static std::optional<int64_t> vectorBytes(VectorType type) {
  if (!type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
}

static LogicalResult verifySyncUse(Operation *op,
                                   SymbolTableCollection &tables,
                                   FlatSymbolRefAttr ref, bool sender) {
  UnitOp unit;
  Operation *decl = lookupDecl(op, tables, ref, &unit);
  if (!decl)
    return failure();
  auto sync = dyn_cast<SyncOp>(decl);
  if (!sync)
    return op->emitOpError() << ref << " is not a dfir.sync";
  StringRef endpoint = sender ? sync.getFrom() : sync.getTo();
  if (endpoint != unit.getUnit())
    return op->emitOpError("unit '")
           << unit.getUnit() << "' is not the " << (sender ? "sender" : "receiver")
           << " of sync " << ref << " (" << (sender ? "from" : "to") << " '"
           << endpoint << "')";
  return success();
}

LogicalResult AddressOp::verifySymbolUses(SymbolTableCollection &tables) {
  Operation *decl = lookupDecl(*this, tables, getSymbolAttr());
  if (!decl)
    return failure();
  if (!isa<TensorOp, BufferOp>(decl))
    return emitOpError() << getSymbolAttr()
                         << " is neither a dfir.tensor nor a dfir.buffer";
  return success();
}

LogicalResult RuntimeValueOp::verifySymbolUses(SymbolTableCollection &tables) {
  Operation *decl = lookupDecl(*this, tables, getSymbolAttr());
  if (!decl)
    return failure();
  auto arg = dyn_cast<RuntimeArgOp>(decl);
  if (!arg)
    return emitOpError() << getSymbolAttr() << " is not a dfir.runtime_arg";
  if (arg.getFloatType())
    return emitOpError() << getSymbolAttr()
                         << " is a float runtime argument (read it with "
                            "dfir.splat_arg)";
  return success();
}

LogicalResult SplatArgOp::verifySymbolUses(SymbolTableCollection &tables) {
  Operation *decl = lookupDecl(*this, tables, getSymbolAttr());
  if (!decl)
    return failure();
  auto arg = dyn_cast<RuntimeArgOp>(decl);
  if (!arg)
    return emitOpError() << getSymbolAttr() << " is not a dfir.runtime_arg";
  Type elem = getType().getElementType();
  if (!isa<FloatType>(elem))
    return emitOpError("element type ") << elem << " is not a float type";
  // An integer argument is converted to the element type (arith.sitofp).
  if (arg.getFloatType() && elem != *arg.getFloatType())
    return emitOpError("element type ")
           << elem << " is not the argument's type " << *arg.getFloatType();
  return success();
}

LogicalResult LoadOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyFifoUse(*this, tables, getFifoAttr(), /*producer=*/true);
}
LogicalResult StoreOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyFifoUse(*this, tables, getFifoAttr(), /*producer=*/false);
}
LogicalResult SendOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyFifoUse(*this, tables, getFifoAttr(), /*producer=*/true,
                       vectorBytes(cast<VectorType>(getValue().getType())));
}
LogicalResult RecvOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyFifoUse(*this, tables, getFifoAttr(), /*producer=*/false,
                       vectorBytes(cast<VectorType>(getResult().getType())));
}
LogicalResult SyncSendOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifySyncUse(*this, tables, getSyncAttr(), /*sender=*/true);
}
LogicalResult SyncRecvOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifySyncUse(*this, tables, getSyncAttr(), /*sender=*/false);
}

//===----------------------------------------------------------------------===//
// Data movement and compute
//===----------------------------------------------------------------------===//

/// A DMA's rows come with both strides or not at all.
template <typename OpT> static LogicalResult verifyRows(OpT op) {
  bool rows = static_cast<bool>(op.getRows());
  if (rows != static_cast<bool>(op.getSrcStride()) ||
      rows != static_cast<bool>(op.getDstStride()))
    return op.emitOpError("needs rows and both strides together");
  return success();
}

LogicalResult DmaOp::verify() {
  if (failed(verifyRows(*this)))
    return failure();
  bool planes = static_cast<bool>(getPlanes());
  if (planes != static_cast<bool>(getSrcPlaneStride()) ||
      planes != static_cast<bool>(getDstPlaneStride()))
    return emitOpError("needs planes and both plane strides together");
  if (planes && !getRows())
    return emitOpError("moves planes of rows: planes need rows");
  return success();
}

LogicalResult RemoteDmaOp::verify() {
  if (failed(verifyRows(*this)))
    return failure();
  if (getSrcMemory() == getDstMemory())
    return emitOpError("copies within memory '")
           << getDstMemory()
           << "': a remote dma writes the scratchpad of another core";
  return success();
}

LogicalResult FillOp::verify() {
  if (static_cast<bool>(getRows()) != static_cast<bool>(getStride()))
    return emitOpError("needs rows and a stride together");
  return success();
}

LogicalResult ReadIndexOp::verify() {
  auto type = dyn_cast<IntegerType>(getElemType());
  if (!type || !llvm::is_contained({8u, 16u, 32u, 64u}, type.getWidth()))
    return emitOpError("reads an i8, i16, i32 or i64 index, not ")
           << getElemType();
  return success();
}

LogicalResult MapOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << body.getNumArguments() << " arguments for "
           << getInputs().size() << " inputs";
  auto resultType = cast<VectorType>(getResult().getType());
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<VectorType>(input.getType());
    if (type.getShape() != resultType.getShape())
      return emitOpError("input ") << i << " has type " << type
                                   << ", whose shape differs from the result "
                                   << resultType;
    if (body.getArgument(i).getType() != type.getElementType())
      return emitOpError("body argument ")
             << i << " must have the element type " << type.getElementType();
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValue().getType() != resultType.getElementType())
    return yield.emitOpError("yields ")
           << yield.getValue().getType() << " but the map produces "
           << resultType;
  if (std::optional<uint64_t> acc = getAccumulator()) {
    if (*acc >= getInputs().size())
      return emitOpError("accumulator ")
             << *acc << " is not one of the " << getInputs().size()
             << " inputs";
    if (getInputs()[*acc].getType() != resultType)
      return emitOpError("accumulator input ")
             << *acc << " must have the result type " << resultType;
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  auto in = cast<VectorType>(getInput().getType());
  auto out = cast<VectorType>(getResult().getType());
  if (in.getElementType() != out.getElementType())
    return emitOpError("must keep the element type");
  bool afterNaN = getKind() == ReduceKind::maxafternan ||
                  getKind() == ReduceKind::minafternan;
  if ((getKind() == ReduceKind::maxnum || getKind() == ReduceKind::minnum) &&
      !isa<FloatType>(in.getElementType()))
    return emitOpError("maxnum and minnum reduce floats");
  if (afterNaN && !isa<FloatType>(in.getElementType()))
    return emitOpError("maxafternan and minafternan reduce floats");
  if (afterNaN && !getInit())
    return emitOpError("maxafternan and minafternan fold from an initial "
                       "accumulator ('from')");
  // An add or mul may start from the row's accumulator (no map folds its
  // result in); 16-bit floats accumulate in f32 inside the unit, which
  // the 16-bit accumulator could not start.
  if (getInit() && !afterNaN &&
      ((getKind() != ReduceKind::add && getKind() != ReduceKind::mul) ||
       (isa<FloatType>(in.getElementType()) &&
        in.getElementType().getIntOrFloatBitWidth() < 32)))
    return emitOpError("only maxafternan, minafternan, and add or mul of "
                       "32- or 64-bit elements take an initial accumulator");
  SmallVector<int64_t> expected(in.getShape().drop_back());
  if (expected.empty())
    expected.push_back(1);
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must drop the innermost dimension of ")
           << in << " (" << VectorType::get(expected, in.getElementType())
           << ")";
  return success();
}

LogicalResult IotaOp::verify() {
  if (std::optional<int64_t> d = getDimension();
      d && (*d < 0 || *d >= getType().getRank()))
    return emitOpError("dimension ")
           << *d << " is not a dimension of " << getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = cast<VectorType>(getInput().getType());
  auto out = cast<VectorType>(getResult().getType());
  if (in.getElementType() != out.getElementType())
    return emitOpError("must keep the element type");
  if (in.getNumElements() == 1)
    return success();
  SmallVector<int64_t> outer(out.getShape().drop_back());
  if (outer.empty())
    outer.push_back(1);
  if (in.getShape() != ArrayRef<int64_t>(outer))
    return emitOpError("can only add an innermost dimension: ")
           << in << " does not broadcast to " << out;
  return success();
}

LogicalResult MatmulOp::verify() {
  auto a = cast<VectorType>(getLhs().getType());
  auto b = cast<VectorType>(getRhs().getType());
  auto c = cast<VectorType>(getAcc().getType());
  if (a.getRank() == 1 || b.getRank() == 1 || c.getRank() == 1) {
    // A dot product: a row times a column into one element.
    if (a.getRank() != 1 || b.getRank() != 1 || c.getRank() != 1 ||
        a.getDimSize(0) != b.getDimSize(0) || c.getDimSize(0) != 1)
      return emitOpError("a dot product takes two vectors of one length "
                         "into a vector of one element: ")
             << a << " x " << b << " accumulated into " << c;
  } else if (a.getDimSize(1) != b.getDimSize(0) ||
             c.getDimSize(0) != a.getDimSize(0) ||
             c.getDimSize(1) != b.getDimSize(1))
    return emitOpError("shapes do not agree: ")
           << a << " x " << b << " accumulated into " << c;
  // A narrower float right operand is extended as it is read.
  auto lhsFloat = dyn_cast<FloatType>(a.getElementType());
  auto rhsFloat = dyn_cast<FloatType>(b.getElementType());
  bool narrowRight = lhsFloat && rhsFloat && lhsFloat == c.getElementType() &&
                     rhsFloat.getWidth() < lhsFloat.getWidth();
  if (a.getElementType() != b.getElementType() && !narrowRight)
    return emitOpError("operands must have the same element type, or the "
                       "right one a narrower float than the left one and "
                       "the accumulator");
  return success();
}
