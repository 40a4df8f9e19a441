//===- Values.h - Run-time values of the KTIR interpreter -------*- C++ -*-===//
//
// This file declares what an SSA value holds while a tile runs: a scalar, a
// tensor (shared and immutable once produced), a memory view (one part per
// construct_memory_view, several for a distributed view), an access tile,
// or a tile future.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_VALUES_H
#define KTFLOW_LIB_INTERPRETER_VALUES_H

#include "AffineEval.h"

#include "HostTypes.h"

#include "mlir/IR/Operation.h"

#include <memory>
#include <variant>

namespace ktflow::interp {

class MemorySpace;
struct FutureInstance;

/// A scalar of any element type.
struct Scalar {
  DType dtype = DType::I64;
  double f = 0;
  int64_t i = 0;

  static Scalar ofInt(int64_t v, DType t) {
    Scalar s;
    s.dtype = t;
    s.i = wrapInt(v, t);
    return s;
  }
  static Scalar ofFloat(double v, DType t) {
    Scalar s;
    s.dtype = t;
    s.f = roundToDType(v, t);
    return s;
  }
  double toDouble() const { return isFloat(dtype) ? f : static_cast<double>(i); }
};

using TensorRef = std::shared_ptr<const Tensor>;

/// One construct_memory_view: a strided window of one memory whose
/// coordinate_set says which global coordinates it holds.
struct ViewPart {
  mlir::Operation *op = nullptr;
  MemorySpace *space = nullptr;
  int64_t offset = 0;
  llvm::SmallVector<int64_t, 4> sizes, strides;
  const SetPlan *set = nullptr;
  llvm::SmallVector<int64_t, 2> setSymbols;
  /// Bounds of the coordinate set (exact when `set->isBox()`); the local
  /// index of coordinate c is c - box.lower.
  mlir::ktdp::IntegerBox box;
};

/// A (possibly distributed) memory view. The first part that holds a
/// coordinate serves it.
struct MemoryView {
  DType dtype = DType::F32;
  unsigned rank = 0;
  llvm::SmallVector<ViewPart, 1> parts;
  /// Whether some coordinate could be held by two parts.
  bool partsMayOverlap = false;
};
using ViewRef = std::shared_ptr<const MemoryView>;

/// A direct or indirect access tile.
struct AccessTile {
  enum class Kind { Direct, Indirect };
  Kind kind = Kind::Direct;
  mlir::Operation *op = nullptr;
  /// The view accessed, or (for tiles over a tensor value) the tensor.
  ViewRef view;
  TensorRef tensorBase;
  /// The tile's shape: extent k is set dim perm[k].
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<unsigned, 4> perm;
  /// The enumerated set (access_tile_set / variables_space_set).
  const SetPlan *set = nullptr;
  llvm::SmallVector<int64_t, 2> setSymbols;
  /// Lower bounds of the set: tile index t_k is set point lo[perm[k]] + t_k.
  llvm::SmallVector<int64_t, 4> setLower, setUpper;
  /// Whether every tile index maps to a set point (box set, tile shape equal
  /// to the set's extents).
  bool dense = true;

  // Direct tiles: coordinate = anchor + set point.
  llvm::SmallVector<int64_t, 4> anchor;

  // Indirect tiles: per base dim, a direct subscript or an index view read
  // at subscript maps over (captured..., variables...).
  struct Subscript {
    bool indirect = false;
    llvm::SmallVector<CompiledExpr, 2> exprs;
    ViewRef indexView;
  };
  llvm::SmallVector<Subscript, 4> subscripts;
  llvm::SmallVector<int64_t, 4> captured;
};
using TileRef = std::shared_ptr<const AccessTile>;

/// A tile's handle on one produced future.
struct FutureHandle {
  std::shared_ptr<FutureInstance> instance;
  bool consumed = false;
};
using FutureRef = std::shared_ptr<FutureHandle>;

/// The value of an SSA value during a run.
class RValue {
public:
  RValue() = default;
  RValue(Scalar s) : storage(s) {}
  RValue(TensorRef t) : storage(std::move(t)) {}
  RValue(ViewRef v) : storage(std::move(v)) {}
  RValue(TileRef t) : storage(std::move(t)) {}
  RValue(FutureRef f) : storage(std::move(f)) {}

  bool isNone() const { return storage.index() == 0; }
  bool isScalar() const { return std::holds_alternative<Scalar>(storage); }
  bool isTensor() const { return std::holds_alternative<TensorRef>(storage); }
  bool isView() const { return std::holds_alternative<ViewRef>(storage); }
  bool isTile() const { return std::holds_alternative<TileRef>(storage); }
  bool isFuture() const { return std::holds_alternative<FutureRef>(storage); }

  const Scalar &scalar() const { return std::get<Scalar>(storage); }
  const TensorRef &tensor() const { return std::get<TensorRef>(storage); }
  const ViewRef &view() const { return std::get<ViewRef>(storage); }
  const TileRef &tile() const { return std::get<TileRef>(storage); }
  const FutureRef &future() const { return std::get<FutureRef>(storage); }

private:
  std::variant<std::monostate, Scalar, TensorRef, ViewRef, TileRef, FutureRef>
      storage;
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_VALUES_H
