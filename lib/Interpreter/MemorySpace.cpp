//===- MemorySpace.cpp - Binding views to memory regions ------------------===//
//
// This file implements how the addresses of a view find their region in
// global memory or in a scratchpad: argument windows, literal-address
// regions created, grown and merged on demand, the element type the first
// view fixes, the scratchpad's capacity, and the warning when literal
// regions of different element types overlap in the untyped bytes of
// global memory.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"

#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Support/ScratchpadInputName.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace ktflow::interp;

static llvm::Error memoryError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
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
    resolveDefaultSpec(region.init, region.storeOnly);
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
                                    InputSpec init) {
  auto region = std::make_unique<MemRegion>();
  region->name = std::move(argName);
  region->base = static_cast<int64_t>(argIndex + 1) << kArgumentWindowBits;
  region->argIndex = argIndex;
  region->init = std::move(init);
  region->backWithOwnPages(budget);
  if (region->init.kind == InputSpec::Kind::Data) {
    // The file's values are the region's initial values (read from it as
    // pages are first touched).
    const host::InputData &data = *region->init.data;
    region->dtype = data.dtype();
    region->growable = false;
    region->rebindableToNarrowFloat = data.dtype() == DType::F32;
    region->shape.assign(data.shape().begin(), data.shape().end());
    region->length = data.numElements();
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
      return memoryError(
          llvm::formatv("address {0} is not inside any tensor argument", lo));
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
    merged->name = scratchpadTile
                       ? formatScratchpadInputName(*scratchpadTile, newLo)
                       : "@" + std::to_string(newLo);
    merged->base = newLo;
    merged->dtype = dtype;
    merged->init = InputSpec::zeros();
    merged->seed = seed;
    // Only an `@ADDR` input (`lx<K>@ADDR` in a scratchpad) gives literal
    // memory other values than zeros.
    auto known = literalInputs.find(newLo);
    if (known != literalInputs.end() &&
        known->second.kind != InputSpec::Kind::Default) {
      merged->init = known->second;
      if (const std::shared_ptr<const host::InputData> &data =
              merged->init.data) {
        // A .npy file fixes the region's element type (float32 files feed
        // bf16/df16 views, rounded once) and its extent.
        DType held = data->dtype();
        if (!servesType(held, dtype) &&
            !(held == DType::F32 &&
              (dtype == DType::BF16 || dtype == DType::DF16)))
          return memoryError(llvm::formatv(
              "type mismatch: a view of element type {0} addresses '{1}', "
              "which holds {2}",
              dtypeName(dtype), merged->name, dtypeName(held)));
        merged->growable = false;
        merged->shape.assign(data->shape().begin(), data->shape().end());
        newHi = std::max(newHi, newLo + data->numElements() - 1);
        int64_t bytes = (newHi + 1) * static_cast<int64_t>(byteSize(dtype));
        if (!isGlobal && bytes > capacityBytes)
          return memoryError(llvm::formatv(
              "scratchpad overflow: the input of '{0}' needs bytes [{1}, "
              "{2}) of {3}, whose capacity is {4} bytes",
              merged->name, newLo * static_cast<int64_t>(byteSize(dtype)),
              bytes, name, capacityBytes));
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
    // By value: std::minmax returns references, here to temporaries.
    std::string mine = result->name + " " + dtypeName(dtype).str();
    std::string theirs = r->name + " " + dtypeName(*r->dtype).str();
    if (theirs < mine)
      std::swap(mine, theirs);
    if (!reportedOverlaps.emplace(std::move(mine), std::move(theirs)).second)
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
