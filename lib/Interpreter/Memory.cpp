//===- Memory.cpp - Global memory and scratchpads of the interpreter ------===//
//
// This file implements the regions of the interpreter's memories and their
// deterministic initial values. Generated values come from a counter-based
// generator keyed by (seed, region, element index), so a region that grows
// in several steps gets the same values as one allocated at once.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::interp;

static llvm::Error memoryError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static uint64_t splitMix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Uniform in [0, 1) for (stream, index, salt).
static double uniform01(uint64_t stream, int64_t index, uint64_t salt) {
  uint64_t key = splitMix(stream * 0x632be59bd9b4e019ull + salt);
  uint64_t bits = splitMix(key ^ static_cast<uint64_t>(index));
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

double ktflow::interp::initialFloat(const InputSpec &spec, uint64_t stream,
                                    int64_t index, DType dtype) {
  double v = 0;
  switch (spec.kind) {
  case InputSpec::Kind::Default:
  case InputSpec::Kind::Zeros:
    return 0.0;
  case InputSpec::Kind::Value:
    v = spec.value;
    break;
  case InputSpec::Kind::Uniform:
    v = -1.0 + 2.0 * uniform01(stream, index, 1);
    // Rounding to a narrow type may reach 1.0; keep the interval half-open.
    if (dtype != DType::F64 && roundToDType(v, dtype) >= 1.0)
      v = -v;
    break;
  case InputSpec::Kind::Normal: {
    double u1 = uniform01(stream, index, 2);
    double u2 = uniform01(stream, index, 3);
    v = std::sqrt(-2.0 * std::log1p(-u1)) * std::cos(2.0 * M_PI * u2);
    break;
  }
  case InputSpec::Kind::Range:
  case InputSpec::Kind::Sequence:
    v = static_cast<double>(initialInt(spec, stream, index, DType::I64));
    break;
  case InputSpec::Kind::Data:
    v = index < spec.data->numElements() ? spec.data->getDouble(index) : 0.0;
    break;
  }
  return roundToDType(v, dtype);
}

int64_t ktflow::interp::initialInt(const InputSpec &spec, uint64_t stream,
                                   int64_t index, DType dtype) {
  int64_t v = 0;
  switch (spec.kind) {
  case InputSpec::Kind::Default:
  case InputSpec::Kind::Zeros:
    return 0;
  case InputSpec::Kind::Value:
    v = static_cast<int64_t>(spec.value);
    break;
  case InputSpec::Kind::Uniform:
  case InputSpec::Kind::Normal:
    // Integer tensors get the float generator's value truncated.
    v = static_cast<int64_t>(initialFloat(spec, stream, index, DType::F64));
    break;
  case InputSpec::Kind::Range:
  case InputSpec::Kind::Sequence: {
    // In uint64_t: hi - lo and lo + offset may not fit in int64_t.
    uint64_t span =
        static_cast<uint64_t>(spec.hi) - static_cast<uint64_t>(spec.lo);
    uint64_t offset = static_cast<uint64_t>(index) % span;
    if (spec.kind == InputSpec::Kind::Range) {
      // double(span) may round up to 2^64: keep the offset below span.
      double u = uniform01(stream, index, 4);
      offset = std::min(static_cast<uint64_t>(u * static_cast<double>(span)),
                        span - 1);
    }
    v = static_cast<int64_t>(static_cast<uint64_t>(spec.lo) + offset);
    break;
  }
  case InputSpec::Kind::Data:
    v = index < spec.data->numElements() ? spec.data->getInt(index) : 0;
    break;
  }
  return wrapInt(v, dtype);
}

uint64_t MemRegion::stream() const {
  // Each region draws from its own stream: the seed mixed with the
  // argument position (or the literal address).
  return splitMix(seed) ^
         splitMix(argIndex >= 0 ? static_cast<uint64_t>(argIndex + 1)
                                : static_cast<uint64_t>(base) ^ (1ull << 63));
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
    auto *floats = reinterpret_cast<double *>(page);
    // Generate in double, then round the whole page in one pass.
    for (int64_t i = 0; i < n; ++i)
      floats[i] = initialFloat(init, key, first + i, DType::F64);
    roundArray(*dtype, floats, n);
    // Rounding may reach 1.0: keep `random` in [-1, 1).
    if (init.kind == InputSpec::Kind::Uniform)
      for (int64_t i = 0; i < n; ++i)
        if (floats[i] >= 1.0)
          floats[i] = -floats[i];
  } else {
    auto *ints = reinterpret_cast<int64_t *>(page);
    for (int64_t i = 0; i < n; ++i)
      ints[i] = initialInt(init, key, first + i, *dtype);
  }
}

