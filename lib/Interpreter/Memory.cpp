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

void MemRegion::growTo(int64_t newSize) {
  int64_t old = size();
  if (newSize <= old || !dtype)
    return;
  // Each region draws from its own stream: the seed mixed with the
  // argument position (or the literal address).
  uint64_t stream =
      splitMix(seed) ^
      splitMix(argIndex >= 0 ? static_cast<uint64_t>(argIndex + 1)
                             : static_cast<uint64_t>(base) ^ (1ull << 63));
  bool generated = init.kind != InputSpec::Kind::Zeros &&
                   init.kind != InputSpec::Kind::Default;
  if (isFloat(*dtype)) {
    floats.resize(newSize);
    if (!generated)
      return;
    // Generate in double, then round the whole range in one pass.
    InputSpec raw = init;
    for (int64_t i = old; i < newSize; ++i)
      floats[i] = initialFloat(raw, stream, i, DType::F64);
    roundArray(*dtype, floats.data() + old, newSize - old);
    // Rounding may reach 1.0: keep `random` in [-1, 1).
    if (init.kind == InputSpec::Kind::Uniform)
      for (int64_t i = old; i < newSize; ++i)
        if (floats[i] >= 1.0)
          floats[i] = -floats[i];
  } else {
    ints.resize(newSize);
    if (generated)
      for (int64_t i = old; i < newSize; ++i)
        ints[i] = initialInt(init, stream, i, *dtype);
  }
}

Tensor MemRegion::toTensor() const {
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
  t.floats = floats;
  t.ints = ints;
  return t;
}

MemRegion *MemorySpace::find(int64_t addr) {
  auto it = regions.upper_bound(addr);
  if (it == regions.begin())
    return nullptr;
  --it;
  MemRegion *r = it->second.get();
  return addr < r->base + std::max<int64_t>(r->size(), 1) ? r : nullptr;
}

void ktflow::interp::resolveDefaultSpec(InputSpec &spec, DType dtype,
                                        bool storeOnly) {
  if (spec.kind == InputSpec::Kind::Default)
    spec.kind = storeOnly || !isFloat(dtype) ? InputSpec::Kind::Zeros
                                             : InputSpec::Kind::Uniform;
}

MemRegion *MemorySpace::findAtOrBelow(int64_t addr) {
  auto it = regions.upper_bound(addr);
  if (it == regions.begin())
    return nullptr;
  return std::prev(it)->second.get();
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
    // float32 is how .npy files carry bf16/df16 data: round it once.
    region.dtype = dtype;
    roundArray(dtype, region.floats.data(), region.floats.size());
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
  if (data) {
    region->dtype = data->dtype;
    region->growable = false;
    region->rebindableToNarrowFloat = data->dtype == DType::F32;
    region->shape = data->shape;
    region->floats = std::move(data->floats);
    region->ints = std::move(data->ints);
  }
  MemRegion *raw = region.get();
  regions[raw->base] = std::move(region);
  return raw;
}

llvm::Expected<MemRegion *> MemorySpace::bind(int64_t lo, int64_t hi,
                                           DType dtype) {
  // Regions are allocated for real: refuse sizes that would exhaust memory.
  constexpr int64_t kMaxRegionElements = int64_t(1) << 28;
  if (hi - lo >= kMaxRegionElements)
    return memoryError(llvm::formatv(
        "the view spans {0} elements, more than the interpreter's limit of "
        "2^28",
        hi - lo + 1));
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
    if (region.growable && needed > kMaxRegionElements)
      return memoryError(llvm::formatv(
          "the views of '{1}' reach element {0}, more than the "
          "interpreter's limit of 2^28 elements",
          needed - 1, region.name));
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
  return bindLiteral(lo, hi, dtype);
}

llvm::Expected<MemRegion *> MemorySpace::bindLiteral(int64_t lo, int64_t hi,
                                                  DType dtype) {
  // Every region overlapping [lo, hi]; there are few, so scan them all.
  llvm::SmallVector<MemRegion *> overlapping;
  for (auto &entry : regions) {
    MemRegion *r = entry.second.get();
    if (r->base <= hi && lo <= r->base + std::max<int64_t>(r->size(), 1) - 1)
      overlapping.push_back(r);
  }
  for (MemRegion *r : overlapping)
    if (llvm::Error err = bindDType(*r, dtype))
      return std::move(err);
  if (overlapping.size() == 1) {
    MemRegion *r = overlapping.front();
    if (r->base <= lo && (!r->growable || hi < r->base + r->size()))
      return r;
    if (r->base <= lo) {
      r->growTo(hi - r->base + 1);
      return r;
    }
  }
  // Create one region covering [lo, hi] and everything it overlaps.
  int64_t newLo = lo, newHi = hi;
  for (MemRegion *r : overlapping) {
    newLo = std::min(newLo, r->base);
    newHi = std::max(newHi, r->base + r->size() - 1);
  }
  if (newHi - newLo >= (int64_t(1) << 28))
    return memoryError(llvm::formatv(
        "memory at addresses [{0}, {1}] exceeds the interpreter's limit of "
        "2^28 elements per region",
        newLo, newHi));
  auto merged = std::make_unique<MemRegion>();
  merged->name = (isGlobal ? "@" : name + "@") + std::to_string(newLo);
  merged->base = newLo;
  merged->dtype = dtype;
  merged->init = InputSpec::zeros();
  merged->seed = seed;
  auto known = literalDefaults.find(newLo);
  if (known != literalDefaults.end()) {
    merged->init = known->second.spec;
    merged->storeOnly = known->second.storeOnly;
    resolveDefaultSpec(merged->init, dtype, merged->storeOnly);
  }
  merged->growTo(newHi - newLo + 1);
  for (MemRegion *r : overlapping) {
    int64_t at = r->base - newLo;
    if (isFloat(dtype))
      std::copy(r->floats.begin(), r->floats.end(),
                merged->floats.begin() + at);
    else
      std::copy(r->ints.begin(), r->ints.end(), merged->ints.begin() + at);
    merged->written |= r->written;
    regions.erase(r->base);
  }
  MemRegion *raw = merged.get();
  regions[newLo] = std::move(merged);
  return raw;
}
