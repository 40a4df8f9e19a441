//===- Strided.h - Strided iteration over boxes -----------------*- C++ -*-===//
//
// This file defines the odometer loop the interpreter uses to walk a box of
// indices while keeping two strided flat offsets up to date, so copies
// between tensors, views and memory cost one addition per element.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_STRIDED_H
#define KTFLOW_LIB_INTERPRETER_STRIDED_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace ktflow::interp {

/// Calls `f(a, b)` for every index of the box `sizes` in row-major order,
/// where a = aBase + Σ index_d * aStrides_d and likewise b.
template <typename F>
void forEachStrided(llvm::ArrayRef<int64_t> sizes, int64_t aBase,
                    llvm::ArrayRef<int64_t> aStrides, int64_t bBase,
                    llvm::ArrayRef<int64_t> bStrides, F f) {
  if (llvm::any_of(sizes, [](int64_t s) { return s <= 0; }))
    return;
  size_t rank = sizes.size();
  if (rank == 0) {
    f(aBase, bBase);
    return;
  }
  llvm::SmallVector<int64_t, 4> index(rank, 0);
  int64_t a = aBase, b = bBase;
  int64_t inner = sizes[rank - 1];
  int64_t aInner = aStrides[rank - 1], bInner = bStrides[rank - 1];
  while (true) {
    for (int64_t i = 0; i < inner; ++i)
      f(a + i * aInner, b + i * bInner);
    int64_t d = static_cast<int64_t>(rank) - 2;
    for (; d >= 0; --d) {
      ++index[d];
      a += aStrides[d];
      b += bStrides[d];
      if (index[d] < sizes[d])
        break;
      a -= aStrides[d] * sizes[d];
      b -= bStrides[d] * sizes[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_STRIDED_H
