//===- Memory.cpp - Global memory and scratchpads of the interpreter ------===//
//
// This file implements the regions of the interpreter's memories (their
// storage, growth and contents) and their deterministic initial values.
// Generated values come from host::initialFloat and initialInt, keyed by
// (seed, region, element index), so a region that grows in several steps
// gets the same values as one allocated at once. How the addresses of a
// view find or create their region is in MemorySpace.cpp.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::interp;

uint64_t MemRegion::stream() const {
  // Each region draws from its own stream: the seed mixed with the
  // argument position (or the literal address).
  return host::inputStream(seed, argIndex >= 0
                                     ? host::InputIdentity::argument(argIndex)
                                     : host::InputIdentity::address(base));
}

static bool isGenerated(const InputSpec &init) {
  return init.kind != InputSpec::Kind::Zeros &&
         init.kind != InputSpec::Kind::Default;
}

void MemRegion::backWithOwnPages(MemoryBudget &budget) {
  ownPages = std::make_unique<PagedBytes>(
      budget, [this](int64_t first, uint8_t *page) { fillPage(first, page); });
  store = ownPages.get();
  encoded = false;
}

void MemRegion::backWithBytes(PagedBytes &bytes) {
  ownPages.reset();
  store = &bytes;
  encoded = true;
}

void MemRegion::fillPage(int64_t firstByte, uint8_t *page) {
  constexpr int64_t n = PagedBytes::kPageBytes / 8;
  int64_t first = firstByte / 8;
  if (!dtype || !isGenerated(init)) {
    std::memset(page, 0, PagedBytes::kPageBytes);
    return;
  }
  uint64_t key = stream();
  if (isFloat(*dtype)) {
    initialFloats(init, key, first, n, *dtype,
                  reinterpret_cast<double *>(page));
  } else {
    auto *ints = reinterpret_cast<int64_t *>(page);
    for (int64_t i = 0; i < n; ++i)
      ints[i] = initialInt(init, key, first + i, *dtype);
  }
}

void MemRegion::writeInitialValues(int64_t from, int64_t to) {
  if (!encoded || !dtype || !isGenerated(init))
    return;
  // Pages not backed yet get these values when first touched
  // (fillEncodedPage); only backed ones are written now.
  uint64_t key = stream();
  int64_t n = byteSize(*dtype);
  for (int64_t i = from; i < to;) {
    int64_t byte = (base + i) * n;
    int64_t pageEnd = ((byte >> PagedBytes::kPageBits) + 1)
                      << PagedBytes::kPageBits;
    int64_t stop = std::min(to, pageEnd / n - base);
    if (store->isBacked(byte))
      for (; i < stop; ++i)
        storeBits(i, initialBits(init, key, i, *dtype));
    i = stop;
  }
}

void MemRegion::fillEncodedPage(int64_t firstByte, uint8_t *page) const {
  if (!encoded || !dtype || !isGenerated(init))
    return;
  int64_t n = byteSize(*dtype);
  int64_t from = std::max<int64_t>(0, firstByte / n - base);
  int64_t to =
      std::min(length, (firstByte + PagedBytes::kPageBytes) / n - base);
  uint64_t key = stream();
  for (int64_t i = from; i < to; ++i) {
    uint64_t bits = initialBits(init, key, i, *dtype);
    std::memcpy(page + (base + i) * n - firstByte, &bits, n);
  }
}

void MemRegion::growTo(int64_t newSize) {
  if (newSize <= length || !dtype)
    return;
  // Pages get their initial values when first touched; shared bytes of
  // literal memory that are already backed are written now.
  int64_t old = length;
  length = newSize;
  writeInitialValues(old, newSize);
}

std::pair<int64_t, int64_t> MemRegion::byteRange() const {
  if (!encoded || !dtype)
    return {0, 0};
  int64_t n = byteSize(*dtype);
  return {base * n, (base + length) * n};
}

/// The shape a region's contents are reported in: its .npy shape or the
/// shape its extent defines (flat when neither covers it).
static llvm::SmallVector<int64_t, 4> reportedShape(const MemRegion &region) {
  int64_t n = region.size();
  ktflow::TensorExtent declared = region.extent.get();
  if (!region.shape.empty() && productOf(region.shape) == n)
    return region.shape;
  if (declared.numElements == n)
    return llvm::SmallVector<int64_t, 4>(declared.shape);
  return {n};
}

llvm::Expected<ktflow::host::NativeTensor>
MemRegion::initialNative(std::shared_ptr<host::PageBudget> pages) const {
  DType type = dtype.value_or(DType::F32);
  if (!isGenerated(init))
    return ktflow::host::NativeTensor(type, reportedShape(*this),
                                      /*zeroed=*/true);
  uint64_t key = stream();
  size_t width = byteSize(type);
  auto generate = [init = init, key, type, width](int64_t first, int64_t count,
                                                  uint8_t *out) {
    if (!isFloat(type) || init.kind == InputSpec::Kind::Data) {
      for (int64_t i = 0; i < count; ++i) {
        uint64_t bits = initialBits(init, key, first + i, type);
        std::memcpy(out + i * width, &bits, width);
      }
      return;
    }
    // As the interpreter's pages are filled, a block at a time (on the
    // stack: this runs in a signal handler, GeneratedPages.h).
    constexpr int64_t kBlock = 256;
    double block[kBlock];
    for (int64_t start = 0; start < count; start += kBlock) {
      int64_t n = std::min(kBlock, count - start);
      initialFloats(init, key, first + start, n, type, block);
      for (int64_t i = 0; i < n; ++i) {
        uint64_t bits = floatToBits(block[i], type);
        std::memcpy(out + (start + i) * width, &bits, width);
      }
    }
  };
  if (init.kind != InputSpec::Kind::Data)
    return host::makeGeneratedTensor(type, reportedShape(*this), generate,
                                     std::move(pages));
  // A literal region's .npy data (and zeros past it), whole.
  ktflow::host::NativeTensor t(type, reportedShape(*this), /*zeroed=*/false);
  generate(0, size(), t.data());
  return t;
}

Tensor MemRegion::toTensor() {
  Tensor t;
  t.dtype = dtype.value_or(DType::F32);
  int64_t n = size();
  t.shape = reportedShape(*this);
  // Reading must not back pages (an output may be mostly untouched, and the
  // memory ceiling no longer applies here): untouched elements hold their
  // initial values.
  int64_t elementBytes = encoded ? byteSize(t.dtype) : 8;
  int64_t offset = encoded ? base : 0;
  bool generated = isGenerated(init);
  uint64_t key = stream();
  auto backed = [&](int64_t i) {
    return store && store->isBacked((offset + i) * elementBytes);
  };
  if (isFloat(t.dtype)) {
    t.floats.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      if (backed(i)) {
        t.floats[i] = getFloat(i);
      } else if (generated) {
        t.floats[i] = initialFloat(init, key, i, t.dtype);
      }
    }
  } else {
    t.ints.resize(n);
    for (int64_t i = 0; i < n; ++i)
      t.ints[i] = backed(i)   ? getInt(i)
                  : generated ? initialInt(init, key, i, t.dtype)
                              : 0;
  }
  return t;
}
