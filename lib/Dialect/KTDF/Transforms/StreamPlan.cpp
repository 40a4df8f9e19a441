//===- StreamPlan.cpp - How a compute stage streams a tile ----------------===//
//
// This file builds the StreamPlan of a compute stage in four steps: collect
// what the stage reads, computes and writes (and the tile shape); classify
// its tensors (tile, per-column, per-row) from the indexing maps of the
// generics that use them (KindClassifier); check that the reads and writes
// are of kinds the tiler can stream; and assign passes: a row reduction
// completes at the end of its pass, so everything computed from its result
// runs in a later pass over the row.
//
//===----------------------------------------------------------------------===//

#include "StreamPlan.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

static StringRef kindName(Kind kind) {
  switch (kind) {
  case Kind::Tile: return "a whole tile";
  case Kind::Col: return "one value per column";
  case Kind::Row: return "one value per row";
  case Kind::Unknown: break;
  }
  return "unknown";
}

/// Records the stage's reads, writes and generics in program order and the
/// tile shape (that of its widest read or write: the highest rank, then the
/// most elements, so a 1x128 row broadcast over a 16x128 tile does not set
/// the shape), refusing ops the tiler cannot stream.
static LogicalResult
collectStage(StageOp stage, StreamPlan &plan,
             SmallVectorImpl<linalg::GenericOp> &generics) {
  SmallVector<ShapedType> ends;
  for (Operation &op : stage.getBody().front()) {
    if (auto read = dyn_cast<ReadFromFifoOp>(op)) {
      plan.reads.push_back(read);
      ends.push_back(cast<ShapedType>(read.getType()));
    } else if (auto write = dyn_cast<WriteToFifoOp>(op)) {
      plan.writes.push_back(write);
      ends.push_back(cast<ShapedType>(write.getValue().getType()));
    } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      generics.push_back(generic);
      if (!generic.hasPureTensorSemantics())
        return generic.emitError("compute on buffers is not supported; "
                                 "expected tensors");
    } else if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      if (isa<RankedTensorType>(cst.getType()) &&
          !isa<SplatElementsAttr>(cst.getValue()))
        return op.emitError("tensor constants with different elements "
                            "cannot be streamed yet (only splats)");
    } else if (!isa<tensor::EmptyOp>(op)) {
      return op.emitError("'")
             << op.getName()
             << "' in a compute stage cannot be streamed yet (expected "
                "linalg.generic, tensor.empty or constants)";
    }
  }
  if (plan.writes.empty())
    return stage.emitError("compute stage writes nothing");
  int64_t widest = 0;
  for (ShapedType t : ends) {
    auto rank = static_cast<int64_t>(plan.tileShape.size());
    if (t.getRank() > rank ||
        (t.getRank() == rank && t.getNumElements() > widest)) {
      plan.tileShape = llvm::to_vector(t.getShape());
      widest = t.getNumElements();
    }
  }
  if (plan.tileShape.empty())
    return stage.emitError("compute stage moves only scalars");
  for (int64_t d : ArrayRef<int64_t>(plan.tileShape).drop_back())
    plan.rows *= d;
  plan.cols = plan.tileShape.back();
  return success();
}

namespace {
/// Gives every tensor of the stage its Kind and every generic its OpRole:
/// full-rank generics from their indexing maps, then lower-rank
/// element-wise generics from their neighbours, until nothing changes.
class KindClassifier {
public:
  KindClassifier(StreamPlan &plan, ArrayRef<linalg::GenericOp> generics)
      : plan(plan), generics(generics) {}

