//===- Tensor.cpp - Dense host tensors ------------------------------------===//
//
// This file implements the host tensor's helpers and the statistics
// `ktflow interp` prints for its outputs.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/Tensor.h"

#include "ktflow/HostTensor/Npy.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace ktflow::host;

Tensor Tensor::zeros(DType dtype, llvm::ArrayRef<int64_t> shape) {
  Tensor t;
  t.dtype = dtype;
  t.shape.assign(shape.begin(), shape.end());
  int64_t n = productOf(shape);
  if (isFloat(dtype))
    t.floats.assign(n, 0.0);
  else
    t.ints.assign(n, 0);
  return t;
}

int64_t Tensor::numElements() const { return productOf(shape); }

double Tensor::getDouble(int64_t i) const {
  return isFloat(dtype) ? floats[i] : static_cast<double>(ints[i]);
}

int64_t Tensor::getInt(int64_t i) const {
  return isFloat(dtype) ? floatToInt(floats[i], DType::I64, false) : ints[i];
}

void Tensor::setDouble(int64_t i, double v) {
  if (isFloat(dtype))
    floats[i] = roundToDType(v, dtype);
  else
    ints[i] = wrapInt(floatToInt(v, DType::I64, false), dtype);
}

llvm::SmallVector<int64_t, 4>
ktflow::host::rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

int64_t ktflow::host::productOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

std::string ktflow::host::formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += "x";
    s += std::to_string(d);
  }
  return s;
}

uint64_t ktflow::host::payloadChecksum(llvm::ArrayRef<uint8_t> payload) {
  return llvm::xxh3_64bits(payload);
}

TensorStats ktflow::host::computeStats(const Tensor &tensor) {
  TensorStats stats;
  // The checksum covers exactly the bytes of the tensor's .npy payload
  // (serializeNpy's), so `--output` files can be compared with printed
  // lines; hashed element by element instead of building the file.
  DType stored = npyStorageType(tensor.dtype);
  unsigned width = byteSize(stored);
  std::vector<uint8_t> payload(tensor.numElements() * width);
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i) {
    uint64_t bits = isFloat(tensor.dtype)
                        ? floatToBits(tensor.floats[i], stored)
                        : static_cast<uint64_t>(tensor.ints[i]);
    std::memcpy(payload.data() + i * width, &bits, width);
  }
  stats.checksum = payloadChecksum(payload);

  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo, sum = 0;
  int64_t counted = 0, n = tensor.numElements();
  for (int64_t i = 0; i < n; ++i) {
    double v = tensor.getDouble(i);
    if (std::isnan(v)) {
      ++stats.nanCount;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
    ++counted;
  }
  if (counted) {
    stats.min = lo;
    stats.max = hi;
    stats.mean = sum / static_cast<double>(counted);
  }
  return stats;
}

void ktflow::host::printStatsLine(llvm::raw_ostream &os, llvm::StringRef name,
                                  llvm::ArrayRef<int64_t> shape, DType dtype,
                                  const TensorStats &stats) {
  os << name << ": shape=" << formatShape(shape)
     << " dtype=" << dtypeName(dtype)
     << " min=" << llvm::format("%.6g", stats.min)
     << " max=" << llvm::format("%.6g", stats.max)
     << " mean=" << llvm::format("%.6g", stats.mean)
     << " checksum=" << llvm::format_hex(stats.checksum, 18);
  if (stats.nanCount)
    os << " nan=" << stats.nanCount;
  os << "\n";
}

void ktflow::host::printTensorSummary(llvm::raw_ostream &os,
                                      llvm::StringRef name,
                                      const Tensor &tensor) {
  printStatsLine(os, name, tensor.shape, tensor.dtype, computeStats(tensor));
}

llvm::json::Object ktflow::host::statsToJSON(llvm::StringRef name,
                                             llvm::ArrayRef<int64_t> shape,
                                             DType dtype,
                                             const TensorStats &stats) {
  // NaN and infinities are not JSON numbers.
  auto number = [](double v) {
    return std::isfinite(v) ? llvm::json::Value(v) : llvm::json::Value(nullptr);
  };
  std::string checksum;
  llvm::raw_string_ostream(checksum) << llvm::format_hex(stats.checksum, 18);
  // json::Value keeps a StringRef without copying it: copy the name.
  return llvm::json::Object{
      {"name", name.str()},        {"shape", llvm::json::Array(shape)},
      {"dtype", dtypeName(dtype)}, {"min", number(stats.min)},
      {"max", number(stats.max)},  {"mean", number(stats.mean)},
      {"checksum", checksum},      {"nan", stats.nanCount}};
}