/// The initial value of element `i` of a region, in the bits of `dtype`.
static uint64_t initialBits(const InputSpec &init, uint64_t key, int64_t i,
                            DType dtype) {
  if (!isFloat(dtype))
    return zeroExtend(initialInt(init, key, i, dtype), dtype);
  return floatToBits(initialFloat(init, key, i, dtype), dtype);
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

Tensor MemRegion::toTensor() {
  Tensor t;
  t.dtype = dtype.value_or(DType::F32);
  int64_t n = size();
  ktflow::TensorExtent declared = extent.get();
  if (!shape.empty() && productOf(shape) == n)
    t.shape = shape;
  else if (declared.numElements == n)
    t.shape = declared.shape;
  else
    t.shape = {n};
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

/// Whether a region holding `held` serves a view of element type `dtype`
/// (i64 and index are the same bytes).
static bool servesType(std::optional<DType> held, DType dtype) {
  if (!held || *held == dtype)
    return true;
  return (*held == DType::I64 && dtype == DType::Index) ||
         (*held == DType::Index && dtype == DType::I64);
}

MemRegion *MemorySpace::find(int64_t addr, std::optional<DType> dtype) {
  auto it = regions.upper_bound(addr);
  while (it != regions.begin()) {
    --it;
    MemRegion *r = it->second.get();
    if (addr < r->base + std::max<int64_t>(r->size(), 1) &&
        (!dtype || servesType(r->dtype, *dtype)))
      return r;
  }
  return nullptr;
}

void ktflow::interp::resolveDefaultSpec(InputSpec &spec, DType dtype,
                                        bool storeOnly) {
  if (spec.kind == InputSpec::Kind::Default)
    spec.kind = storeOnly || !isFloat(dtype) ? InputSpec::Kind::Zeros
                                             : InputSpec::Kind::Uniform;
}

MemRegion *MemorySpace::findAtOrBelow(int64_t addr, DType dtype) {
  auto it = regions.upper_bound(addr);
  while (it != regions.begin()) {
    --it;
    if (servesType(it->second->dtype, dtype))
      return it->second.get();
  }
  return nullptr;
}

void MemorySpace::fillLiteralPage(int64_t firstByte, uint8_t *page) {
  std::memset(page, 0, PagedBytes::kPageBytes);
  for (auto &entry : regions)
    entry.second->fillEncodedPage(firstByte, page);
}

MemRegion *MemorySpace::addRegion(std::unique_ptr<MemRegion> region) {
  MemRegion *raw = region.get();
  regions.emplace(raw->base, std::move(region));
  return raw;
}

void MemorySpace::eraseRegion(MemRegion *region) {
  auto [first, last] = regions.equal_range(region->base);
  for (auto it = first; it != last; ++it)
    if (it->second.get() == region) {
      regions.erase(it);
      return;
    }
}

/// Binds `region` to element type `dtype` (first binding fixes it).
static llvm::Error bindDType(MemRegion &region, DType dtype) {
  if (!region.dtype) {
    region.dtype = dtype;
    resolveDefaultSpec(region.init, dtype, region.storeOnly);
    return llvm::Error::success();
  }
  DType held = *region.dtype;
  if (held == dtype)
    return llvm::Error::success();
  bool intAlias = (held == DType::I64 && dtype == DType::Index) ||
                  (held == DType::Index && dtype == DType::I64);
  if (intAlias && !region.written)
    return llvm::Error::success();
  if (region.rebindableToNarrowFloat &&
      (dtype == DType::BF16 || dtype == DType::DF16)) {
    // float32 is how .npy files carry bf16/df16 data: round it once (no
    // page is filled before the first view binds the region).
    region.dtype = dtype;
    region.rebindableToNarrowFloat = false;
    return llvm::Error::success();
  }
  return memoryError(llvm::formatv(
      "type mismatch: a view of element type {0} addresses '{1}', which "
      "holds {2}",
      dtypeName(dtype), region.name, dtypeName(held)));
}

MemRegion *MemorySpace::addArgument(int argIndex, std::string argName,
                                 InputSpec init, std::optional<Tensor> data) {
  auto region = std::make_unique<MemRegion>();
  region->name = std::move(argName);
  region->base = static_cast<int64_t>(argIndex + 1) << kArgumentWindowBits;
  region->argIndex = argIndex;
  region->init = std::move(init);
  region->backWithOwnPages(budget);
  if (data) {
    // The file's values are the region's initial values.
    region->dtype = data->dtype;
    region->growable = false;
    region->rebindableToNarrowFloat = data->dtype == DType::F32;
    region->shape = data->shape;
    region->length = data->numElements();
  }
  return addRegion(std::move(region));
}

llvm::Expected<MemRegion *>
MemorySpace::bind(int64_t lo, int64_t hi, DType dtype, std::string *warning) {
  // Storage is lazy, so a view may declare far more than memory holds;
  // only addresses must stay representable in bytes.
  constexpr int64_t kMaxAddress = int64_t(1) << 59;
  if (hi >= kMaxAddress || hi - lo >= kMaxAddress)
    return memoryError(llvm::formatv(
        "the view reaches address {0}, past the interpreter's address space "
        "of 2^59 elements",
        hi));
  if (isGlobal && lo >= (int64_t(1) << kArgumentWindowBits)) {
    int64_t window = lo >> kArgumentWindowBits;
    auto it = regions.find(window << kArgumentWindowBits);
    if (it == regions.end())
      return memoryError(llvm::formatv(
          "address {0} is not inside any tensor argument", lo));
    MemRegion &region = *it->second;
    if ((hi >> kArgumentWindowBits) != window)
      return memoryError(llvm::formatv(
          "the view spans {0} elements past the start of '{1}', more than "
          "an argument's address window",
          hi - region.base + 1, region.name));
    if (llvm::Error err = bindDType(region, dtype))
      return std::move(err);
    // The region holds at least the elements its declared views reach.
    int64_t needed =
        std::max(hi - region.base + 1, region.extent.get().numElements);
    if (region.growable)
      region.growTo(needed);
    return &region;
  }
  if (lo < 0)
    return memoryError(llvm::formatv("negative address {0}", lo));
  if (!isGlobal) {
    int64_t bytes = (hi + 1) * static_cast<int64_t>(byteSize(dtype));
    if (bytes > capacityBytes)
      return memoryError(llvm::formatv(
          "scratchpad overflow: the view needs bytes [{0}, {1}) of {2}, "
          "whose capacity is {3} bytes",
          lo * static_cast<int64_t>(byteSize(dtype)), bytes, name,
          capacityBytes));
  }
  return bindLiteral(lo, hi, dtype, warning);
}

llvm::Expected<MemRegion *> MemorySpace::bindLiteral(int64_t lo, int64_t hi,
                                                     DType dtype,
                                                     std::string *warning) {
  // Every region of this element type overlapping [lo, hi] (in a
  // scratchpad, of any type); there are few, so scan them all.
  llvm::SmallVector<MemRegion *> overlapping;
  for (auto &entry : regions) {
    MemRegion *r = entry.second.get();
    if ((isGlobal && !servesType(r->dtype, dtype)) || r->base > hi ||
        lo > r->base + std::max<int64_t>(r->size(), 1) - 1)
      continue;
    overlapping.push_back(r);
  }
  for (MemRegion *r : overlapping)
    if (llvm::Error err = bindDType(*r, dtype))
      return std::move(err);
  MemRegion *result = nullptr;
  if (overlapping.size() == 1 && overlapping.front()->base <= lo) {
    result = overlapping.front();
    if (result->growable && hi >= result->base + result->size())
      result->growTo(hi - result->base + 1);
  } else {
    // Create one region covering [lo, hi] and everything it overlaps.
    int64_t newLo = lo, newHi = hi;
    for (MemRegion *r : overlapping) {
      newLo = std::min(newLo, r->base);
      newHi = std::max(newHi, r->base + r->size() - 1);
    }
    auto merged = std::make_unique<MemRegion>();
    merged->name = (isGlobal ? "@" : name + "@") + std::to_string(newLo);
    merged->base = newLo;
    merged->dtype = dtype;
    merged->init = InputSpec::zeros();
    merged->seed = seed;
    // Only an `@ADDR` input gives literal memory other values than zeros.
    auto known = literalInputs.find(newLo);
    if (known != literalInputs.end() &&
        known->second.kind != InputSpec::Kind::Default) {
      merged->init = known->second;
      if (const std::shared_ptr<const Tensor> &data = merged->init.data) {
        // A .npy file fixes the region's element type (float32 files feed
        // bf16/df16 views, rounded once) and its extent.
        DType held = data->dtype;
        if (!servesType(held, dtype) &&
            !(held == DType::F32 &&
              (dtype == DType::BF16 || dtype == DType::DF16)))
          return memoryError(llvm::formatv(
              "type mismatch: a view of element type {0} addresses '@{1}', "
              "which holds {2}",
              dtypeName(dtype), newLo, dtypeName(held)));
        merged->growable = false;
        merged->shape = data->shape;
        newHi = std::max(newHi, newLo + data->numElements() - 1);
      }
    }
    if (isGlobal) {
      // The bytes stay where they are: merging only renames them, and
      // initial values go only where no region was.
      merged->backWithBytes(literalBytes);
      merged->length = newHi - newLo + 1;
      llvm::SmallVector<std::pair<int64_t, int64_t>> held;
      for (MemRegion *r : overlapping)
        held.push_back({r->base - newLo, r->base - newLo + r->size()});
      llvm::sort(held);
      int64_t next = 0;
      for (auto [from, to] : held) {
        merged->writeInitialValues(next, std::max(next, from));
        next = std::max(next, to);
      }
      merged->writeInitialValues(next, merged->length);
      for (MemRegion *r : overlapping) {
        merged->written |= r->written;
        eraseRegion(r);
      }
    } else {
      merged->backWithOwnPages(budget);
      merged->growTo(newHi - newLo + 1);
      for (MemRegion *r : overlapping) {
        int64_t at = r->base - newLo;
        for (int64_t i = 0; i < r->size(); ++i) {
          if (isFloat(dtype))
            merged->setFloat(at + i, r->getFloat(i));
          else
            merged->setInt(at + i, r->getInt(i));
        }
        merged->written |= r->written;
        eraseRegion(r);
      }
    }
    result = addRegion(std::move(merged));
  }
  if (!isGlobal || !warning)
    return result;
  // Literal memory is untyped bytes: views of other element types may
  // overlap it, and each reads the other's stores reinterpreted.
  auto [first, last] = result->byteRange();
  for (auto &entry : regions) {
    MemRegion *r = entry.second.get();
    if (r == result || servesType(r->dtype, dtype) || r->argIndex >= 0)
      continue;
    auto [rFirst, rLast] = r->byteRange();
    if (rFirst >= last || first >= rLast)
      continue;
    auto names = std::minmax(result->name + " " + dtypeName(dtype).str(),
                             r->name + " " + dtypeName(*r->dtype).str());
    if (!reportedOverlaps.insert(names).second)
      continue;
    *warning = llvm::formatv(
        "the {0} elements at '{1}' (bytes [{2}, {3})) overlap the {4} "
        "elements at '{5}' (bytes [{6}, {7})): literal-address memory is "
        "untyped bytes, so each view reads what the other stores, "
        "reinterpreted",
        dtypeName(dtype), result->name, first, last, dtypeName(*r->dtype),
        r->name, rFirst, rLast);
    break;
  }
  return result;
}
