//===- TensorSlices.cpp - Strided windows of tensors ----------------------===//
//
// This file implements the tensor ops that read or write a strided window
// of a tensor (extract_slice, insert_slice, concat) and the window
// arithmetic they share with tensor.pad: offsets, sizes and strides
// evaluated from mixed static/dynamic lists, checked to lie inside the
// tensor, and walked the same way for reading and for writing.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "Strided.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace ktflow::interp;

FailureOr<SmallVector<int64_t, 4>>
ktflow::interp::evaluateMixed(TileExecutor &exec, Operation *op,
                              ArrayRef<OpFoldResult> values) {
  SmallVector<int64_t, 4> result;
  for (OpFoldResult ofr : values) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      auto intAttr = dyn_cast<IntegerAttr>(attr);
      if (!intAttr)
        return exec.error(op) << "expected an integer attribute";
      result.push_back(intAttr.getInt());
      continue;
    }
    FailureOr<int64_t> v = exec.getIndex(op, cast<Value>(ofr));
    if (failed(v))
      return failure();
    result.push_back(*v);
  }
  return result;
}

/// Checks that the strided window lies inside `shape`.
static bool windowInside(ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets,
                         ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                         std::string &message) {
  if (offsets.size() != shape.size() || sizes.size() != shape.size() ||
      strides.size() != shape.size()) {
    message = "slice rank does not match the tensor's";
    return false;
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (sizes[d] == 0)
      continue;
    int64_t last = offsets[d] + (sizes[d] - 1) * strides[d];
    if (sizes[d] < 0 || offsets[d] < 0 || last < 0 || offsets[d] >= shape[d] ||
        last >= shape[d]) {
      message =
          "slice dim " + std::to_string(d) + " (offset " +
          std::to_string(offsets[d]) + ", size " + std::to_string(sizes[d]) +
          ", stride " + std::to_string(strides[d]) +
          ") is out of bounds for a tensor of shape " + formatShape(shape);
      return false;
    }
  }
  return true;
}

/// Calls `f(inFull, inDense)` for every element of the strided window
/// (offsets, sizes, strides) of a row-major tensor of shape `fullShape`, with
/// its flat index there and in a dense row-major tensor of shape `sizes`, so
/// extracting and inserting a slice walk the window the same way.
template <typename F>
static void
forEachWindowElement(ArrayRef<int64_t> fullShape, ArrayRef<int64_t> offsets,
                     ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides, F f) {
  SmallVector<int64_t, 4> fullStrides = rowMajorStrides(fullShape);
  int64_t base = 0;
  SmallVector<int64_t, 4> scaled;
  for (size_t d = 0; d < sizes.size(); ++d) {
    base += offsets[d] * fullStrides[d];
    scaled.push_back(fullStrides[d] * strides[d]);
  }
  forEachStrided(sizes, base, scaled, 0, rowMajorStrides(sizes), f);
}

LogicalResult ktflow::interp::insertSlice(Tensor &dest, const Tensor &src,
                                          ArrayRef<int64_t> offsets,
                                          ArrayRef<int64_t> sizes,
                                          ArrayRef<int64_t> strides,
                                          std::string &message) {
  if (!windowInside(dest.shape, offsets, sizes, strides, message))
    return failure();
  if (productOf(sizes) != src.numElements() || src.dtype != dest.dtype) {
    message = "type mismatch: source does not match the slice";
    return failure();
  }
  if (isFloat(dest.dtype))
    forEachWindowElement(
        dest.shape, offsets, sizes, strides,
        [&](int64_t d, int64_t s) { dest.floats[d] = src.floats[s]; });
  else
    forEachWindowElement(
        dest.shape, offsets, sizes, strides,
        [&](int64_t d, int64_t s) { dest.ints[d] = src.ints[s]; });
  return success();
}

/// The offsets, sizes and strides of a slice op, evaluated.
struct SliceWindow {
  SmallVector<int64_t, 4> offsets, sizes, strides;
};

