//===- TensorExtent.cpp - How large a kernel's tensors are ----------------===//
//
// This file implements the shared definition of a tensor's extent (see
// TensorExtent.h) and the collection of the views it is computed from.
// Footprint arithmetic is checked: a view whose last element does not fit
// in 2^62 is an error rather than a wrapped extent.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Analysis/LaunchArguments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ktflow;

static constexpr int64_t kMaxElement = int64_t(1) << 62;

bool ViewFootprint::isRowMajor() const {
  int64_t expected = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    // A dimension of one element has no stride to speak of.
    if (sizes[d] > 1 && strides[d] != expected)
      return false;
    if (llvm::MulOverflow(expected, std::max<int64_t>(sizes[d], 1), expected))
      return false;
  }
  return true;
}

bool TensorExtentBuilder::add(const ViewFootprint &fp, std::string &message) {
  hasFootprint = true;
  bool empty = llvm::any_of(fp.sizes, [](int64_t s) { return s <= 0; });
  int64_t lo = fp.offset, hi = fp.offset, elements = 1;
  if (!empty) {
    for (auto [size, stride] : llvm::zip(fp.sizes, fp.strides)) {
      int64_t span;
      if (llvm::MulOverflow(size - 1, stride, span) ||
          llvm::AddOverflow(span < 0 ? lo : hi, span, span < 0 ? lo : hi) ||
          llvm::MulOverflow(elements, size, elements) || hi >= kMaxElement ||
          lo <= -kMaxElement) {
        message = "the view declares elements past 2^62";
        return false;
      }
    }
    if (lo < 0) {
      message = "the view declares element " + std::to_string(lo) +
                ", before the start of its tensor";
      return false;
    }
    end = std::max(end, hi + 1);
  } else {
    elements = 0;
  }
  if (fp.offset == 0 && fp.isRowMajor() && elements > rowMajorElements) {
    rowMajorShape = fp.sizes;
    rowMajorElements = elements;
  }
  return true;
}

void TensorExtentBuilder::merge(const TensorExtentBuilder &other,
                                int64_t offset) {
  if (!other.hasFootprint)
    return;
  hasFootprint = true;
  if (other.end > 0)
    end = std::max(end, other.end + offset);
  // Only footprints that still start at element 0 may give the shape.
  if (offset == 0 && other.rowMajorElements > rowMajorElements) {
    rowMajorShape = other.rowMajorShape;
    rowMajorElements = other.rowMajorElements;
  }
}

TensorExtent TensorExtentBuilder::get() const {
  TensorExtent extent;
  extent.numElements = end;
  if (rowMajorShape && rowMajorElements == end)
    extent.shape = *rowMajorShape;
  else
    extent.shape = {end};
  return extent;
}

FailureOr<TensorExtent>
ktflow::computeTensorExtent(ArrayRef<ViewFootprint> footprints,
                            std::string &message) {
  TensorExtentBuilder builder;
  for (const ViewFootprint &fp : footprints)
    if (!builder.add(fp, message))
      return failure();
  return builder.get();
}

/// The constant value of `v`, or what `evaluate` says it is.
static std::optional<int64_t> resolve(Value v, IndexEvaluator evaluate) {
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  if (evaluate)
    return evaluate(v);
  return std::nullopt;
}

static std::optional<SmallVector<int64_t, 4>>
resolveAll(ArrayRef<OpFoldResult> values, IndexEvaluator evaluate) {
  SmallVector<int64_t, 4> result;
  for (OpFoldResult ofr : values) {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      result.push_back(cast<IntegerAttr>(attr).getInt());
      continue;
    }
    std::optional<int64_t> v = resolve(cast<Value>(ofr), evaluate);
    if (!v)
      return std::nullopt;
    result.push_back(*v);
  }
  return result;
}

