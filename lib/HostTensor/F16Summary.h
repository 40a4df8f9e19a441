//===- F16Summary.h - Min, max and sum of f16 elements out of order -*- C++
//-*-===//
//
// This file declares the fast path of the output statistics of f16 tensors
// (NativeTensor.cpp's computeStats): the minimum, maximum and sum of the
// elements computed out of element order, where that gives the bits of the
// sequential loop.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_HOSTTENSOR_F16SUMMARY_H
#define KTFLOW_LIB_HOSTTENSOR_F16SUMMARY_H

#include <cstdint>

namespace ktflow::host {

/// The smallest and largest of the `n` f16 values at `elements` and their
/// sum, equal to the sequential loop's: every f16 is a multiple of 2^-24
/// below 2^16, so while the sum of the magnitudes stays below 2^29 every
/// partial sum, in any order, is exact in a double. Fails (for the
/// sequential loop) on no elements, infinities and NaNs and larger sums.
bool summariseF16OutOfOrder(const uint16_t *elements, int64_t n, double &lo,
                            double &hi, double &sum);

} // namespace ktflow::host

#endif // KTFLOW_LIB_HOSTTENSOR_F16SUMMARY_H