/// Evaluates all three lists before failing, so each bad operand is reported.
static FailureOr<SliceWindow>
evaluateWindow(TileExecutor &exec, OffsetSizeAndStrideOpInterface slice) {
  Operation *op = slice.getOperation();
  FailureOr<SmallVector<int64_t, 4>> offsets =
      evaluateMixed(exec, op, slice.getMixedOffsets());
  FailureOr<SmallVector<int64_t, 4>> sizes =
      evaluateMixed(exec, op, slice.getMixedSizes());
  FailureOr<SmallVector<int64_t, 4>> strides =
      evaluateMixed(exec, op, slice.getMixedStrides());
  if (failed(offsets) || failed(sizes) || failed(strides))
    return failure();
  return SliceWindow{std::move(*offsets), std::move(*sizes),
                     std::move(*strides)};
}

static LogicalResult runExtractSlice(TileExecutor &exec, Operation *op) {
  auto slice = cast<tensor::ExtractSliceOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, slice.getSource());
  FailureOr<SliceWindow> w = evaluateWindow(exec, slice);
  if (failed(src) || failed(w))
    return failure();
  const Tensor &s = **src;
  std::string message;
  if (!windowInside(s.shape, w->offsets, w->sizes, w->strides, message))
    return exec.error(op) << message;
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  SmallVector<int64_t, 4> shape;
  for (auto [d, size] : llvm::enumerate(w->sizes))
    if (!dropped.test(d))
      shape.push_back(size);
  Tensor out = Tensor::zeros(s.dtype, shape);
  if (isFloat(s.dtype))
    forEachWindowElement(
        s.shape, w->offsets, w->sizes, w->strides,
        [&](int64_t a, int64_t b) { out.floats[b] = s.floats[a]; });
  else
    forEachWindowElement(
        s.shape, w->offsets, w->sizes, w->strides,
        [&](int64_t a, int64_t b) { out.ints[b] = s.ints[a]; });
  return setTensor(exec, slice, std::move(out));
}

static LogicalResult runInsertSlice(TileExecutor &exec, Operation *op) {
  auto slice = cast<tensor::InsertSliceOp>(op);
  FailureOr<TensorRef> src = exec.getTensor(op, slice.getSource());
  FailureOr<TensorRef> dest = exec.getTensor(op, slice.getDest());
  FailureOr<SliceWindow> w = evaluateWindow(exec, slice);
  if (failed(src) || failed(dest) || failed(w))
    return failure();
  Tensor out = **dest;
  std::string message;
  if (failed(
          insertSlice(out, **src, w->offsets, w->sizes, w->strides, message)))
    return exec.error(op) << message;
  return setTensor(exec, slice, std::move(out));
}

static LogicalResult runConcat(TileExecutor &exec, Operation *op) {
  auto concat = cast<tensor::ConcatOp>(op);
  int64_t dim = static_cast<int64_t>(concat.getDim());
  SmallVector<TensorRef> inputs;
  SmallVector<int64_t, 4> shape;
  for (Value input : concat.getInputs()) {
    FailureOr<TensorRef> t = exec.getTensor(op, input);
    if (failed(t))
      return failure();
    if (shape.empty()) {
      shape.assign((*t)->shape.begin(), (*t)->shape.end());
      shape[dim] = 0;
    }
    shape[dim] += (*t)->shape[dim];
    inputs.push_back(*t);
  }
  Tensor out = Tensor::zeros(inputs.front()->dtype, shape);
  int64_t at = 0;
  for (const TensorRef &t : inputs) {
    SmallVector<int64_t, 4> offsets(shape.size(), 0), ones(shape.size(), 1);
    offsets[dim] = at;
    std::string message;
    if (failed(insertSlice(out, *t, offsets, t->shape, ones, message)))
      return exec.error(op) << message;
    at += t->shape[dim];
  }
  return setTensor(exec, concat, std::move(out));
}

void ktflow::interp::registerTensorSliceHandlers(HandlerTable &table) {
  table.add<tensor::ExtractSliceOp>(runExtractSlice);
  table.add<tensor::InsertSliceOp>(runInsertSlice);
  table.add<tensor::ConcatOp>(runConcat);
}