  LogicalResult run() {
    // A read of lower rank, or of full rank but narrower (a 1x128 row
    // broadcast over the rows), takes its kind from the generics' maps.
    for (ReadFromFifoOp read : plan.reads)
      if (cast<ShapedType>(read.getType()).getShape() ==
          ArrayRef<int64_t>(plan.tileShape))
        if (failed(setKind(read, read.getResult(), Kind::Tile)))
          return failure();
    // A splat constant written whole (the initial value of what a loop
    // carries in the scratchpad) is a tile of equal elements.
    for (WriteToFifoOp write : plan.writes)
      if (auto cst = write.getValue().getDefiningOp<arith::ConstantOp>();
          cst && isa<SplatElementsAttr>(cst.getValue()) &&
          cast<ShapedType>(cst.getType()).getRank() == rank())
        if (failed(setKind(write, write.getValue(), Kind::Tile)))
          return failure();
    for (linalg::GenericOp op : generics)
      if (op.getNumLoops() == static_cast<unsigned>(rank()) &&
          failed(classifyFull(op)))
        return failure();
    // Propagate through lower-rank element-wise ops until nothing changes.
    do {
      changed = false;
      for (linalg::GenericOp op : generics)
        if (op.getNumLoops() < static_cast<unsigned>(rank()) &&
            failed(classifyLow(op)))
          return failure();
    } while (changed);
    for (linalg::GenericOp op : generics) {
      if (op.getNumLoops() > static_cast<unsigned>(rank())) {
        std::string shape;
        llvm::raw_string_ostream os(shape);
        llvm::interleave(plan.tileShape, os, "x");
        return op.emitError("this op works on ")
               << op.getNumLoops() << " dimensions, more than the " << rank()
               << " of the largest tensor its stage loads or "
               << "stores (" << shape
               << "); raising the rank between a load and a compute op "
                  "(a tensor.expand_shape or linalg.broadcast adding a "
                  "dimension) is not supported by the scheduler yet";
      }
      if (!plan.roles.count(op))
        return op.emitError("cannot tell whether this op works on rows or "
                            "on columns of the tile");
    }
    // Roles in program order (full-rank ops were classified first): the
    // passes and the tiler walk them in this order, a row op before the
    // stream ops that read it.
    llvm::MapVector<linalg::GenericOp, OpRole> ordered;
    for (linalg::GenericOp op : generics)
      ordered.insert({op, plan.roles.lookup(op)});
    plan.roles = std::move(ordered);
    return success();
  }

private:
  int64_t rank() const { return plan.tileShape.size(); }

  ArrayRef<int64_t> shapeOf(Kind kind) {
    ArrayRef<int64_t> tile = plan.tileShape;
    switch (kind) {
    case Kind::Tile: return tile;
    case Kind::Col: return tile.take_back();
    case Kind::Row: return tile.drop_back();
    case Kind::Unknown: break;
    }
    return {};
  }

  /// Records `kind` for `v`, checking its shape and earlier conclusions.
  LogicalResult setKind(Operation *at, Value v, Kind kind) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return success(); // Scalars are broadcast wherever they are used.
    Kind &known = plan.kinds[v];
    if (known == kind)
      return success();
    if (known != Kind::Unknown)
      return at->emitError("a value is used both as ")
             << kindName(known) << " and as " << kindName(kind)
             << " of the tile; this is not supported yet";
    // A one-element tensor is a scalar: the same for every row. A column
    // value may keep unit leading dimensions (a 1x128 row of a 2-d view).
    if (!(kind == Kind::Row && type.getNumElements() == 1) &&
        type.getShape() != shapeOf(kind) &&
        !(kind == Kind::Col && isUnitPadded(type.getShape(), shapeOf(kind))))
      return at->emitError("a tensor of type ")
             << type << " cannot be " << kindName(kind) << " of a "
             << plan.tileShape.size() << "-d tile of "
             << RankedTensorType::get(plan.tileShape, type.getElementType());
    known = kind;
    changed = true;
    return success();
  }

  /// Whether `shape` is `inner` after unit dimensions.
  static bool isUnitPadded(ArrayRef<int64_t> shape, ArrayRef<int64_t> inner) {
    return shape.size() > inner.size() &&
           shape.take_back(inner.size()) == inner &&
           llvm::all_of(shape.drop_back(inner.size()),
                        [](int64_t d) { return d == 1; });
  }

