//===- NativeTensor.cpp - Host tensors in their memory layout -------------===//
//
// This file implements the native tensor: its conversions to and from the
// interpreter's Tensor, its .npy reading and writing (no per-element
// conversion for the types .npy holds as they are; a large file is mapped
// and used in place, a small one copied) and the output statistics
// `ktflow interp` prints, computed from the bits so that they equal those
// of the equal Tensor.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/NativeTensor.h"

#include "F16Summary.h"
#include "NpyFile.h"

#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ktflow::host;
using llvm::StringRef;

/// Tensors from this size on get pages of their own (mapAnonymous).
constexpr size_t kMappedBytes = size_t(1) << 20;

/// `n` bytes of zeroed pages, in huge pages where the system allows: the
/// kernel zeroes each page when it is first touched, so an output buffer
/// is written once (by the compiled code) rather than memset first, and
/// with huge pages it takes a fault per 2 MiB instead of per 4 KiB.
static std::shared_ptr<void> mapAnonymous(size_t n) {
  void *p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
#ifdef MADV_HUGEPAGE
  ::madvise(p, n, MADV_HUGEPAGE);
#endif
  return std::shared_ptr<void>(p, [n](void *q) { ::munmap(q, n); });
}

NativeTensor::NativeTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                           bool zeroed)
    : dtype(dtype), shape(shape.begin(), shape.end()) {
  // Never a null buffer, even for no elements.
  size_t n = std::max<size_t>(numBytes(), 1);
  if (n >= kMappedBytes)
    storage = mapAnonymous(n);
  else
    storage = std::shared_ptr<void>(zeroed ? std::calloc(n, 1) : std::malloc(n),
                                    [](void *p) { std::free(p); });
  if (!storage)
    llvm::report_bad_alloc_error("cannot allocate a native tensor");
  elements = static_cast<uint8_t *>(storage.get());
}

uint64_t NativeTensor::getBits(int64_t i) const {
  uint64_t bits = 0;
  size_t width = getElementBytes();
  std::memcpy(&bits, data() + i * width, width);
  return bits;
}

double NativeTensor::getDouble(int64_t i) const {
  uint64_t bits = getBits(i);
  if (isFloat(dtype))
    return bitsToFloat(bits, dtype);
  return static_cast<double>(wrapInt(static_cast<int64_t>(bits), dtype));
}

int64_t NativeTensor::getInt(int64_t i) const {
  if (isFloat(dtype))
    return floatToInt(getDouble(i), DType::I64, false);
  return wrapInt(static_cast<int64_t>(getBits(i)), dtype);
}

NativeTensor NativeTensor::fromTensor(const Tensor &tensor) {
  NativeTensor native(tensor.dtype, tensor.shape, /*zeroed=*/false);
  int64_t n = tensor.numElements();
  size_t width = native.getElementBytes();
  uint8_t *out = native.data();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = isFloat(tensor.dtype)
                        ? floatToBits(tensor.floats[i], tensor.dtype)
                        : zeroExtend(tensor.ints[i], tensor.dtype);
    std::memcpy(out + i * width, &bits, width);
  }
  return native;
}

Tensor NativeTensor::toTensor() const {
  Tensor tensor;
  tensor.dtype = dtype;
  tensor.shape = shape;
  int64_t n = numElements();
  if (isFloat(dtype)) {
    tensor.floats.resize(n);
    for (int64_t i = 0; i < n; ++i)
      tensor.floats[i] = bitsToFloat(getBits(i), dtype);
  } else {
    tensor.ints.resize(n);
    for (int64_t i = 0; i < n; ++i)
      tensor.ints[i] = wrapInt(static_cast<int64_t>(getBits(i)), dtype);
  }
  return tensor;
}

NativeTensor NativeTensor::clone() const {
  NativeTensor copy(dtype, shape, /*zeroed=*/false);
  std::memcpy(copy.data(), data(), numBytes());
  return copy;
}