std::optional<ViewFootprint>
ktflow::getViewFootprint(ktdp::ConstructMemoryViewOp view, int64_t offset,
                         IndexEvaluator evaluate) {
  std::optional<SmallVector<int64_t, 4>> sizes =
      resolveAll(view.getMixedSizes(), evaluate);
  std::optional<SmallVector<int64_t, 4>> strides =
      resolveAll(view.getMixedStrides(), evaluate);
  if (!sizes || !strides || sizes->size() != strides->size())
    return std::nullopt;
  ViewFootprint fp;
  fp.offset = offset;
  fp.sizes = std::move(*sizes);
  fp.strides = std::move(*strides);
  return fp;
}

SmallVector<ktdp::ConstructMemoryViewOp>
ktflow::getViewsAtArgument(func::FuncOp fn, BlockArgument arg) {
  SmallVector<ktdp::ConstructMemoryViewOp> views;
  fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (view.getOffset() == arg)
      views.push_back(view);
  });
  return views;
}

SmallVector<ktdp::ConstructMemoryViewOp>
ktflow::getViewsAtLiteral(func::FuncOp fn, int64_t address) {
  SmallVector<ktdp::ConstructMemoryViewOp> views;
  fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    APInt literal;
    if (view.getMemorySpaceInterface().getMemoryKind() ==
            ktdp::MemoryKind::global &&
        matchPattern(view.getOffset(), m_ConstantInt(&literal)) &&
        literal.getSExtValue() == address)
      views.push_back(view);
  });
  return views;
}

namespace {
/// A view's size or stride as written: a constant times index values (the
/// operands of `arith.muli`s down to values that are not products).
struct ViewProduct {
  int64_t constant = 1;
  /// Sorted, so that equal products compare equal.
  SmallVector<Value, 2> factors;

  static std::optional<ViewProduct> of(OpFoldResult ofr) {
    ViewProduct product;
    if (!product.multiply(ofr))
      return std::nullopt;
    return product;
  }

  /// Multiplies by `ofr`; false when the constant overflows.
  bool multiply(OpFoldResult ofr) {
    if (std::optional<int64_t> c = getConstantIntValue(ofr))
      return !llvm::MulOverflow(constant, *c, constant);
    Value v = cast<Value>(ofr);
    if (auto mul = v.getDefiningOp<arith::MulIOp>())
      return multiply(mul.getLhs()) && multiply(mul.getRhs());
    factors.insert(llvm::upper_bound(factors, v, valueOrder), v);
    return true;
  }

  bool multiply(const ViewProduct &other) {
    for (Value v : other.factors)
      factors.insert(llvm::upper_bound(factors, v, valueOrder), v);
    return !llvm::MulOverflow(constant, other.constant, constant);
  }

  bool operator!=(const ViewProduct &other) const {
    return constant != other.constant || factors != other.factors;
  }

private:
  static bool valueOrder(Value a, Value b) {
    return a.getAsOpaquePointer() < b.getAsOpaquePointer();
  }
};
} // namespace

std::optional<std::string>
ktflow::whyNotWrittenRowMajor(ktdp::ConstructMemoryViewOp view) {
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  SmallVector<OpFoldResult> strides = view.getMixedStrides();
  if (sizes.size() != strides.size())
    return "the view has " + std::to_string(sizes.size()) + " sizes but " +
           std::to_string(strides.size()) + " strides";
  ViewProduct inner;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    std::optional<ViewProduct> stride = ViewProduct::of(strides[d]);
    std::optional<int64_t> staticSize = getConstantIntValue(sizes[d]);
    // A dimension of one element has no stride to speak of.
    if (!(staticSize && *staticSize <= 1) && (!stride || *stride != inner))
      return std::string(
          "a view with dynamic sizes or strides must be row-major, each "
          "stride the product of the sizes after it (the tensor's extent "
          "would depend on the sizes' run-time values)");
    std::optional<ViewProduct> size = ViewProduct::of(sizes[d]);
    if (!size || !inner.multiply(*size))
      return std::string("the view declares elements past 2^62");
  }
  return std::nullopt;
}

/// Whether two mixed size/stride lists are the same values.
static bool sameMixed(ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip(a, b), [](auto pair) {
           auto [x, y] = pair;
           return x == y;
         });
}

