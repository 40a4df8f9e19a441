//===- LiftSlices.cpp - Tensor slices as transfers of sub-tiles -----------===//
//
// This file implements --ktdf-lift-slices. Kernels slice the blocks they
// load (RoPE's two halves of a row, the first rows of a block, one head's
// columns) and build their outputs from pieces (tensor.insert_slice into a
// tensor.empty, tensor.concat) stored at once. The scheduler moves tiles
// between memory and compute units and has no operation that cuts or
// glues tensors, but a window of a loaded box tile is itself a box tile of
// the same view, and a tensor built from pieces is stored by storing each
// piece where it lands. So, with constant sizes and unit strides:
//
//  * a tensor.extract_slice of a ktdp.load through a box access tile (from
//    its anchor, any order) becomes a load of the sub-tile at the slice's
//    offset (one known at run time, such as a loop's head offset, becomes
//    an index of the sub-tile's anchor, loaded where the slice was);
//    through element-wise arithmetic on such loads (and splat constants)
//    each operand is sliced and the arithmetic is redone on the slice only;
//    a tensor.extract of one element of such a load is the extract of its
//    one-element window;
//  * a ktdp.store of a tensor built by tensor.insert_slice (into a
//    tensor.empty) and tensor.concat at constant offsets becomes one store
//    per piece, each through the sub-tile where the piece lands, when the
//    pieces cover the tensor exactly once.
//
// The sub-tile names the same coordinates of the view as the window of the
// tile did, so masking (a coordinate outside the view's set loads 0 and is
// not stored) is unchanged. What the pass leaves, ktdf-check-supported
// refuses at the op with whyNotLiftedSlice's reason.
//
//===----------------------------------------------------------------------===//

#include "LiftSlices.h"
#include "OutputSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFLIFTSLICES
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

using Reason = std::optional<std::string>;

//===----------------------------------------------------------------------===//
// Box tiles and their sub-tiles
//===----------------------------------------------------------------------===//

/// Why `tile` is not a box from its anchor that a window can be cut from:
/// a ktdp.construct_access_tile without symbols whose set is a box from
/// the anchor, whose order is a permutation and whose type is that box.
static Reason whyNotBoxTile(Value tile) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!op)
    return std::string("is not built by ktdp.construct_access_tile");
  if (!op.getSymbolOperands().empty())
    return std::string("has a set with symbols (a run-time extent)");
  IntegerSet set = op.getAccessTileSet();
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, {});
  if (!ktdp::isBoxShaped(set) || failed(box) ||
      !llvm::all_of(box->lower, [](int64_t l) { return l == 0; }))
    return std::string("has a set that is not a box from its anchor");
  AffineMap order = op.getAccessTileOrder();
  if (!order.isPermutation())
    return std::string("has an order that is not a permutation");
  SmallVector<int64_t> extents = box->getExtents();
  ArrayRef<int64_t> shape = op.getType().getShape();
  for (auto [k, result] : llvm::enumerate(order.getResults()))
    if (shape[k] != extents[cast<AffineDimExpr>(result).getPosition()])
      return std::string("has a type larger than its set");
  return std::nullopt;
}

/// The box sub-tile of the box tile `tile` (whyNotBoxTile holds) that
/// covers the window at `offsets` of `sizes`, both along the dimensions of
/// the tensors it transfers (the tile's order permutes them into the
/// view's). An offset known only at run time becomes an index of the
/// anchor.
static Value buildSubTile(OpBuilder &b, Value tile,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<int64_t> sizes) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  MLIRContext *ctx = b.getContext();
  AffineMap base = op.getBaseMap();
  SmallVector<AffineExpr> anchor(base.getResults());
  SmallVector<Value> indices(op.getIndices());
  SmallVector<int64_t> extents(sizes.size());
  for (auto [k, result] :
       llvm::enumerate(op.getAccessTileOrder().getResults())) {
    unsigned d = cast<AffineDimExpr>(result).getPosition();
    if (auto offset = dyn_cast<Value>(offsets[k])) {
      anchor[d] = anchor[d] + getAffineDimExpr(indices.size(), ctx);
      indices.push_back(offset);
    } else {
      anchor[d] = anchor[d] + *getConstantIntValue(offsets[k]);
    }
    extents[d] = sizes[k];
  }
  auto shifted =
      AffineMap::get(indices.size(), base.getNumSymbols(), anchor, ctx);
  return ktdp::ConstructAccessTileOp::create(
      b, op.getLoc(), ktdp::AccessTileType::get(ctx, sizes), op.getBase(),
      indices, op.getSymbolOperands(), AffineMapAttr::get(shifted),
      IntegerSetAttr::get(ktdp::getBoxSet(extents, ctx)),
      op.getAccessTileOrderAttr());
}

