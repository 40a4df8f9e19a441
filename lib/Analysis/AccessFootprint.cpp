//===- AccessFootprint.cpp - The memory an access tile touches ------------===//
//
// This file enumerates the elements an access tile touches. A tile whose
// set is a box over a single box-shaped view part touches a box of
// coordinates, visited as runs along the dimension of unit stride (one run
// per row of a row-major tile); any other tile is visited point by point.
//
//===----------------------------------------------------------------------===//

#include "AccessFootprint.h"

#include <algorithm>

using namespace mlir;
using namespace ktflow;

void ByteRanges::add(int64_t begin, int64_t end) {
  if (begin >= end)
    return;
  // Most accesses continue where the last one stopped.
  if (!ranges.empty() && begin >= ranges.back().first &&
      begin <= ranges.back().second) {
    ranges.back().second = std::max(ranges.back().second, end);
    return;
  }
  ranges.emplace_back(begin, end);
  if (ranges.size() > 2 * sizeAfterCompaction + (1u << 16))
    compact();
}

void ByteRanges::compact() {
  llvm::sort(ranges);
  size_t kept = 0;
  for (const auto &range : ranges) {
    if (kept > 0 && range.first <= ranges[kept - 1].second) {
      ranges[kept - 1].second = std::max(ranges[kept - 1].second, range.second);
      continue;
    }
    ranges[kept++] = range;
  }
  ranges.resize(kept);
  sizeAfterCompaction = kept;
}

uint64_t ByteRanges::size() {
  compact();
  uint64_t bytes = 0;
  for (const auto &[begin, end] : ranges)
    bytes += static_cast<uint64_t>(end - begin);
  return bytes;
}

std::optional<ResolvedViewPart>
ResolvedViewPart::get(int64_t offset, ArrayRef<int64_t> sizes,
                      ArrayRef<int64_t> strides, IntegerSet set,
                      ArrayRef<int64_t> setSymbols) {
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, setSymbols);
  if (failed(box))
    return std::nullopt;
  ResolvedViewPart part;
  part.offset = offset;
  part.sizes.assign(sizes.begin(), sizes.end());
  part.strides.assign(strides.begin(), strides.end());
  part.set = set;
  part.setSymbols.assign(setSymbols.begin(), setSymbols.end());
  part.box = std::move(*box);
  part.boxShaped = ktdp::isBoxShaped(set);
  return part;
}

std::optional<std::pair<unsigned, int64_t>>
ktflow::locateCoordinate(ArrayRef<ResolvedViewPart> parts,
                         ArrayRef<int64_t> coord) {
  for (auto [i, part] : llvm::enumerate(parts)) {
    bool inside = true;
    if (part.boxShaped) {
      for (size_t d = 0; d < coord.size() && inside; ++d)
        inside = coord[d] >= part.box.lower[d] && coord[d] <= part.box.upper[d];
    } else {
      inside = ktdp::containsPoint(part.set, coord, part.setSymbols);
    }
    if (!inside)
      continue;
    int64_t element = part.offset;
    for (size_t d = 0; d < coord.size(); ++d) {
      int64_t local = coord[d] - part.box.lower[d];
      // Outside the sizes the interpreter stops with an error: the access
      // touches nothing.
      if (local < 0 || local >= part.sizes[d])
        return std::nullopt;
      element += local * part.strides[d];
    }
    return std::make_pair(static_cast<unsigned>(i), element);
  }
  return std::nullopt;
}

bool ktflow::forEachSetPoint(IntegerSet set, ArrayRef<int64_t> symbols,
                             uint64_t &budget,
                             function_ref<void(ArrayRef<int64_t>)> visit) {
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, symbols);
  if (failed(box))
    return false;
  if (box->isEmpty())
    return true;
  bool isBox = ktdp::isBoxShaped(set);
  size_t rank = box->lower.size();
  SmallVector<int64_t, 4> point(box->lower.begin(), box->lower.end());
  while (true) {
    if (budget == 0)
      return false;
    --budget;
    if (isBox || ktdp::containsPoint(set, point, symbols))
      visit(point);
    size_t d = rank;
    while (d > 0) {
      --d;
      if (++point[d] <= box->upper[d])
        break;
      point[d] = box->lower[d];
      if (d == 0)
        return true;
    }
    if (rank == 0)
      return true;
  }
}

/// The fast path: a box tile over one box-shaped part.
static bool forEachRunInBox(const ResolvedViewPart &part,
                            ArrayRef<int64_t> anchor,
                            const ktdp::IntegerBox &tileBox, uint64_t &budget,
                            RunVisitor visit) {
  size_t rank = anchor.size();
  SmallVector<int64_t, 4> lo(rank), hi(rank);
  for (size_t d = 0; d < rank; ++d) {
    lo[d] = std::max(anchor[d] + tileBox.lower[d], part.box.lower[d]);
    hi[d] = std::min({anchor[d] + tileBox.upper[d], part.box.upper[d],
                      part.box.lower[d] + part.sizes[d] - 1});
    if (lo[d] > hi[d])
      return true;
  }
  // The innermost dimension of unit stride runs; without one every
  // element is a run of one.
  std::optional<size_t> runDim;
  for (size_t d = rank; d-- > 0;)
    if (part.strides[d] == 1 || part.strides[d] == -1) {
      runDim = d;
      break;
    }
  SmallVector<int64_t, 4> coord(lo.begin(), lo.end());
  while (true) {
    if (budget == 0)
      return false;
    --budget;
    int64_t element = part.offset, count = 1;
    for (size_t d = 0; d < rank; ++d)
      element += (coord[d] - part.box.lower[d]) * part.strides[d];
    if (runDim) {
      count = hi[*runDim] - lo[*runDim] + 1;
      if (part.strides[*runDim] < 0)
        element -= count - 1;
    }
    visit(0, element, count);
    size_t d = rank;
    bool done = true;
    while (d > 0) {
      --d;
      if (runDim && d == *runDim)
        continue;
      if (++coord[d] <= hi[d]) {
        done = false;
        break;
      }
      coord[d] = lo[d];
    }
    if (done)
      return true;
  }
}

bool ktflow::forEachTouchedRun(ArrayRef<ResolvedViewPart> parts,
                               ArrayRef<int64_t> anchor, IntegerSet tileSet,
                               ArrayRef<int64_t> tileSymbols, uint64_t &budget,
                               RunVisitor visit) {
  if (parts.size() == 1 && parts.front().boxShaped &&
      ktdp::isBoxShaped(tileSet)) {
    FailureOr<ktdp::IntegerBox> box =
        ktdp::getBoundingBox(tileSet, tileSymbols);
    if (failed(box))
      return false;
    return box->isEmpty() ||
           forEachRunInBox(parts.front(), anchor, *box, budget, visit);
  }
  SmallVector<int64_t, 4> coord(anchor.size());
  return forEachSetPoint(tileSet, tileSymbols, budget,
                         [&](ArrayRef<int64_t> point) {
                           for (size_t d = 0; d < coord.size(); ++d)
                             coord[d] = anchor[d] + point[d];
                           if (auto at = locateCoordinate(parts, coord))
                             visit(at->first, at->second, 1);
                         });
}