llvm::Expected<NativeTensor> ktflow::host::parseNpyNative(StringRef bytes) {
  llvm::Expected<NpyLayout> layout = parseNpyLayout(bytes);
  if (!layout)
    return layout.takeError();
  NativeTensor tensor(layout->dtype, layout->shape, /*zeroed=*/false);
  // .npy holds every type it has in its native bits (little-endian hosts
  // only, as everywhere in ktflow).
  std::memcpy(tensor.data(), layout->payload.data(), layout->payload.size());
  if (layout->dtype == DType::I1) {
    // Numpy bools are any non-zero byte.
    uint8_t *p = tensor.data();
    for (size_t i = 0, n = layout->payload.size(); i < n; ++i)
      p[i] = p[i] != 0;
  }
  return tensor;
}

/// A read-only private mapping of the whole file at `path`, or null where
/// mapping fails (the caller then reads the file). Its pages are mapped as
/// they are touched, by the threads that read them: each fault maps the
/// cached pages around it (fault-around, 16 by default), which took 3-4
/// ms for a 40 MB file where MAP_POPULATE's page-by-page walk took 4-16
/// ms on the calling thread.
static std::shared_ptr<void> mapFile(StringRef path, size_t &size) {
  int fd = ::open(path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return nullptr;
  struct stat st;
  std::shared_ptr<void> mapping;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<size_t>(st.st_size) >= kMappedBytes) {
    size = st.st_size;
    void *p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED)
      mapping =
          std::shared_ptr<void>(p, [n = size](void *q) { ::munmap(q, n); });
  }
  ::close(fd);
  return mapping;
}

llvm::Expected<NativeTensor> ktflow::host::readNpyFileNative(StringRef path) {
  // A large file is used in place: its payload becomes the tensor's
  // (read-only) elements, never copied unless the tensor is cloned.
  // Numpy bools (any non-zero byte) and payloads not aligned to their
  // element width are copied instead.
  size_t size = 0;
  if (std::shared_ptr<void> mapping = mapFile(path, size)) {
    StringRef bytes(static_cast<const char *>(mapping.get()), size);
    llvm::Expected<NpyLayout> layout = parseNpyLayout(bytes);
    if (!layout)
      return inNpyFile(path, layout.takeError());
    size_t offset = layout->payload.data() - bytes.data();
    if (layout->dtype != DType::I1 && offset % byteSize(layout->dtype) == 0)
      return NativeTensor(
          layout->dtype, layout->shape,
          const_cast<uint8_t *>(
              reinterpret_cast<const uint8_t *>(layout->payload.data())),
          std::move(mapping));
    llvm::Expected<NativeTensor> copied = parseNpyNative(bytes);
    if (!copied)
      return inNpyFile(path, copied.takeError());
    return copied;
  }
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readNpyBytes(path);
  if (!buffer)
    return buffer.takeError();
  llvm::Expected<NativeTensor> tensor = parseNpyNative((*buffer)->getBuffer());
  if (!tensor)
    return inNpyFile(path, tensor.takeError());
  return tensor;
}

/// Whether .npy holds elements of `dtype` in their native bits (bf16 and
/// df16 are written as f32).
static bool npyHoldsNativeBits(DType dtype) {
  return npyStorageType(dtype) == dtype || dtype == DType::Index;
}

/// Calls `sink` with the .npy payload of `tensor`, in pieces.
static void forEachPayloadPiece(const NativeTensor &tensor,
                                llvm::function_ref<void(StringRef)> sink) {
  if (npyHoldsNativeBits(tensor.getDType())) {
    sink(StringRef(reinterpret_cast<const char *>(tensor.data()),
                   tensor.numBytes()));
    return;
  }
  // Converted a block at a time, as serializeNpy converts the Tensor.
  DType stored = npyStorageType(tensor.getDType());
  size_t width = byteSize(stored);
  int64_t n = tensor.numElements();
  std::string block;
  for (int64_t first = 0; first < n; first += 4096) {
    block.clear();
    for (int64_t i = first, e = std::min(n, first + 4096); i < e; ++i) {
      uint64_t bits = floatToBits(tensor.getDouble(i), stored);
      block.append(reinterpret_cast<const char *>(&bits), width);
    }
    sink(block);
  }
}