/// Why the window of `op` (a slice, insert or extract) is not static with
/// unit strides (`dynamicOffsets`: offsets known at run time only allowed).
static Reason whyNotStaticWindow(OffsetSizeAndStrideOpInterface op,
                                 bool dynamicOffsets = false) {
  if (!dynamicOffsets && ShapedType::isDynamicShape(op.getStaticOffsets()))
    return std::string("its offsets are not constants");
  if (ShapedType::isDynamicShape(op.getStaticSizes()))
    return std::string("its sizes are not constants");
  if (llvm::is_contained(op.getStaticSizes(), 0))
    return std::string("it is empty");
  if (!llvm::all_of(op.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return std::string("its strides are not all 1");
  return std::nullopt;
}

/// Erases `op`, a side-effect-free op or a load whose result is no longer
/// used (the whole tensor a window was cut from, the pieces a stored
/// tensor was built from), and then the ops it read that become unused.
static void eraseUnused(Operation *op) {
  if (!op || !op->use_empty() || !(isa<ktdp::LoadOp>(op) || isPure(op)))
    return;
  llvm::SetVector<Operation *> inputs;
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp())
      inputs.insert(def);
  op->erase();
  for (Operation *input : inputs)
    eraseUnused(input);
}

//===----------------------------------------------------------------------===//
// tensor.extract_slice
//===----------------------------------------------------------------------===//

/// A splat (tensor.splat or an arith.constant splat): any window of it is
/// the same splat, smaller.
static bool isSplat(Value value) {
  if (auto splat = value.getDefiningOp<tensor::SplatOp>())
    return splat.getType().hasStaticShape();
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto dense = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                        : SplatElementsAttr();
  return static_cast<bool>(dense);
}

/// Why a window of `value` is not computed as the same window of loads:
/// `value` must be a load through a box tile, a splat, or element-wise
/// arithmetic on such values.
static Reason whyNotSliceable(Value value, DenseMap<Value, Reason> &known) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  Reason why;
  Operation *def = value.getDefiningOp();
  if (auto load = dyn_cast_or_null<ktdp::LoadOp>(def)) {
    if (Reason tile = whyNotBoxTile(load.getAccessTile()))
      why = "its source is a ktdp.load whose access tile " + *tile;
  } else if (def && isElementwiseOnTensors(def)) {
    for (Value operand : def->getOperands())
      if ((why = whyNotSliceable(operand, known)))
        break;
  } else if (!isSplat(value)) {
    why = "its source is " +
          (def ? "computed by " + def->getName().getStringRef().str()
               : std::string("a block argument")) +
          ", not loaded: only a window of a ktdp.load (or of element-wise "
          "arithmetic on loads) becomes a load of the window";
  }
  known[value] = why;
  return why;
}

bool ktdf::isSliceable(Value value) {
  DenseMap<Value, Reason> known;
  return !whyNotSliceable(value, known);
}

static Reason whyNotLiftedExtract(tensor::ExtractSliceOp slice) {
  if (Reason why = whyNotStaticWindow(slice, /*dynamicOffsets=*/true))
    return why;
  RankedTensorType window = RankedTensorType::get(
      slice.getStaticSizes(), slice.getType().getElementType());
  if (window != slice.getType() &&
      !getReassociationIndicesForReshape(window, slice.getType()))
    return std::string("it drops dimensions that are not of extent 1");
  DenseMap<Value, Reason> known;
  return whyNotSliceable(slice.getSource(), known);
}

