//===- F16Summary.cpp - Min, max and sum of f16 elements out of order -----===//
//
// This file computes the minimum, maximum and sum of a buffer of finite f16
// values in one pass out of element order (F16Summary.h), on AVX2 and F16C
// where the host has them (the driver is built for baseline x86-64, so the
// scan is compiled for those features and chosen at run time), in 16-bit
// and double lanes of portable C++ elsewhere.
//
//===----------------------------------------------------------------------===//

#include "F16Summary.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define KTFLOW_F16_SCAN_AVX2 1
#endif

using namespace ktflow::host;

namespace {
/// What one pass over the elements gathers: the smallest and largest order
/// keys and the sums of the values and of their magnitudes (meaningful
/// when every element is finite).
struct Scan {
  int16_t lo = std::numeric_limits<int16_t>::max();
  int16_t hi = std::numeric_limits<int16_t>::min();
  double sum = 0, magnitudes = 0;
};
} // namespace

/// An f16 as a signed 16-bit key in the order of its value: sign and
/// magnitude become two's complement (+0 and -0 both become 0; infinities
/// and NaNs lie beyond +-0x7c00).
static int16_t orderKey(uint16_t h) {
  int16_t magnitude = int16_t(h & 0x7fff);
  return h & 0x8000 ? int16_t(-magnitude) : magnitude;
}

/// The value of a finite f16: its exponent and mantissa moved into an
/// f32's and scaled by 2^112, exact for normal and subnormal values.
static float decodeF16(uint16_t h) {
  return llvm::bit_cast<float>((uint32_t(h & 0x8000) << 16) |
                               (uint32_t(h & 0x7fff) << 13)) *
         0x1p112f;
}

/// Elements [first, n) added to `scan` one by one.
static void scanTail(const uint16_t *elements, int64_t first, int64_t n,
                     Scan &scan) {
  for (int64_t i = first; i < n; ++i) {
    int16_t key = orderKey(elements[i]);
    scan.lo = std::min(scan.lo, key);
    scan.hi = std::max(scan.hi, key);
    double v = decodeF16(elements[i]);
    scan.sum += v;
    scan.magnitudes += std::fabs(v);
  }
}

/// Portable lanes the compiler vectorises as far as the target allows.
static Scan scanPortable(const uint16_t *elements, int64_t n) {
  constexpr int kLanes = 8;
  int16_t lo[kLanes], hi[kLanes];
  double sum[kLanes] = {}, magnitudes[kLanes] = {};
  std::fill(lo, lo + kLanes, std::numeric_limits<int16_t>::max());
  std::fill(hi, hi + kLanes, std::numeric_limits<int16_t>::min());
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int lane = 0; lane < kLanes; ++lane) {
      uint16_t h = elements[i + lane];
      lo[lane] = std::min(lo[lane], orderKey(h));
      hi[lane] = std::max(hi[lane], orderKey(h));
      sum[lane] += decodeF16(h);
      magnitudes[lane] += decodeF16(h & 0x7fff);
    }
  Scan scan;
  for (int lane = 0; lane < kLanes; ++lane) {
    scan.lo = std::min(scan.lo, lo[lane]);
    scan.hi = std::max(scan.hi, hi[lane]);
    scan.sum += sum[lane];
    scan.magnitudes += magnitudes[lane];
  }
  scanTail(elements, i, n, scan);
  return scan;
}

#ifdef KTFLOW_F16_SCAN_AVX2
/// 16 elements a step: order keys in 16-bit lanes, values converted by
/// F16C and summed in four vectors of double lanes.
__attribute__((target("avx2,f16c"))) static Scan
scanAvx2(const uint16_t *elements, int64_t n) {
  __m256i lo = _mm256_set1_epi16(std::numeric_limits<int16_t>::max());
  __m256i hi = _mm256_set1_epi16(std::numeric_limits<int16_t>::min());
  const __m256i magnitudeMask = _mm256_set1_epi16(0x7fff);
  const __m256d absMask =
      _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  __m256d sum[4], magnitudes[4];
  for (int k = 0; k < 4; ++k)
    sum[k] = magnitudes[k] = _mm256_setzero_pd();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i h =
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(elements + i));
    // Sign and magnitude to two's complement: (m ^ s) - s, s = 0 or -1.
    __m256i sign = _mm256_srai_epi16(h, 15);
    __m256i key = _mm256_sub_epi16(
        _mm256_xor_si256(_mm256_and_si256(h, magnitudeMask), sign), sign);
    lo = _mm256_min_epi16(lo, key);
    hi = _mm256_max_epi16(hi, key);
    __m256 halves[2] = {_mm256_cvtph_ps(_mm256_castsi256_si128(h)),
                        _mm256_cvtph_ps(_mm256_extracti128_si256(h, 1))};
    for (int k = 0; k < 4; ++k) {
      __m128 quarter = k % 2 ? _mm256_extractf128_ps(halves[k / 2], 1)
                             : _mm256_castps256_ps128(halves[k / 2]);
      __m256d v = _mm256_cvtps_pd(quarter);
      sum[k] = _mm256_add_pd(sum[k], v);
      magnitudes[k] = _mm256_add_pd(magnitudes[k], _mm256_and_pd(v, absMask));
    }
  }
  Scan scan;
  alignas(32) int16_t los[16], his[16];
  _mm256_store_si256(reinterpret_cast<__m256i *>(los), lo);
  _mm256_store_si256(reinterpret_cast<__m256i *>(his), hi);
  scan.lo = *std::min_element(los, los + 16);
  scan.hi = *std::max_element(his, his + 16);
  alignas(32) double lanes[4];
  for (int k = 0; k < 4; ++k) {
    _mm256_store_pd(lanes, sum[k]);
    scan.sum += lanes[0] + lanes[1] + lanes[2] + lanes[3];
    _mm256_store_pd(lanes, magnitudes[k]);
    scan.magnitudes += lanes[0] + lanes[1] + lanes[2] + lanes[3];
  }
  scanTail(elements, i, n, scan);
  return scan;
}
#endif

static Scan scan(const uint16_t *elements, int64_t n) {
#ifdef KTFLOW_F16_SCAN_AVX2
  static const bool avx2 =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  if (avx2)
    return scanAvx2(elements, n);
#endif
  return scanPortable(elements, n);
}

bool ktflow::host::summariseF16OutOfOrder(const uint16_t *elements, int64_t n,
                                          double &lo, double &hi, double &sum) {
  if (n == 0)
    return false;
  Scan s = scan(elements, n);
  constexpr int16_t kInfinityKey = 0x7c00;
  if (s.lo <= -kInfinityKey || s.hi >= kInfinityKey)
    return false;
  // Below 2^29 every partial sum of multiples of 2^-24 is exact, whatever
  // the order; a sum of magnitudes that reaches it computes as at least it
  // (rounding is monotonic), so the test never passes wrongly.
  if (s.magnitudes >= 0x1p29)
    return false;
  // A zero minimum or maximum keeps the sign of the first zero in element
  // order: the sequential loop's std::min / std::max replace it by no
  // other zero.
  auto valueOf = [&](int16_t key) {
    if (key == 0)
      return double(decodeF16(*std::find_if(
          elements, elements + n, [](uint16_t h) { return !(h & 0x7fff); })));
    return double(decodeF16(key < 0 ? uint16_t(0x8000 | -key) : key));
  };
  lo = valueOf(s.lo);
  hi = valueOf(s.hi);
  sum = s.sum;
  return true;
}