FailureOr<DeclaredTensorShape>
ktflow::getDeclaredTensorShape(ArrayRef<ktdp::ConstructMemoryViewOp> views) {
  if (views.empty())
    return failure();
  ktdp::ConstructMemoryViewOp first = views.front();
  DeclaredTensorShape declared;
  declared.elementType = cast<MemRefType>(first.getType()).getElementType();
  for (ktdp::ConstructMemoryViewOp view : views)
    if (cast<MemRefType>(view.getType()).getElementType() !=
        declared.elementType)
      return view.emitError("views of element types ")
             << declared.elementType << " and "
             << cast<MemRefType>(view.getType()).getElementType()
             << " start at the same address";

  SmallVector<ViewFootprint> footprints;
  for (ktdp::ConstructMemoryViewOp view : views) {
    std::optional<ViewFootprint> fp = getViewFootprint(view, 0);
    if (!fp)
      break;
    footprints.push_back(std::move(*fp));
  }
  if (footprints.size() == views.size()) {
    std::string message;
    TensorExtentBuilder builder;
    for (auto [i, fp] : llvm::enumerate(footprints))
      if (!builder.add(fp, message))
        return ktdp::ConstructMemoryViewOp(views[i]).emitError(message);
    declared.shape = builder.get().shape;
    return declared;
  }

  // Dynamic sizes: the tensor's size must not depend on which values they
  // take at run time beyond the sizes themselves.
  SmallVector<OpFoldResult> sizes = first.getMixedSizes();
  SmallVector<OpFoldResult> strides = first.getMixedStrides();
  for (ktdp::ConstructMemoryViewOp view : views.drop_front())
    if (!sameMixed(view.getMixedSizes(), sizes) ||
        !sameMixed(view.getMixedStrides(), strides))
      return view.emitError(
          "views with dynamic sizes at one start address must all have the "
          "same sizes and strides (the tensor's extent would depend on the "
          "sizes' run-time values)");
  if (std::optional<std::string> why = whyNotWrittenRowMajor(first))
    return first.emitError(*why);
  for (OpFoldResult size : sizes) {
    if (std::optional<int64_t> staticSize = getConstantIntValue(size)) {
      declared.shape.push_back(*staticSize);
    } else {
      declared.shape.push_back(ShapedType::kDynamic);
      declared.dynamicSizes.push_back(cast<Value>(size));
      declared.dynamicScales.push_back(1);
    }
  }
  return declared;
}

namespace {
/// A launch scalar times a positive constant, as written (`n * 64`, through
/// `arith.muli` and the casts getLaunchScalar sees through).
struct ScaledLaunchScalar {
  BlockArgument scalar;
  /// The scalar's value as the product uses it (`arith.index_cast %n`).
  Value value;
  int64_t scale = 1;
};
} // namespace

static std::optional<ScaledLaunchScalar> getScaledLaunchScalar(Value v) {
  std::optional<ViewProduct> product = ViewProduct::of(v);
  if (!product || product->constant <= 0 || product->factors.size() != 1)
    return std::nullopt;
  BlockArgument scalar = getLaunchScalar(product->factors.front());
  if (!scalar)
    return std::nullopt;
  return ScaledLaunchScalar{scalar, product->factors.front(),
                            product->constant};
}

namespace {
/// The elements [start * s, (start + count) * s) of a view, s the launch
/// scalar of its tensor's displacements.
struct ScaledSpan {
  int64_t start = 0, count = 0;
  ktdp::ConstructMemoryViewOp view;
};
} // namespace