/// The window at `offsets` of `sizes` of `value` (whyNotSliceable holds):
/// a load of the sub-tile, a smaller splat, or the element-wise op redone
/// on the windows of its operands. Computed next to `value` (outside the
/// loops around the slice) when the offsets are constants, at `b`'s
/// insertion point (the slice, where its offsets are defined) otherwise.
static Value sliceOf(OpBuilder &b, Value value, ArrayRef<OpFoldResult> offsets,
                     ArrayRef<int64_t> sizes, DenseMap<Value, Value> &done) {
  if (Value known = done.lookup(value))
    return known;
  auto type = RankedTensorType::get(
      sizes, cast<RankedTensorType>(value.getType()).getElementType());
  Operation *def = value.getDefiningOp();
  OpBuilder::InsertionGuard guard(b);
  if (llvm::all_of(offsets, [](OpFoldResult o) { return isa<Attribute>(o); }))
    b.setInsertionPointAfter(def);
  Value result;
  if (auto load = dyn_cast<ktdp::LoadOp>(def)) {
    Value tile = buildSubTile(b, load.getAccessTile(), offsets, sizes);
    auto sliced = ktdp::LoadOp::create(b, load.getLoc(), type, tile);
    sliced->setDiscardableAttrs(load->getDiscardableAttrDictionary());
    result = sliced;
  } else if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto splat = cast<SplatElementsAttr>(constant.getValue());
    result = arith::ConstantOp::create(
        b, constant.getLoc(), type,
        SplatElementsAttr::get(type, splat.getSplatValue<Attribute>()));
  } else {
    // tensor.splat and element-wise ops: the same op on smaller tensors.
    IRMapping operands;
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        operands.map(operand, sliceOf(b, operand, offsets, sizes, done));
    Operation *sliced = b.clone(*def, operands);
    sliced->getResult(0).setType(type);
    result = sliced->getResult(0);
  }
  done[value] = result;
  return result;
}

static void liftExtract(tensor::ExtractSliceOp slice) {
  OpBuilder b(slice);
  DenseMap<Value, Value> done;
  Value window = sliceOf(b, slice.getSource(), slice.getMixedOffsets(),
                         slice.getStaticSizes(), done);
  if (window.getType() != slice.getType())
    window = tensor::CollapseShapeOp::create(
        b, slice.getLoc(), slice.getType(), window,
        *getReassociationIndicesForReshape(cast<ShapedType>(window.getType()),
                                           slice.getType()));
  Value source = slice.getSource();
  slice.replaceAllUsesWith(window);
  slice.erase();
  eraseUnused(source.getDefiningOp());
}

//===----------------------------------------------------------------------===//
// Stores of tensors built from pieces
//===----------------------------------------------------------------------===//

namespace {
/// A tensor stored where it lands in the stored tensor.
struct Piece {
  Value value;
  SmallVector<int64_t> offsets;
};
} // namespace

static bool isAssembly(Operation *op) {
  return isa_and_nonnull<tensor::InsertSliceOp, tensor::ConcatOp>(op);
}

