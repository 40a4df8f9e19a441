//===- TensorOps.cpp - tensor dialect ops ---------------------------------===//
//
// This file implements the tensor ops KTIR kernels use on whole tensors:
// creation (empty, splat, from_elements, and generate and pad, which run a
// region per element), element access (extract, insert), reshaping
// (expand_shape, collapse_shape, reshape, cast) and dim, plus the
// spyreop.slice_reduction tensor intrinsic. tensor.empty is zero-filled.
// Strided windows (extract_slice, insert_slice, concat) are in
// TensorSlices.cpp.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace ktflow::interp;

LogicalResult ktflow::interp::setTensor(TileExecutor &exec, Value result,
                                        Tensor t) {
  exec.set(result, TensorRef(std::make_shared<Tensor>(std::move(t))));
  return success();
}

/// A zero-filled tensor of the op's result type, or the error for a type the
/// interpreter cannot hold.
static FailureOr<Tensor> makeResultTensor(TileExecutor &exec, Operation *op,
                                          Type type,
                                          ArrayRef<int64_t> dynamicSizes) {
  FailureOr<Tensor> t = makeTensorOfType(type, dynamicSizes);
  if (failed(t))
    return exec.error(op) << "cannot create a tensor of type " << type
                          << " (unsupported element type, negative size or "
                             "more than 2^28 elements)";
  return t;
}

/// Stores `s` unconverted: the verifier already matched its type.
static void setElement(Tensor &t, int64_t flat, const Scalar &s) {
  if (isFloat(t.dtype))
    t.floats[flat] = s.f;
  else
    t.ints[flat] = s.i;
}

static LogicalResult runEmpty(TileExecutor &exec, Operation *op) {
  auto empty = cast<tensor::EmptyOp>(op);
  FailureOr<SmallVector<int64_t, 4>> dyn =
      exec.getIndices(op, empty.getDynamicSizes());
  if (failed(dyn))
    return failure();
  FailureOr<Tensor> t = makeResultTensor(exec, op, empty.getType(), *dyn);
  if (failed(t))
    return failure();
  return setTensor(exec, empty, std::move(*t));
}

static LogicalResult runSplat(TileExecutor &exec, Operation *op) {
  auto splat = cast<tensor::SplatOp>(op);
  FailureOr<Scalar> value = exec.getScalar(op, splat.getInput());
  FailureOr<SmallVector<int64_t, 4>> dyn =
      exec.getIndices(op, splat.getDynamicSizes());
  if (failed(value) || failed(dyn))
    return failure();
  FailureOr<Tensor> t = makeResultTensor(exec, op, splat.getType(), *dyn);
  if (failed(t))
    return failure();
  if (isFloat(t->dtype))
    std::fill(t->floats.begin(), t->floats.end(), value->f);
  else
    std::fill(t->ints.begin(), t->ints.end(), value->i);
  return setTensor(exec, splat, std::move(*t));
}

/// Flat index of `indices` in `shape`, or an error naming the index.
static FailureOr<int64_t> flatIndex(TileExecutor &exec, Operation *op,
                                    ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> indices) {
  int64_t flat = 0;
  for (auto [d, i] : llvm::enumerate(indices)) {
    if (i < 0 || i >= shape[d])
      return exec.error(op) << "index " << formatCoords(indices)
                            << " is out of bounds for a tensor of shape "
                            << formatShape(shape);
    flat = flat * shape[d] + i;
  }
  return flat;
}

static LogicalResult runExtract(TileExecutor &exec, Operation *op) {
  auto extract = cast<tensor::ExtractOp>(op);
  FailureOr<TensorRef> t = exec.getTensor(op, extract.getTensor());
  FailureOr<SmallVector<int64_t, 4>> idx =
      exec.getIndices(op, extract.getIndices());
  if (failed(t) || failed(idx))
    return failure();
  FailureOr<int64_t> flat = flatIndex(exec, op, (*t)->shape, *idx);
  if (failed(flat))
    return failure();
  Scalar s;
  s.dtype = (*t)->dtype;
  if (isFloat(s.dtype))
    s.f = (*t)->floats[*flat];
  else
    s.i = (*t)->ints[*flat];
  exec.set(extract, s);
  return success();
}

static LogicalResult runInsert(TileExecutor &exec, Operation *op) {
  auto insert = cast<tensor::InsertOp>(op);
  FailureOr<TensorRef> t = exec.getTensor(op, insert.getDest());
  FailureOr<Scalar> value = exec.getScalar(op, insert.getScalar());
  FailureOr<SmallVector<int64_t, 4>> idx =
      exec.getIndices(op, insert.getIndices());
  if (failed(t) || failed(value) || failed(idx))
    return failure();
  FailureOr<int64_t> flat = flatIndex(exec, op, (*t)->shape, *idx);
  if (failed(flat))
    return failure();
  Tensor copy = **t;
  setElement(copy, *flat, *value);
  return setTensor(exec, insert, std::move(copy));
}

