//===- StridedRange.cpp - The bytes a strided transfer touches ------------===//
//
// This file implements the overlap test of two strided ranges (see the
// header). Its operands come from a program a user may have written, so the
// arithmetic is done in 128 bits, where no product or sum of 64-bit
// operands here overflows.
//
//===----------------------------------------------------------------------===//

#include "StridedRange.h"

#include <algorithm>
#include <limits>

using namespace ktflow::sim::detail;

namespace {
using Wide = __int128;

/// A range as rows [base + i * step, base + i * step + len), i < count, with
/// a non-negative step; rows that touch or overlap are one row.
struct Rows {
  Wide base, step, len, count;
  Wide end() const { return base + (count - 1) * step + len; }
};
} // namespace

static Rows normalise(const StridedRange &r) {
  Wide base = r.addr, step = r.stride, len = r.bytes, count = r.rows;
  if (count == 1 || step == 0)
    return {base, 0, len, 1};
  if (step < 0) {
    base += (count - 1) * step;
    step = -step;
  }
  if (step <= len)
    return {base, 0, (count - 1) * step + len, 1};
  return {base, step, len, count};
}

static Wide floorDiv(Wide n, Wide d) {
  Wide q = n / d;
  return (n % d != 0 && n < 0) ? q - 1 : q;
}
static Wide ceilDiv(Wide n, Wide d) { return -floorDiv(-n, d); }

bool ktflow::sim::detail::mayOverlap(const StridedRange &a,
                                     const StridedRange &b) {
  // A transfer with no rows or no bytes moves nothing (a negative one is an
  // error before it moves anything).
  if (a.memory != b.memory || a.rows <= 0 || a.bytes <= 0 || b.rows <= 0 ||
      b.bytes <= 0)
    return false;
  Rows x = normalise(a), y = normalise(b);
  if (x.end() <= y.base || y.end() <= x.base)
    return false;
  // A range reaching past the int64 addresses is an error before it moves
  // anything; the boxes, which overlap, are the answer, and past here every
  // value is below 2^65 in magnitude.
  constexpr Wide kLowest = std::numeric_limits<int64_t>::min();
  constexpr Wide kHighest = std::numeric_limits<int64_t>::max();
  if (std::min(x.base, y.base) < kLowest ||
      std::max(x.end(), y.end()) > kHighest)
    return true;
  // Rows a different stride apart: the boxes.
  if (x.count > 1 && y.count > 1 && x.step != y.step)
    return true;
  Wide step = std::max(x.step, y.step);
  if (step == 0)
    return true; // two intervals whose boxes overlap
  // Row i of x and row j of y share a byte iff, with t = j - i and
  // d = y.base - x.base, -y.len < d + t * step < x.len; t can be any
  // integer in [-(x.count - 1), y.count - 1].
  Wide d = y.base - x.base;
  Wide lowest = std::max(floorDiv(-y.len - d, step) + 1, 1 - x.count);
  Wide highest = std::min(ceilDiv(x.len - d, step) - 1, y.count - 1);
  return lowest <= highest;
}
