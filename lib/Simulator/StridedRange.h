//===- StridedRange.h - The bytes a strided transfer touches ----*- C++ -*-===//
//
// This file declares the bytes of one memory a transfer reads or writes (rows
// of equal length a stride apart, possibly planes of such rows another
// stride apart) and the test a unit with several transfers
// in flight runs before each new one: may the two touch a common byte? The
// answer orders the unit's transfers, so it must never miss a common byte (a
// missed one reorders a write and a read of the same bytes); a false "yes"
// only costs a wait. Comparing bounding boxes is such an answer, but it
// serialises interleaved strided transfers (the columns of a transposed
// load, the masked and unmasked parts of rows), so the test is exact for the
// common cases and falls back to the boxes for the others.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_SIMULATOR_STRIDEDRANGE_H
#define KTFLOW_LIB_SIMULATOR_STRIDEDRANGE_H

#include <cstdint>

namespace ktflow::sim::detail {

/// `planes` planes of `rows` rows of `bytes` bytes of memory `memory`, the
/// first at `addr`, each row `stride` bytes after the previous one of its
/// plane and each plane's first row `planeStride` bytes after the previous
/// plane's (the strides may be zero or negative). The fields are a
/// transfer's operands as the program computed them, before any
/// validation: a range with no planes, rows or bytes touches nothing, and
/// addresses past 2^63 are never reached.
struct StridedRange {
  uint32_t memory = 0;
  int64_t addr = 0, rows = 1, stride = 0, bytes = 0;
  int64_t planes = 1, planeStride = 0;
};

/// Whether `a` and `b` may touch a common byte. A range of planes is first
/// taken as one level of rows where its bytes are (the rows of a plane, or
/// the planes, touch each other: a transposed block's columns of 2-byte
/// rows, one plane per column, fill the block; or the planes continue the
/// rows), else as its box. Then exact when the two strides are equal up to
/// sign, when either range is one interval (one row, stride 0, or rows
/// that touch each other), and when the boxes [first byte, last byte] are
/// disjoint; otherwise whether the boxes overlap.
bool mayOverlap(const StridedRange &a, const StridedRange &b);

} // namespace ktflow::sim::detail

#endif // KTFLOW_LIB_SIMULATOR_STRIDEDRANGE_H
