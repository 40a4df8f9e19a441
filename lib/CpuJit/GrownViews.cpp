//===- GrownViews.cpp - Views at computed addresses that ran --------------===//

#include "GrownViews.h"

using namespace ktflow;
using namespace ktflow::jit;

static std::vector<int64_t> keyOf(unsigned buffer,
                                  const ViewFootprint &footprint) {
  std::vector<int64_t> key = {int64_t(buffer), footprint.offset};
  key.insert(key.end(), footprint.sizes.begin(), footprint.sizes.end());
  key.insert(key.end(), footprint.strides.begin(), footprint.strides.end());
  return key;
}

bool GrownViews::add(unsigned buffer, const ViewFootprint &footprint) {
  if (!seen.insert(keyOf(buffer, footprint)).second)
    return false;
  views.emplace_back(buffer, footprint);
  return true;
}

size_t GrownViews::append(const GrownViews &other) {
  size_t added = 0;
  for (const auto &[buffer, footprint] : other.views)
    added += add(buffer, footprint);
  return added;
}

std::vector<ViewFootprint> GrownViews::of(unsigned buffer) const {
  std::vector<ViewFootprint> footprints;
  for (const auto &[b, footprint] : views)
    if (b == buffer)
      footprints.push_back(footprint);
  return footprints;
}

std::set<unsigned> GrownViews::buffers() const {
  std::set<unsigned> all;
  for (const auto &view : views)
    all.insert(view.first);
  return all;
}

static thread_local GrownViews *currentLog = nullptr;

void ktflow::jit::setCurrentGrownViews(GrownViews *log) { currentLog = log; }

void ktflow::jit::recordView(int64_t buffer, int64_t offset, int64_t rank,
                             int64_t size0, int64_t size1, int64_t size2,
                             int64_t size3, int64_t stride0, int64_t stride1,
                             int64_t stride2, int64_t stride3) {
  if (!currentLog)
    return;
  int64_t sizes[] = {size0, size1, size2, size3};
  int64_t strides[] = {stride0, stride1, stride2, stride3};
  ViewFootprint footprint;
  footprint.offset = offset;
  footprint.sizes.assign(sizes, sizes + rank);
  footprint.strides.assign(strides, strides + rank);
  currentLog->add(unsigned(buffer), footprint);
}