/// Collects the pieces `value` is built from, placed at `offsets`: the
/// sources of tensor.insert_slice (into a tensor.empty or another such
/// tensor) and the operands of tensor.concat, recursively; any other value
/// is one piece.
static Reason collectPieces(Value value, ArrayRef<int64_t> offsets,
                            SmallVectorImpl<Piece> &pieces) {
  if (!cast<RankedTensorType>(value.getType()).hasStaticShape())
    return std::string("a tensor of dynamic shape");
  Operation *def = value.getDefiningOp();
  auto shifted = [&](ArrayRef<int64_t> by) {
    SmallVector<int64_t> at(offsets);
    for (auto [o, d] : llvm::zip(at, by))
      o += d;
    return at;
  };
  if (auto insert = dyn_cast_or_null<tensor::InsertSliceOp>(def)) {
    if (Reason why = whyNotStaticWindow(insert))
      return "a tensor.insert_slice (" + *why + ")";
    if (insert.getSourceType().getRank() != insert.getType().getRank())
      return std::string("a tensor.insert_slice that adds dimensions to "
                         "its source (insert a tensor of the destination's "
                         "rank)");
    Value dest = insert.getDest();
    if (!dest.getDefiningOp<tensor::EmptyOp>()) {
      if (!isAssembly(dest.getDefiningOp()))
        return std::string("a tensor.insert_slice into a tensor that is "
                           "neither a tensor.empty nor built from pieces "
                           "(its other elements would be stored over by "
                           "the pieces)");
      if (Reason why = collectPieces(dest, offsets, pieces))
        return why;
    }
    return collectPieces(insert.getSource(), shifted(insert.getStaticOffsets()),
                         pieces);
  }
  if (auto concat = dyn_cast_or_null<tensor::ConcatOp>(def)) {
    SmallVector<int64_t> step(offsets.size(), 0);
    for (Value input : concat.getInputs()) {
      if (Reason why = collectPieces(input, shifted(step), pieces))
        return why;
      step[concat.getDim()] +=
          cast<RankedTensorType>(input.getType()).getDimSize(concat.getDim());
    }
    return std::nullopt;
  }
  pieces.push_back({value, SmallVector<int64_t>(offsets)});
  return std::nullopt;
}

/// Whether the pieces cover `shape` exactly once: none overlaps another
/// and their sizes add up to the whole.
static bool coverExactlyOnce(ArrayRef<Piece> pieces, ArrayRef<int64_t> shape) {
  auto sizeOf = [](const Piece &p) {
    return cast<RankedTensorType>(p.value.getType()).getShape();
  };
  int64_t covered = 0;
  for (auto [i, p] : llvm::enumerate(pieces)) {
    covered += ShapedType::getNumElements(sizeOf(p));
    for (const Piece &q : pieces.drop_front(i + 1)) {
      bool apart = false;
      for (size_t d = 0; d < shape.size(); ++d)
        apart |= p.offsets[d] + sizeOf(p)[d] <= q.offsets[d] ||
                 q.offsets[d] + sizeOf(q)[d] <= p.offsets[d];
      if (!apart)
        return false;
    }
  }
  return covered == ShapedType::getNumElements(shape);
}

/// Why the store of a tensor built from pieces is not split into a store
/// per piece; fills `pieces` when it is.
static Reason whyNotSplitStore(ktdp::StoreOp store,
                               SmallVectorImpl<Piece> &pieces) {
  if (Reason why = whyNotBoxTile(store.getAccessTile()))
    return "it is stored through an access tile that " + *why;
  auto type = cast<RankedTensorType>(store.getDataTile().getType());
  if (Reason why = collectPieces(
          store.getDataTile(), SmallVector<int64_t>(type.getRank(), 0), pieces))
    return "it is built from " + *why;
  if (!coverExactlyOnce(pieces, type.getShape()))
    return std::string("its pieces overlap or leave elements of the "
                       "tensor.empty unwritten (which would be stored "
                       "undefined)");
  return std::nullopt;
}

static void splitStore(ktdp::StoreOp store, ArrayRef<Piece> pieces) {
  OpBuilder b(store);
  for (const Piece &piece : pieces) {
    auto shape = cast<RankedTensorType>(piece.value.getType()).getShape();
    Value tile = buildSubTile(
        b, store.getAccessTile(),
        getAsIndexOpFoldResult(b.getContext(), piece.offsets), shape);
    auto part = ktdp::StoreOp::create(b, store.getLoc(), piece.value, tile);
    part->setDiscardableAttrs(store->getDiscardableAttrDictionary());
  }
  Operation *whole = store.getAccessTile().getDefiningOp();
  store.erase();
  eraseUnused(whole);
}