/// The number of elements `view` declares as a constant times `scalar`
/// (each dynamic size `scalar` itself), or why not.
static FailureOr<int64_t> scaledElementCount(ktdp::ConstructMemoryViewOp view,
                                             BlockArgument scalar,
                                             std::string &why) {
  if (std::optional<std::string> notRowMajor = whyNotWrittenRowMajor(view)) {
    why = *notRowMajor;
    return failure();
  }
  ViewProduct elements;
  for (OpFoldResult size : view.getMixedSizes()) {
    std::optional<ViewProduct> factor = ViewProduct::of(size);
    if (!factor || !elements.multiply(*factor)) {
      why = "the view declares elements past 2^62";
      return failure();
    }
  }
  if (elements.constant <= 0 || elements.factors.size() != 1 ||
      getLaunchScalar(elements.factors.front()) != scalar) {
    why = "its sizes must have the launch scalar of the displacements as "
          "their one dynamic size (the view's elements, a constant times it, "
          "then end where a constant times it does)";
    return failure();
  }
  return elements.constant;
}

std::optional<ScaledTensorShape>
ktflow::getScaledTensorShape(func::FuncOp fn, BlockArgument arg) {
  // Each view at `arg`, its displacement (null: none) and that as a scaled
  // launch scalar, if it is one.
  struct ViewAt {
    ktdp::ConstructMemoryViewOp view;
    Value displacement;
    std::optional<ScaledLaunchScalar> scaled;
  };
  SmallVector<ViewAt> views;
  std::optional<ScaledLaunchScalar> first;
  fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    std::optional<ViewAddress> address = getViewAddress(view.getOffset());
    if (!address || address->argument != arg)
      return;
    ViewAt &at = views.emplace_back(ViewAt{view, address->displacement, {}});
    if (at.displacement)
      at.scaled = getScaledLaunchScalar(at.displacement);
    if (at.scaled && !first)
      first = at.scaled;
  });
  if (!first)
    return std::nullopt;
  BlockArgument scalar = first->scalar;
  ScaledTensorShape result;
  auto refuse = [&](ktdp::ConstructMemoryViewOp view, const Twine &why) {
    result.refusedAt = view;
    result.refusal = why.str();
    return result;
  };
  Type element =
      cast<MemRefType>(views.front().view.getType()).getElementType();
  SmallVector<ScaledSpan> spans;
  for (auto &[view, displacement, scaled] : views) {
    if (cast<MemRefType>(view.getType()).getElementType() != element)
      return refuse(view, "views of two element types start in its tensor");
    ScaledSpan span{0, 0, view};
    if (displacement) {
      if (!scaled || scaled->scalar != scalar)
        return refuse(view, "its displacement is not the launch scalar of "
                            "the others times a constant");
      span.start = scaled->scale;
    }
    std::string why;
    FailureOr<int64_t> count = scaledElementCount(view, scalar, why);
    if (failed(count))
      return refuse(view, why);
    span.count = *count;
    int64_t spanEnd;
    if (llvm::AddOverflow(span.start, span.count, spanEnd))
      return refuse(view, "the view declares elements past 2^62");
    spans.push_back(span);
  }
  // Identical spans are one region; distinct ones must not overlap for any
  // value of the scalar (stores through two views of one element would race
  // between tiles).
  SmallVector<ScaledSpan> sorted(spans);
  llvm::sort(sorted, [](const ScaledSpan &a, const ScaledSpan &b) {
    return std::make_pair(a.start, a.count) < std::make_pair(b.start, b.count);
  });
  for (auto [prev, next] : llvm::zip(sorted, llvm::drop_begin(sorted))) {
    if (prev.start == next.start && prev.count == next.count)
      continue;
    if (prev.start + prev.count > next.start)
      return refuse(next.view, "its elements [" + Twine(next.start) + " * s, " +
                                   Twine(next.start + next.count) +
                                   " * s) overlap those of another view, [" +
                                   Twine(prev.start) + " * s, " +
                                   Twine(prev.start + prev.count) +
                                   " * s), s the launch scalar");
  }
  int64_t end = 0;
  for (const ScaledSpan &span : spans)
    end = std::max(end, span.start + span.count);
  // Flat, as the interpreter shapes it: no view at the start declares every
  // element once a later one, not overlapping it, starts past it.
  DeclaredTensorShape &declared = result.declared;
  declared.elementType = element;
  declared.shape.push_back(ShapedType::kDynamic);
  declared.dynamicSizes.push_back(first->value);
  declared.dynamicScales.push_back(end);
  return result;
}