/// A reshape: same elements, new shape (checked to have as many elements).
static LogicalResult reshapeTo(TileExecutor &exec, Operation *op, Value source,
                               ArrayRef<int64_t> shape) {
  FailureOr<TensorRef> src = exec.getTensor(op, source);
  if (failed(src))
    return failure();
  if (productOf(shape) != (*src)->numElements())
    return exec.error(op) << "type mismatch: cannot reshape "
                          << formatShape((*src)->shape) << " to "
                          << formatShape(shape);
  Tensor out = **src;
  out.shape.assign(shape.begin(), shape.end());
  return setTensor(exec, op->getResult(0), std::move(out));
}

static LogicalResult runExpandShape(TileExecutor &exec, Operation *op) {
  auto expand = cast<tensor::ExpandShapeOp>(op);
  FailureOr<SmallVector<int64_t, 4>> shape =
      evaluateMixed(exec, op, expand.getMixedOutputShape());
  if (failed(shape))
    return failure();
  return reshapeTo(exec, op, expand.getSrc(), *shape);
}

static LogicalResult runCollapseShape(TileExecutor &exec, Operation *op) {
  auto collapse = cast<tensor::CollapseShapeOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, collapse.getSrc());
  if (failed(src))
    return failure();
  SmallVector<int64_t, 4> shape;
  for (const ReassociationIndices &group :
       collapse.getReassociationIndices()) {
    int64_t size = 1;
    for (int64_t d : group)
      size *= d < (*src)->rank() ? (*src)->shape[d] : 1;
    shape.push_back(size);
  }
  return reshapeTo(exec, op, collapse.getSrc(), shape);
}

static LogicalResult runReshape(TileExecutor &exec, Operation *op) {
  auto reshape = cast<tensor::ReshapeOp>(op);
  FailureOr<TensorRef> shapeTensor = exec.getTensor(op, reshape.getShape());
  if (failed(shapeTensor))
    return failure();
  SmallVector<int64_t, 4> shape;
  for (int64_t i = 0; i < (*shapeTensor)->numElements(); ++i)
    shape.push_back((*shapeTensor)->getInt(i));
  return reshapeTo(exec, op, reshape.getSource(), shape);
}

static LogicalResult runCast(TileExecutor &exec, Operation *op) {
  auto cast = llvm::cast<tensor::CastOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, cast.getSource());
  if (failed(src))
    return failure();
  auto type = dyn_cast<RankedTensorType>(cast.getType());
  if (type)
    for (auto [d, size] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(size) && size != (*src)->shape[d])
        return exec.error(op) << "type mismatch: tensor of shape "
                              << formatShape((*src)->shape)
                              << " cast to " << type;
  exec.set(cast, *src);
  return success();
}

static LogicalResult runDim(TileExecutor &exec, Operation *op) {
  auto dim = cast<tensor::DimOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, dim.getSource());
  FailureOr<int64_t> index = exec.getIndex(op, dim.getIndex());
  if (failed(src) || failed(index))
    return failure();
  if (*index < 0 || *index >= (*src)->rank())
    return exec.error(op) << "dimension " << *index << " out of range";
  exec.set(dim, Scalar::ofInt((*src)->shape[*index], DType::Index));
  return success();
}

static LogicalResult runFromElements(TileExecutor &exec, Operation *op) {
  auto from = cast<tensor::FromElementsOp>(op);
  FailureOr<Tensor> t = makeResultTensor(exec, op, from.getType(), {});
  if (failed(t))
    return failure();
  for (auto [i, element] : llvm::enumerate(from.getElements())) {
    FailureOr<Scalar> s = exec.getScalar(op, element);
    if (failed(s))
      return failure();
    setElement(*t, i, *s);
  }
  return setTensor(exec, from, std::move(*t));
}

/// Runs a region whose block arguments are the indices of one element and
/// which yields that element's value (tensor.generate, tensor.pad).
static FailureOr<Scalar> runElementRegion(TileExecutor &exec, Operation *op,
                                          Block &body,
                                          ArrayRef<int64_t> index) {
  SmallVector<RValue> args, yielded;
  for (int64_t i : index)
    args.push_back(Scalar::ofInt(i, DType::Index));
  if (failed(exec.runBlock(body, args, yielded)))
    return failure();
  if (yielded.size() != 1 || !yielded.front().isScalar())
    return exec.error(op) << "region must yield one scalar";
  return yielded.front().scalar();
}

static void storeScalar(Tensor &t, int64_t flat, const Scalar &s) {
  if (isFloat(t.dtype))
    t.floats[flat] = roundToDType(s.toDouble(), t.dtype);
  else
    t.ints[flat] = wrapInt(s.i, t.dtype);
}

static LogicalResult runGenerate(TileExecutor &exec, Operation *op) {
  auto generate = cast<tensor::GenerateOp>(op);
  FailureOr<SmallVector<int64_t, 4>> dyn =
      exec.getIndices(op, generate.getDynamicExtents());
  if (failed(dyn))
    return failure();
  FailureOr<Tensor> t = makeResultTensor(exec, op, generate.getType(), *dyn);
  if (failed(t))
    return failure();
  Block &body = generate.getBody().front();
  for (int64_t flat = 0, n = t->numElements(); flat < n; ++flat) {
    FailureOr<Scalar> s =
        runElementRegion(exec, op, body, unflatten(flat, t->shape));
    if (failed(s))
      return failure();
    storeScalar(*t, flat, *s);
  }
  return setTensor(exec, generate, std::move(*t));
}