static Reason whyNotLiftedAssembly(Operation *op) {
  // Follow the tensor to where it is used whole: the store that lifts it.
  for (Value value = op->getResult(0);;
       value = (*value.user_begin())->getResult(0)) {
    if (!value.hasOneUse())
      return op->getName().getStringRef().str() +
             " is compiled only as the stores of its pieces: its result "
             "must be used once, by a ktdp.store or as a piece of another "
             "tensor.insert_slice or tensor.concat";
    Operation *user = *value.user_begin();
    if (auto store = dyn_cast<ktdp::StoreOp>(user)) {
      SmallVector<Piece> pieces;
      if (Reason why = whyNotSplitStore(store, pieces))
        return "the tensor built by " + op->getName().getStringRef().str() +
               " is not stored piece by piece: " + *why;
      return std::nullopt;
    }
    if (!isAssembly(user))
      return op->getName().getStringRef().str() +
             " is compiled only as the stores of its pieces: its result "
             "is used by " +
             user->getName().getStringRef().str() + ", not stored";
  }
}

std::optional<std::string> ktdf::whyNotLiftedSlice(Operation *op) {
  std::optional<std::string> why;
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    why = whyNotLiftedExtract(slice);
  else if (isAssembly(op))
    return whyNotLiftedAssembly(op);
  if (!why)
    return std::nullopt;
  return op->getName().getStringRef().str() +
         " is compiled only as a load of the window (constant sizes and "
         "unit strides, of a ktdp.load through a box access tile or of "
         "element-wise arithmetic on such loads): " +
         *why;
}

/// A tensor.extract of one element of a larger tensor (a row's first
/// element, `x[r, 0]`) as the extract of a one-element window of it, when
/// that window is lifted to a load: the element is then a row scalar
/// (ScalarIdioms.h). Leaves `extract` alone otherwise.
bool ktdf::isElementOfLargerTensor(Operation *op) {
  auto extract = dyn_cast<tensor::ExtractOp>(op);
  if (!extract)
    return false;
  auto type = cast<RankedTensorType>(extract.getTensor().getType());
  return type.hasStaticShape() && type.getNumElements() != 1 &&
         !extract->getParentOfType<linalg::LinalgOp>();
}

static void extractThroughWindow(tensor::ExtractOp extract) {
  if (!isElementOfLargerTensor(extract))
    return;
  auto type = cast<RankedTensorType>(extract.getTensor().getType());
  OpBuilder b(extract);
  Location loc = extract.getLoc();
  SmallVector<OpFoldResult> offsets = getAsOpFoldResult(extract.getIndices());
  SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
  auto window = tensor::ExtractSliceOp::create(
      b, loc,
      RankedTensorType::get(SmallVector<int64_t>(type.getRank(), 1),
                            type.getElementType()),
      extract.getTensor(), offsets, ones, ones);
  if (whyNotLiftedExtract(window)) {
    window.erase();
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  extract.getTensorMutable().assign(window);
  extract.getIndicesMutable().assign(SmallVector<Value>(type.getRank(), zero));
  liftExtract(window);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct KTDFLiftSlicesPass
    : public ktdf::impl::KTDFLiftSlicesBase<KTDFLiftSlicesPass> {
  void runOnOperation() override {
    SmallVector<tensor::ExtractOp> elements;
    getOperation().walk(
        [&](tensor::ExtractOp extract) { elements.push_back(extract); });
    for (tensor::ExtractOp extract : elements)
      extractThroughWindow(extract);

    // Windows first, in order, so a slice of a slice finds a load.
    SmallVector<tensor::ExtractSliceOp> slices;
    getOperation().walk(
        [&](tensor::ExtractSliceOp slice) { slices.push_back(slice); });
    for (tensor::ExtractSliceOp slice : slices)
      if (!whyNotLiftedExtract(slice))
        liftExtract(slice);

    SmallVector<std::pair<ktdp::StoreOp, SmallVector<Piece>>> splits;
    getOperation().walk([&](ktdp::StoreOp store) {
      SmallVector<Piece> pieces;
      if (isAssembly(store.getDataTile().getDefiningOp()) &&
          !whyNotSplitStore(store, pieces))
        splits.push_back({store, std::move(pieces)});
    });
    for (auto &[store, pieces] : splits) {
      Operation *assembly = store.getDataTile().getDefiningOp();
      splitStore(store, pieces);
      eraseUnused(assembly);
    }
  }
};
} // namespace