  /// Whether `map` is the identity but for zeros on unit dimensions of the
  /// tile, which index the same elements.
  bool isIdentityOnTile(AffineMap map) {
    if (map.getNumResults() != rank())
      return false;
    for (auto [d, e] : llvm::enumerate(map.getResults())) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (e != getAffineDimExpr(d, map.getContext()) &&
          !(c && c.getValue() == 0 && plan.tileShape[d] == 1))
        return false;
    }
    return true;
  }

  /// The kind an indexing map of a full-rank generic gives its operand.
  std::optional<Kind> kindOfMap(AffineMap map) {
    // No results, or only constants (a one-element tensor): a scalar.
    if (llvm::all_of(map.getResults(),
                     [](AffineExpr e) { return isa<AffineConstantExpr>(e); }))
      return Kind::Row;
    if (map.isIdentity() || isIdentityOnTile(map))
      return Kind::Tile;
    // The last dimension, alone or after zeros (a unit reshape folded
    // into the map: a 1x128 row read as (d0, d1) -> (0, d1)).
    AffineExpr last = getAffineDimExpr(rank() - 1, map.getContext());
    if (rank() >= 2 && map.getNumResults() >= 1 &&
        map.getResults().back() == last &&
        llvm::all_of(map.getResults().drop_back(), [](AffineExpr e) {
          auto c = dyn_cast<AffineConstantExpr>(e);
          return c && c.getValue() == 0;
        }))
      return Kind::Col;
    if (rank() >= 2 &&
        map == AffineMap::getMultiDimIdentityMap(rank(), map.getContext())
                   .getMajorSubMap(rank() - 1))
      return Kind::Row;
    return std::nullopt;
  }

  LogicalResult classifyFull(linalg::GenericOp op) {
    if (isOneRowCopy(op))
      return classifyOneRow(op);
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    bool rowReduction = false, colReduction = false;
    for (auto [d, it] : llvm::enumerate(iters)) {
      if (it != utils::IteratorType::reduction)
        continue;
      (d + 1 == iters.size() ? rowReduction : colReduction) = true;
    }
    if (colReduction) {
      // Every leading dimension reduced, the columns kept.
      if (rowReduction || op.getNumReductionLoops() + 1 != iters.size())
        return op.emitError("reductions over both rows and columns of a "
                            "tile, or over only some of its rows, are not "
                            "supported yet");
      plan.columnMajor = true;
    }
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<Kind> kind =
          kindOfMap(op.getMatchingIndexingMap(&operand));
      if (!kind)
        return op.emitError("indexing map ")
               << AffineMapAttr::get(op.getMatchingIndexingMap(&operand))
               << " is not supported (expected the identity, a row or a "
                  "column broadcast)";
      bool isInit = op.isDpsInit(&operand);
      Kind resultKind = rowReduction   ? Kind::Row
                        : colReduction ? Kind::Col
                                       : Kind::Tile;
      if (isInit && *kind != resultKind)
        return op.emitError("result indexing map ")
               << AffineMapAttr::get(op.getMatchingIndexingMap(&operand))
               << " does not match the op's iterators";
      if (failed(setKind(op, operand.get(), *kind)))
        return failure();
      if (isInit &&
          failed(setKind(op, op.getTiedOpResult(&operand), *kind)))
        return failure();
    }
    plan.roles[op] = rowReduction   ? OpRole::RowReduction
                     : colReduction ? OpRole::ColReduction
                                    : OpRole::Stream;
    return success();
  }

  /// Whether `op` is element-wise over unit leading loops and the tile's
  /// columns while the tile has several rows: an op on one value per column
  /// that keeps unit leading dimensions (a column reduction's result
  /// expanded back to 1x128 before it is stored).
  bool isOneRowCopy(linalg::GenericOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    return plan.rows > 1 && op.getNumReductionLoops() == 0 &&
           ranges.back() == plan.cols &&
           llvm::all_of(ArrayRef<int64_t>(ranges).drop_back(),
                        [](int64_t d) { return d == 1; });
  }

  /// Classifies a one-row copy: its identity (or column) maps read and
  /// write column values, its constant maps scalars.
  LogicalResult classifyOneRow(linalg::GenericOp op) {
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      std::optional<Kind> kind = kindOfMap(map);
      if (map.isIdentity())
        kind = Kind::Col;
      // A map of the rows would take the first row's value only.
      bool perRow = kind == Kind::Row && !map.isConstant();
      if (!kind || *kind == Kind::Tile || perRow)
        return op.emitError("indexing map ")
               << AffineMapAttr::get(map)
               << " is not supported in an element-wise op on one row of "
                  "per-column values";
      if (failed(setKind(op, operand.get(), *kind)) ||
          (op.isDpsInit(&operand) &&
           failed(setKind(op, op.getTiedOpResult(&operand), *kind))))
        return failure();
    }
    plan.roles[op] = OpRole::Stream;
    return success();
  }

  /// A generic over fewer loops than the tile has dimensions: element-wise
  /// over per-row or per-column values, told apart by their neighbours.
  LogicalResult classifyLow(linalg::GenericOp op) {
    if (op.getNumReductionLoops() != 0)
      return op.emitError("reductions of per-row or per-column values are "
                          "not supported yet");
    Kind kind = Kind::Unknown;
    int64_t n = op.getNumLoops();
    if (n == 0 || (n + 1 == rank() && rank() > 2))
      kind = Kind::Row;
    else if (n == 1 && rank() > 2)
      kind = Kind::Col;
    else if (!(n == 1 && rank() == 2))
      return op.emitError("an op over ")
             << n << " loops does not fit a tile of rank " << rank();
    SmallVector<Value> mapped;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (map.getNumResults() == 0) {
        // The row value of a one-row tile spread over a one-element
        // tensor (a row's mean splat into the tensor<1xf16> stored per
        // row): still the row's value.
        if (n == 1 && rank() == 2 && plan.rows == 1 &&
            plan.getKind(operand.get()) == Kind::Row &&
            op.getStaticLoopRanges()[0] == 1)
          kind = Kind::Row;
        continue;
      }
      // The element of a one-element tensor (a row's reduction, through
      // folded unit reshapes) read by a rank-0 op: a row value.
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (n == 0 && type && type.hasStaticShape() &&
          type.getNumElements() == 1 && op.isDpsInput(&operand)) {
        if (failed(setKind(op, operand.get(), Kind::Row)))
          return failure();
        continue;
      }
      if (!map.isIdentity())
        return op.emitError("indexing map ")
               << AffineMapAttr::get(map) << " is not supported in an element-wise op on "
               << "per-row or per-column values";
      mapped.push_back(operand.get());
      if (op.isDpsInit(&operand))
        mapped.push_back(op.getTiedOpResult(&operand));
    }
    // An op on rank-0 tensors computes a row value, even when nothing
    // else in the stage reads it (a row's mean only stored per row).
    if (n == 0)
      for (Value result : op->getResults())
        mapped.push_back(result);
    for (Value v : mapped)
      if (Kind k = plan.getKind(v); k != Kind::Unknown)
        kind = k;
    if (kind == Kind::Unknown)
      return success(); // Decided by a later round.
    for (Value v : mapped)
      if (failed(setKind(op, v, kind)))
        return failure();
    if (kind == Kind::Tile)
      return op.emitError("element-wise op of lower rank than the tile");
    plan.roles[op] = kind == Kind::Row ? OpRole::RowOp : OpRole::Stream;
    return success();
  }

  StreamPlan &plan;
  ArrayRef<linalg::GenericOp> generics;
  bool changed = false;
};
} // namespace

