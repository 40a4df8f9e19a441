//===- GrownViews.h - Views at computed addresses that ran ------*- C++ -*-===//
//
// This file declares the log of the footprints of views at computed
// addresses (`%p + 2048`) that the compiled code built. In the interpreter
// such a view extends its tensor when it runs (docs/interpreter.md §1), so
// a tensor's extent, and the shape its output line reports, is only known
// after a run: the tier runs the kernel, and when the views that ran make
// a tensor larger (or shape it differently) than the buffer it ran with,
// runs it again over buffers of the grown extents (Run.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_GROWNVIEWS_H
#define KTFLOW_LIB_CPUJIT_GROWNVIEWS_H

#include "ktflow/Analysis/TensorExtent.h"

#include <set>
#include <vector>

namespace ktflow::jit {

/// Distinct footprints, per buffer, in the order they were first reported.
class GrownViews {
public:
  /// Adds a footprint of `buffer`; returns whether it is new.
  bool add(unsigned buffer, const ViewFootprint &footprint);
  /// Adds `other`'s footprints after this log's; returns how many were new.
  size_t append(const GrownViews &other);
  /// The footprints of `buffer`, in order.
  std::vector<ViewFootprint> of(unsigned buffer) const;
  /// The buffers that have footprints.
  std::set<unsigned> buffers() const;

private:
  std::vector<std::pair<unsigned, ViewFootprint>> views;
  std::set<std::vector<int64_t>> seen;
};

/// Makes the calling thread's views go to `log` (nullptr: nowhere).
void setCurrentGrownViews(GrownViews *log);

/// The `ktflow_jit_view` the compiled code calls (TileFunction.h).
void recordView(int64_t buffer, int64_t offset, int64_t rank, int64_t size0,
                int64_t size1, int64_t size2, int64_t size3, int64_t stride0,
                int64_t stride1, int64_t stride2, int64_t stride3);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_GROWNVIEWS_H
