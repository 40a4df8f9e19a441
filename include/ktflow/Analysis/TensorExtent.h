//===- TensorExtent.h - How large a kernel's tensors are --------*- C++ -*-===//
//
// This file declares the one definition of a tensor's extent that the
// interpreter (which allocates the tensor) and the compiler (which declares
// it to the runtime) share, so the two agree on every tensor's size and
// shape by construction.
//
// A tensor is the memory at a start address: a kernel argument, or a
// literal address. Each memory view built at that address declares the
// elements `offset + Σ i_d * stride_d` for `0 <= i_d < size_d` (its
// footprint; the coordinate_set only says which of them the view may
// reach). The tensor holds elements [0, e), where e - 1 is the last element
// any footprint declares. Its shape is the sizes of the largest row-major
// footprint that starts at element 0 when that footprint declares all e
// elements, and [e] otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_TENSOREXTENT_H
#define KTFLOW_ANALYSIS_TENSOREXTENT_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace ktflow {

/// The elements a memory view declares, relative to the start of its tensor:
/// `offset + Σ i_d * strides[d]` for `0 <= i_d < sizes[d]`.
struct ViewFootprint {
  int64_t offset = 0;
  llvm::SmallVector<int64_t, 4> sizes, strides;

  /// Whether the view has row-major strides (strides[d] is the product of
  /// the sizes after d).
  bool isRowMajor() const;
};

/// The extent of a tensor: how many elements it holds and its logical shape
/// (whose element count is `numElements`).
struct TensorExtent {
  int64_t numElements = 0;
  llvm::SmallVector<int64_t, 4> shape;
};

/// Applies the definition to footprints added one at a time (program order:
/// among equally large row-major footprints at element 0, the first wins).
class TensorExtentBuilder {
public:
  /// Adds `footprint`. Fails with a message when it declares an element
  /// before the start of the tensor or past 2^62.
  bool add(const ViewFootprint &footprint, std::string &message);

  /// Adds the footprints `other` was given, shifted `offset` elements
  /// further from the start (a tensor that absorbs another).
  void merge(const TensorExtentBuilder &other, int64_t offset);

  /// Whether any footprint was added.
  bool empty() const { return !hasFootprint; }

  TensorExtent get() const;

private:
  bool hasFootprint = false;
  /// One past the last element declared.
  int64_t end = 0;
  /// The largest row-major footprint at element 0.
  std::optional<llvm::SmallVector<int64_t, 4>> rowMajorShape;
  int64_t rowMajorElements = -1;
};

/// The extent the footprints define (see TensorExtentBuilder).
mlir::FailureOr<TensorExtent>
computeTensorExtent(llvm::ArrayRef<ViewFootprint> footprints,
                    std::string &message);

/// Resolves the value of a dynamic size or stride, when it is known.
using IndexEvaluator = llvm::function_ref<std::optional<int64_t>(mlir::Value)>;

/// The footprint of `view`, placed at `offset` within its tensor, with
/// dynamic sizes and strides resolved by `evaluate` (constants are resolved
/// without it). None when one of them cannot be resolved.
std::optional<ViewFootprint>
getViewFootprint(mlir::ktdp::ConstructMemoryViewOp view, int64_t offset,
                 IndexEvaluator evaluate = nullptr);

/// The views of `fn` whose start address is the argument `arg` itself, in
/// program order.
llvm::SmallVector<mlir::ktdp::ConstructMemoryViewOp>
getViewsAtArgument(mlir::func::FuncOp fn, mlir::BlockArgument arg);

/// The views of global memory in `fn` whose start address is the constant
/// `address`, in program order.
llvm::SmallVector<mlir::ktdp::ConstructMemoryViewOp>
getViewsAtLiteral(mlir::func::FuncOp fn, int64_t address);

/// A tensor's shape for the compiler, whose tensors may have dimensions
/// given by runtime arguments: static extents, or ShapedType::kDynamic with
/// the size value (a runtime argument's value) in `dynamicSizes`.
struct DeclaredTensorShape {
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<mlir::Value> dynamicSizes;
  /// What each dynamic size is multiplied by (1 for a view's own size).
  llvm::SmallVector<int64_t> dynamicScales;
  mlir::Type elementType;
};

/// Why `view` is not row-major as written (each stride, a constant times
/// values multiplied by `arith.muli`, the product of the sizes after it),
/// or none when it is. Such a view maps its coordinates below its sizes to
/// distinct elements whatever the values of its dynamic sizes and strides.
std::optional<std::string>
whyNotWrittenRowMajor(mlir::ktdp::ConstructMemoryViewOp view);

/// The shape of the tensor the views `views` (all at its start address)
/// declare. With static sizes and strides it is the definition above. With
/// dynamic sizes or strides, the definition gives a shape whatever their
/// values only when every view has the same sizes and strides and is
/// row-major as written: each stride the product of the sizes after it
/// (`sizes: [64, %n], strides: [%n, 1]` is a 64xn tensor, its row stride a
/// run-time value). Anything else is an error naming why, at the view.
mlir::FailureOr<DeclaredTensorShape>
getDeclaredTensorShape(llvm::ArrayRef<mlir::ktdp::ConstructMemoryViewOp> views);

/// The tensor at kernel argument `arg` when some view of `fn` starts at a
/// displacement that is a launch scalar s times a constant (`ptr + n * 64`,
/// the second of two halves of n rows): its views must each declare
/// `k * s` elements at `c * s` (c >= 0 constant, row-major as written with
/// s as its one dynamic size) and must not overlap for any s. The tensor
/// then holds `max(c + k) * s` elements, flat (`tensor<?xf16>`, the
/// dimension s times max(c + k)). None when no view starts at such a
/// displacement; otherwise the shape, or the view to blame and why.
struct ScaledTensorShape {
  DeclaredTensorShape declared;
  mlir::Operation *refusedAt = nullptr;
  std::string refusal;
};
std::optional<ScaledTensorShape> getScaledTensorShape(mlir::func::FuncOp fn,
                                                      mlir::BlockArgument arg);

/// Where the compiler records the extents before transforming the kernel
/// (--ktdf-record-tensor-extents): a tensor type on each tensor argument,
/// the argument positions of its dynamic dimensions (and what they are
/// multiplied by), and a dictionary from literal addresses to tensor types
/// on the function.
inline constexpr llvm::StringLiteral kTensorAttr = "ktdf.tensor";
inline constexpr llvm::StringLiteral kTensorDimsAttr = "ktdf.tensor_dims";
/// What each of the launch scalars of kTensorDimsAttr is multiplied by, when
/// not all by 1.
inline constexpr llvm::StringLiteral kTensorDimScalesAttr =
    "ktdf.tensor_dim_scales";
inline constexpr llvm::StringLiteral kLiteralTensorsAttr =
    "ktdf.literal_tensors";

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_TENSOREXTENT_H