/// Checks that the stage reads and writes only what the tiler streams: a
/// read of one value per row only from a 2-d tile, writes of whole tiles or
/// rows (columns when the stage reduces columns), and no values per row
/// next to a column reduction.
static LogicalResult checkStreamable(const StreamPlan &plan) {
  for (ReadFromFifoOp read : plan.reads) {
    Kind k = plan.getKind(read.getResult());
    if (k == Kind::Unknown)
      return read.emitError("the tile read here is never used");
    // A one-element tile (a row's element, x[r, 0], loaded alone) is a
    // scalar whatever its rank.
    auto type = cast<ShapedType>(read.getType());
    if (k == Kind::Row && type.getRank() > 1 && type.getNumElements() != 1)
      return read.emitError("reading one value per row of a tile with more "
                            "than two dimensions is not supported yet");
  }
  for (WriteToFifoOp write : plan.writes) {
    Kind k = plan.getKind(write.getValue());
    // Typically a constant or a fill: no loaded tile tells the value's
    // kind, so there is nothing to stream it over.
    if (k == Kind::Unknown)
      return write.emitError("cannot tell how the stored value varies "
                             "over the tile (it is computed from no "
                             "loaded tile, e.g. a constant or a fill); "
                             "this is not supported yet");
    if ((k == Kind::Col && !plan.columnMajor) ||
        (k == Kind::Row && plan.columnMajor))
      return write.emitError("writing ")
             << kindName(k) << " of the tile is not supported yet";
  }
  if (plan.columnMajor)
    for (auto [op, role] : plan.roles)
      for (Value result : op->getResults())
        if (plan.getKind(result) == Kind::Row &&
            cast<ShapedType>(result.getType()).getRank() != 0)
          return op.emitError("values per row next to a column reduction "
                              "are not supported yet");
  return success();
}

