//===- Memory.h - Global memory and scratchpads of the interpreter -*- C++
//-*-===//
//
// This file declares the interpreter's memories. Addresses are element
// indices. Global memory holds one region per tensor argument, placed at
// `(k + 1) << 44` for argument k so that any address a kernel derives from
// an argument falls in that argument's window, plus regions created on
// demand for literal addresses below 2^44. Each compute tile has a
// scratchpad with a byte capacity. Regions grow to cover every view built
// on them; grown elements get the region's initial values.
//
// Storage is paged and lazy (PagedMemory.h): an element costs memory only
// once it is read or written. Argument and scratchpad regions hold each
// element as a double or int64 and their pages are filled with the
// region's initial values when first touched. Literal-address global
// memory is untyped bytes, as on the device: one byte store, zeros until
// written, in which a region of element type T at literal address L holds
// its element i at byte (L + i) * sizeof(T); regions of different element
// types may overlap and see each other's stores reinterpreted.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_MEMORY_H
#define KTFLOW_LIB_INTERPRETER_MEMORY_H

#include "HostTypes.h"
#include "PagedMemory.h"

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/HostTensor/GeneratedInputs.h"
#include "ktflow/HostTensor/GeneratedPages.h"

#include "llvm/ADT/SmallVector.h"

#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace ktflow::interp {

/// Start of argument k's address window is `(k + 1) << kArgumentWindowBits`.
inline constexpr unsigned kArgumentWindowBits = 44;

/// A contiguous range of elements of one element type.
struct MemRegion {
  std::string name;
  /// Address of element 0.
  int64_t base = 0;
  /// Set by the first view (or the .npy file) that binds the region.
  std::optional<DType> dtype;
  /// Data from a .npy file fixes the extent; other regions grow.
  bool growable = true;
  /// A .npy float32 array may still be bound once to bf16/df16 views.
  bool rebindableToNarrowFloat = false;
  InputSpec init;
  /// The kernel only stores into this tensor: its default contents are 0.
  bool storeOnly = false;
  /// Seed of the generated initial values.
  uint64_t seed = 0;
  /// Index of the tensor argument, or -1 for literal/scratchpad regions.
  int argIndex = -1;
  /// Number of elements.
  int64_t length = 0;
  /// Whether a store has written into the region.
  bool written = false;
  /// The .npy shape of a region whose data came from a file.
  llvm::SmallVector<int64_t, 4> shape;
  /// The footprints of the views at the region (ktflow/Analysis/
  /// TensorExtent.h), relative to `base`: the region's extent and logical
  /// shape.
  ktflow::TensorExtentBuilder extent;

  /// Backs the region with its own pages of doubles/int64s, filled with
  /// its initial values on first touch.
  void backWithOwnPages(MemoryBudget &budget);
  /// Backs the region with the shared untyped bytes of literal memory.
  void backWithBytes(PagedBytes &bytes);

  int64_t size() const { return length; }
  /// Grows to `newSize` elements initialised from `init`.
  void growTo(int64_t newSize);

  double getFloat(int64_t i) {
    if (encoded)
      return bitsToFloat(loadBits(i), *dtype);
    double v;
    std::memcpy(&v, store->at(i * 8), 8);
    return v;
  }
  void setFloat(int64_t i, double v) {
    if (encoded)
      return storeBits(i, floatToBits(v, *dtype));
    std::memcpy(store->at(i * 8), &v, 8);
  }
  int64_t getInt(int64_t i) {
    if (encoded)
      return wrapInt(static_cast<int64_t>(loadBits(i)), *dtype);
    int64_t v;
    std::memcpy(&v, store->at(i * 8), 8);
    return v;
  }
  void setInt(int64_t i, int64_t v) {
    if (encoded)
      return storeBits(i, zeroExtend(v, *dtype));
    std::memcpy(store->at(i * 8), &v, 8);
  }
  /// Whether elements are held as 8-byte doubles/int64s (own pages), the
  /// form readSlots and writeSlots move without conversion.
  bool holdsSlots() const { return !encoded; }
  /// Copies elements [i, i + n) of a region that holdsSlots() to `out`, or
  /// from `in`, a page at a time: the same bytes getFloat/getInt read and
  /// setFloat/setInt write, and the same pages touched.
  void readSlots(int64_t i, int64_t n, void *out) {
    forEachSlotChunk(i, n, [&](uint8_t *at, int64_t done, int64_t bytes) {
      std::memcpy(static_cast<uint8_t *>(out) + done, at, bytes);
    });
  }
  void writeSlots(int64_t i, int64_t n, const void *in) {
    forEachSlotChunk(i, n, [&](uint8_t *at, int64_t done, int64_t bytes) {
      std::memcpy(at, static_cast<const uint8_t *>(in) + done, bytes);
    });
  }

  /// Writes the initial values of elements [from, to) (shared bytes only:
  /// own pages are filled when first touched).
  void writeInitialValues(int64_t from, int64_t to);
  /// Writes the initial values of its elements in the page of shared bytes
  /// starting at `firstByte`, which is being backed.
  void fillEncodedPage(int64_t firstByte, uint8_t *page) const;

