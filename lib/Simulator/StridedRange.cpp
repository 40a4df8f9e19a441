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

/// `r` as one level of rows: its levels (rows, planes) with non-negative
/// steps, those that repeat one address dropped, the finer merged into the
/// row length when its rows touch, or into the coarser when that continues
/// it; two levels left are the box. Each level's extent is below 2^65
/// (mayOverlap), so no value here overflows.
static Rows normalise(const StridedRange &r) {
  Wide base = r.addr, len = r.bytes;
  struct Level {
    Wide count, step;
  };
  Level levels[2] = {};
  unsigned n = 0;
  for (Level l : {Level{r.rows, r.stride}, Level{r.planes, r.planeStride}}) {
    if (l.count == 1 || l.step == 0)
      continue;
    if (l.step < 0) {
      base += (l.count - 1) * l.step;
      l.step = -l.step;
    }
    levels[n++] = l;
  }
  if (n == 2 && levels[1].step < levels[0].step)
    std::swap(levels[0], levels[1]);
  if (n >= 1 && levels[0].step <= len) {
    // The finest rows touch: each block of them is one row.
    len += (levels[0].count - 1) * levels[0].step;
    levels[0] = levels[1];
    --n;
    if (n == 1 && levels[0].step <= len)
      return {base, 0, (levels[0].count - 1) * levels[0].step + len, 1};
  }
  if (n == 2 && levels[1].step == levels[0].count * levels[0].step) {
    // The coarser level continues the finer one's rows.
    levels[0].count *= levels[1].count;
    n = 1;
  }
  if (n == 0)
    return {base, 0, len, 1};
  if (n == 1)
    return {base, levels[0].step, len, levels[0].count};
  Wide extent = (levels[0].count - 1) * levels[0].step +
                (levels[1].count - 1) * levels[1].step + len;
  return {base, 0, extent, 1};
}

/// Whether `r` has planes and a level reaching past 2^65 bytes: only a
/// transfer that fails its bounds check before it moves anything.
static bool isHuge(const StridedRange &r) {
  if (r.planes == 1 || r.planeStride == 0)
    return false;
  constexpr Wide kFar = Wide(1) << 65;
  auto far = [&](int64_t count, int64_t step) {
    Wide magnitude = step < 0 ? -Wide(step) : Wide(step);
    return count > 1 && (Wide(count) - 1) * magnitude > kFar;
  };
  return far(r.rows, r.stride) || far(r.planes, r.planeStride);
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
  if (a.memory != b.memory || a.rows <= 0 || a.bytes <= 0 || a.planes <= 0 ||
      b.rows <= 0 || b.bytes <= 0 || b.planes <= 0)
    return false;
  if (isHuge(a) || isHuge(b))
    return true;
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