static LogicalResult runPad(TileExecutor &exec, Operation *op) {
  auto pad = cast<tensor::PadOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, pad.getSource());
  FailureOr<SmallVector<int64_t, 4>> low =
      evaluateMixed(exec, op, pad.getMixedLowPad());
  FailureOr<SmallVector<int64_t, 4>> high =
      evaluateMixed(exec, op, pad.getMixedHighPad());
  if (failed(src) || failed(low) || failed(high))
    return failure();
  const Tensor &s = **src;
  SmallVector<int64_t, 4> shape;
  for (int64_t d = 0; d < s.rank(); ++d) {
    if ((*low)[d] < 0 || (*high)[d] < 0)
      return exec.error(op) << "negative padding";
    shape.push_back(s.shape[d] + (*low)[d] + (*high)[d]);
  }
  Tensor out = Tensor::zeros(s.dtype, shape);
  Block &body = pad.getRegion().front();
  // A pad value independent of the indices is computed once.
  bool uniform = llvm::all_of(body.getArguments(),
                              [](BlockArgument a) { return a.use_empty(); });
  std::optional<Scalar> uniformValue;
  for (int64_t flat = 0, n = out.numElements(); flat < n; ++flat) {
    SmallVector<int64_t, 4> index = unflatten(flat, shape);
    if (!uniform || !uniformValue) {
      FailureOr<Scalar> v = runElementRegion(exec, op, body, index);
      if (failed(v))
        return failure();
      uniformValue = *v;
    }
    storeScalar(out, flat, *uniformValue);
  }
  SmallVector<int64_t, 4> ones(s.rank(), 1);
  std::string message;
  if (failed(insertSlice(out, s, *low, s.shape, ones, message)))
    return exec.error(op) << message;
  return setTensor(exec, pad, std::move(out));
}

/// spyreop.slice_reduction, as we read it: `in_slice` replaces every
/// element of each innermost row by the row's reduction; `across_slice`
/// replaces every element by the reduction over the outermost dim.
static LogicalResult runSliceReduction(TileExecutor &exec, Operation *op) {
  auto reduction = cast<spyreop::SliceReductionOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, reduction.getOperand());
  if (failed(src))
    return failure();
  const Tensor &s = **src;
  if (!isFloat(s.dtype) || s.rank() == 0)
    return exec.error(op) << "expects a float tensor of rank >= 1";
  Tensor out = s;
  bool inSlice =
      reduction.getReductionScope() == spyreop::ReductionScope::in_slice;
  int64_t n = s.numElements();
  int64_t len = inSlice ? s.shape.back() : s.shape.front();
  int64_t groups = len ? n / len : 0;
  int64_t step = inSlice ? 1 : groups;
  for (int64_t g = 0; g < groups; ++g) {
    int64_t base = inSlice ? g * len : g;
    double acc = 0;
    for (int64_t k = 0; k < len; ++k) {
      double v = s.floats[base + k * step];
      switch (reduction.getReductionKind()) {
      case spyreop::ReductionKind::add:
        acc = k ? acc + v : v;
        break;
      case spyreop::ReductionKind::sub:
        acc = k ? acc - v : v;
        break;
      case spyreop::ReductionKind::mul:
        acc = k ? acc * v : v;
        break;
      case spyreop::ReductionKind::max:
        acc = k ? std::max(acc, v) : v;
        break;
      case spyreop::ReductionKind::min:
        acc = k ? std::min(acc, v) : v;
        break;
      case spyreop::ReductionKind::abs_max:
        acc = k ? std::max(acc, std::fabs(v)) : std::fabs(v);
        break;
      }
      acc = roundToDType(acc, s.dtype);
    }
    for (int64_t k = 0; k < len; ++k)
      out.floats[base + k * step] = acc;
  }
  return setTensor(exec, reduction, std::move(out));
}

void ktflow::interp::registerTensorHandlers(HandlerTable &table) {
  table.add<tensor::EmptyOp>(runEmpty);
  table.add<tensor::SplatOp>(runSplat);
  table.add<tensor::ExtractOp>(runExtract);
  table.add<tensor::InsertOp>(runInsert);
  table.add<tensor::ExpandShapeOp>(runExpandShape);
  table.add<tensor::CollapseShapeOp>(runCollapseShape);
  table.add<tensor::ReshapeOp>(runReshape);
  table.add<tensor::CastOp>(runCast);
  table.add<tensor::DimOp>(runDim);
  table.add<tensor::FromElementsOp>(runFromElements);
  table.add<tensor::GenerateOp>(runGenerate);
  table.add<tensor::PadOp>(runPad);
  table.add<spyreop::SliceReductionOp>(runSliceReduction);
}