  /// The bytes [first, last) the region covers in the shared literal
  /// memory (empty for regions with their own pages).
  std::pair<int64_t, int64_t> byteRange() const;

  /// The region's contents as a tensor, in its .npy shape or the shape its
  /// extent defines (flat when neither covers it).
  Tensor toTensor();
  /// The initial contents of a region no store has touched yet, in native
  /// bits and toTensor's shape. Generated values are generated page by
  /// page as they are touched, charged to `pages` (GeneratedPages.h).
  llvm::Expected<host::NativeTensor>
  initialNative(std::shared_ptr<host::PageBudget> pages) const;
  /// The key of the region's generated values: the seed mixed with the
  /// argument position (or the literal address).
  uint64_t stream() const;

private:
  uint64_t loadBits(int64_t i) {
    unsigned n = byteSize(*dtype);
    uint64_t bits = 0;
    std::memcpy(&bits, store->at((base + i) * n), n);
    return bits;
  }
  void storeBits(int64_t i, uint64_t bits) {
    unsigned n = byteSize(*dtype);
    std::memcpy(store->at((base + i) * n), &bits, n);
  }
  /// Calls `f(pointer, offset, bytes)` for the page-contiguous pieces of
  /// slots [i, i + n), `offset` bytes into the run.
  template <typename F> void forEachSlotChunk(int64_t i, int64_t n, F f) {
    int64_t address = i * 8, end = (i + n) * 8;
    while (address < end) {
      int64_t pageEnd = ((address >> PagedBytes::kPageBits) + 1)
                        << PagedBytes::kPageBits;
      int64_t bytes = std::min(end, pageEnd) - address;
      f(store->at(address), address - i * 8, bytes);
      address += bytes;
    }
  }
  /// Fills a page of own storage with initial values.
  void fillPage(int64_t firstByte, uint8_t *page);

  std::unique_ptr<PagedBytes> ownPages;
  PagedBytes *store = nullptr;
  /// Elements are encoded in the bytes of their type (literal memory).
  bool encoded = false;
};

/// One memory: global memory or one tile's scratchpad.
class MemorySpace {
public:
  MemorySpace(std::string name, bool isGlobal, int64_t capacityBytes,
              MemoryBudget &budget)
      : name(std::move(name)), isGlobal(isGlobal), capacityBytes(capacityBytes),
        budget(budget),
        literalBytes(budget, [this](int64_t first, uint8_t *page) {
          fillLiteralPage(first, page);
        }) {}

  /// Makes sure a region of element type `dtype` covers addresses
  /// [lo, hi] (creating, growing or merging regions). Returns the region,
  /// or an error message (type mismatch, capacity, negative address).
  /// In global memory, literal-address regions of other element types may
  /// overlap it: `warning` then names the first such overlap not reported
  /// before.
  llvm::Expected<MemRegion *> bind(int64_t lo, int64_t hi, DType dtype,
                                   std::string *warning = nullptr);

  /// The region of element type `dtype` (any, without one) holding address
  /// `addr`, or null.
  MemRegion *find(int64_t addr, std::optional<DType> dtype = std::nullopt);
  /// The region of element type `dtype` starting closest at or below
  /// `addr` (it may end before `addr`), or null: the memory an out-of-range
  /// address overflows.
  MemRegion *findAtOrBelow(int64_t addr, DType dtype);

  /// Adds an argument region (global memory only); a spec holding data
  /// fixes its element type, shape and length.
  MemRegion *addArgument(int argIndex, std::string argName, InputSpec init);

  /// The `@ADDR` inputs: initial contents of the literal-address region
  /// created at an address (others start as zeros).
  std::map<int64_t, InputSpec> literalInputs;
  uint64_t seed = 0;
  /// The tile whose scratchpad this is (none for global memory): its
  /// literal regions are named `lx<tile>@ADDR`, global memory's `@ADDR`.
  std::optional<int64_t> scratchpadTile;

  const std::string &getName() const { return name; }
  bool global() const { return isGlobal; }
  /// Regions by start address; literal regions of different element types
  /// may share one.
  using RegionMap = std::multimap<int64_t, std::unique_ptr<MemRegion>>;
  RegionMap &getRegions() { return regions; }

private:
  llvm::Expected<MemRegion *> bindLiteral(int64_t lo, int64_t hi, DType dtype,
                                          std::string *warning);
  MemRegion *addRegion(std::unique_ptr<MemRegion> region);
  /// Zeros, then the `@ADDR` inputs' values of the elements in the page.
  void fillLiteralPage(int64_t firstByte, uint8_t *page);
  void eraseRegion(MemRegion *region);

  std::string name;
  bool isGlobal;
  int64_t capacityBytes;
  MemoryBudget &budget;
  RegionMap regions;
  /// The untyped bytes of literal-address global memory.
  PagedBytes literalBytes;
  /// Overlaps of literal regions already reported, by their names.
  std::set<std::pair<std::string, std::string>> reportedOverlaps;
};

/// The shared generator of initial values (ktflow/HostTensor/
/// GeneratedInputs.h): every command draws the same inputs.
using host::initialBits;
using host::initialFloat;
using host::initialFloats;
using host::initialInt;
using host::resolveDefaultSpec;

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_MEMORY_H