/// The pass after which `v` is known (0 for what the stage reads).
static int passOfOperand(const StreamPlan &plan, Value v) {
  auto it = plan.pass.find(v);
  return it == plan.pass.end() ? 0 : it->second;
}

/// Places every generic in a pass over the row: after the passes that
/// finish the row reductions it reads; a column-major stage makes one pass.
static LogicalResult assignPasses(StreamPlan &plan) {
  for (ReadFromFifoOp read : plan.reads)
    plan.pass[read.getResult()] = 0;
  for (auto [op, role] : plan.roles) {
    int p = 0;
    for (Value v : op->getOperands())
      p = std::max(p, passOfOperand(plan, v));
    if (role == OpRole::ColReduction && p != 0)
      return op.emitError("a column reduction of values that need an "
                          "earlier reduction is not supported yet");
    for (Value v : op->getResults())
      plan.pass[v] = role == OpRole::RowReduction ? p + 1 : p;
    if (role == OpRole::RowReduction)
      plan.numPasses = std::max(plan.numPasses, p + 1);
  }
  if (plan.columnMajor) {
    // One pass down the rows; what the column reductions produce is
    // computed after it and must not flow back into the rows.
    for (auto [op, role] : plan.roles)
      if (role == OpRole::ColReduction)
        for (Operation *user : op->getUsers())
          if (auto g = dyn_cast<linalg::GenericOp>(user);
              g && plan.getKind(g->getResult(0)) == Kind::Tile)
            return user->emitError("using a column reduction's result for "
                                   "the whole tile is not supported yet");
    plan.numPasses = 1;
    return success();
  }
  for (WriteToFifoOp write : plan.writes)
    if (plan.isStreamed(write.getValue()))
      plan.numPasses =
          std::max(plan.numPasses, passOfOperand(plan, write.getValue()) + 1);
  return success();
}

FailureOr<StreamPlan> StreamPlan::build(StageOp compute) {
  StreamPlan plan;
  SmallVector<linalg::GenericOp> generics;
  if (failed(collectStage(compute, plan, generics)) ||
      failed(KindClassifier(plan, generics).run()) ||
      failed(checkStreamable(plan)) || failed(assignPasses(plan)))
    return failure();
  return plan;
}