llvm::Error ktflow::host::writeNpyFile(StringRef path,
                                       const NativeTensor &tensor) {
  return writeOutputFile(path, [&](llvm::raw_ostream &os) {
    os << npyHeader(tensor.getDType(), tensor.getShape());
    forEachPayloadPiece(tensor, [&](StringRef piece) { os << piece; });
  });
}

namespace {
/// Min, max and sum of the non-NaN elements, in element order.
struct Accumulator {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  double sum = 0;
  int64_t counted = 0, nans = 0;

  void add(double v) {
    if (std::isnan(v)) {
      ++nans;
      return;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
    ++counted;
  }
};
} // namespace

template <typename Bits>
static void accumulateElements(const NativeTensor &tensor, Accumulator &acc) {
  DType dtype = tensor.getDType();
  const auto *elements = reinterpret_cast<const Bits *>(tensor.data());
  int64_t n = tensor.numElements();
  if (isFloat(dtype)) {
    for (int64_t i = 0; i < n; ++i)
      acc.add(bitsToFloat(elements[i], dtype));
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    acc.add(static_cast<double>(
        wrapInt(static_cast<int64_t>(uint64_t(elements[i])), dtype)));
}

/// Tensors from this size on get their checksum on a thread of its own,
/// beside the pass that takes their minimum, maximum and sum.
constexpr size_t kConcurrentChecksumBytes = size_t(1) << 20;

TensorStats ktflow::host::computeStats(const NativeTensor &tensor) {
  TensorStats stats;
  // The checksum covers exactly the bytes of the tensor's .npy payload
  // (computeStats of a Tensor).
  auto checksum = [&] {
    if (npyHoldsNativeBits(tensor.getDType()))
      return payloadChecksum(llvm::ArrayRef(tensor.data(), tensor.numBytes()));
    std::string payload;
    forEachPayloadPiece(tensor, [&](StringRef piece) { payload += piece; });
    return payloadChecksum(llvm::arrayRefFromStringRef(payload));
  };
  std::thread hashing;
  if (tensor.numBytes() >= kConcurrentChecksumBytes)
    hashing = std::thread([&] { stats.checksum = checksum(); });
  else
    stats.checksum = checksum();

  Accumulator acc;
  bool done = false;
  if (tensor.getDType() == DType::F16) {
    done = summariseF16OutOfOrder(
        reinterpret_cast<const uint16_t *>(tensor.data()), tensor.numElements(),
        acc.lo, acc.hi, acc.sum);
    if (done)
      acc.counted = tensor.numElements();
  }
  if (!done) {
    acc = Accumulator();
    switch (tensor.getElementBytes()) {
    case 1:
      accumulateElements<uint8_t>(tensor, acc);
      break;
    case 2:
      accumulateElements<uint16_t>(tensor, acc);
      break;
    case 4:
      accumulateElements<uint32_t>(tensor, acc);
      break;
    default:
      accumulateElements<uint64_t>(tensor, acc);
      break;
    }
  }
  if (hashing.joinable())
    hashing.join();
  stats.nanCount = acc.nans;
  if (acc.counted) {
    stats.min = acc.lo;
    stats.max = acc.hi;
    stats.mean = acc.sum / static_cast<double>(acc.counted);
  }
  return stats;
}

void ktflow::host::printTensorSummary(llvm::raw_ostream &os, StringRef name,
                                      const NativeTensor &tensor) {
  printStatsLine(os, name, tensor.getShape(), tensor.getDType(),
                 computeStats(tensor));
}
