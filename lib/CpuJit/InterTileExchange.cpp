//===- InterTileExchange.cpp - Partials handed between tile threads -------===//
//
// This file implements the runtime of the compiled tier's inter-tile ops
// (InterTile.h): producers deposit copies of their partials under (produce,
// instance, tile, group), consumers wait on a condition variable until
// their producers have published the instance, then fetch the partials.
// Each tile runs on its own thread, bound to the exchange by startTile; a
// wait in which every live tile waits is a deadlock, and every error stops
// the exchange (waits return, fetches fill zeros) so the run ends and the
// interpreter reruns it to report the error at its op.
//
//===----------------------------------------------------------------------===//

#include "InterTile.h"

#include <cstring>

using namespace ktflow::jit;

namespace {
thread_local InterTileExchange *currentExchange = nullptr;
thread_local int64_t currentTileId = -1;

/// The start of an unranked memref's ranked descriptor: allocated and
/// aligned pointers, offset, then sizes[rank] and strides[rank].
struct DescriptorHead {
  void *allocated;
  char *aligned;
  int64_t offset;

  const int64_t *sizesAndStrides() const {
    return reinterpret_cast<const int64_t *>(this + 1);
  }
};

/// Calls `visit(byte offset)` for each element of a strided memref, in
/// row-major order.
template <typename Visit>
void forEachElement(const DescriptorHead *head, int64_t rank,
                    unsigned elementBytes, Visit visit) {
  const int64_t *sizes = head->sizesAndStrides();
  const int64_t *strides = sizes + rank;
  std::vector<int64_t> index(rank, 0);
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  while (true) {
    int64_t element = head->offset;
    for (int64_t d = 0; d < rank; ++d)
      element += index[d] * strides[d];
    visit(element * int64_t(elementBytes));
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

// The C entry points; each forwards to the calling thread's exchange.
int64_t countGroups(int64_t op) { return currentExchange->countGroups(op); }
int64_t group(int64_t op, int64_t j) { return currentExchange->group(op, j); }
void deposit(int64_t op, int64_t j, int64_t partial, int64_t rank,
             void *descriptor) {
  currentExchange->deposit(op, j, partial, rank, descriptor);
}
int64_t produced(int64_t op) { return currentExchange->produced(op); }
int64_t wait(int64_t op, int64_t instance) {
  return currentExchange->wait(op, instance);
}
void fetch(int64_t op, int64_t instance, int64_t j, int64_t partial,
           int64_t rank, void *descriptor) {
  currentExchange->fetch(op, instance, j, partial, rank, descriptor);
}
} // namespace

llvm::ArrayRef<std::pair<llvm::StringRef, void *>>
ktflow::jit::interTileRuntimeSymbols() {
  static const std::vector<std::pair<llvm::StringRef, void *>> symbols = [] {
    static std::vector<std::string> names;
    std::vector<std::pair<llvm::StringRef, void *>> all = {
        {"ktflow_jit_count_groups", reinterpret_cast<void *>(&countGroups)},
        {"ktflow_jit_group", reinterpret_cast<void *>(&group)},
        {"ktflow_jit_produced", reinterpret_cast<void *>(&produced)},
        {"ktflow_jit_wait", reinterpret_cast<void *>(&wait)}};
    names.reserve(2 * std::size(kPartialElementTypes));
    for (const char *type : kPartialElementTypes) {
      names.push_back(std::string("ktflow_jit_deposit_") + type);
      all.push_back({names.back(), reinterpret_cast<void *>(&deposit)});
      names.push_back(std::string("ktflow_jit_fetch_") + type);
      all.push_back({names.back(), reinterpret_cast<void *>(&fetch)});
    }
    return all;
  }();
  return symbols;
}

InterTileExchange::InterTileExchange(const InterTilePlan &plan,
                                     int64_t numTiles)
    : plan(plan),
      executions(plan.ops.size(), std::vector<int64_t>(numTiles, 0)),
      liveTiles(numTiles) {}

void InterTileExchange::startTile(int64_t tile) {
  currentExchange = this;
  currentTileId = tile;
}

void InterTileExchange::finishTile() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    --liveTiles;
    checkDeadlock();
  }
  currentExchange = nullptr;
  currentTileId = -1;
}

std::string InterTileExchange::getError() {
  std::lock_guard<std::mutex> lock(mutex);
  return error;
}

int64_t InterTileExchange::currentTile() const { return currentTileId; }

void InterTileExchange::fail(const std::string &message) {
  if (error.empty())
    error = message;
  changed.notify_all();
}

/// With the mutex held: whether every producer that `tile` waits for in
/// delivery `op` has published `instance`.
bool InterTileExchange::isReady(int64_t tile, int64_t op, int64_t instance) {
  const InterTilePlan::Op &delivery = plan.ops[op];
  for (int64_t p : delivery.producersOf[tile])
    if (executions[delivery.produce][p] <= instance)
      return false;
  return true;
}

/// With the mutex held: every live tile waits for values no one has
/// published (a tile woken but not yet running is not stuck), so none
/// ever will.
void InterTileExchange::checkDeadlock() {
  if (liveTiles == 0 || int64_t(waiting.size()) != liveTiles)
    return;
  for (const auto &[tile, on] : waiting)
    if (isReady(tile, on.first, on.second))
      return;
  fail("every running tile waits for another in an inter-tile op");
}

int64_t InterTileExchange::countGroups(int64_t op) {
  return plan.ops[op].groupsOf[currentTile()].size();
}

int64_t InterTileExchange::group(int64_t op, int64_t j) {
  return plan.ops[op].groupsOf[currentTile()][j];
}

void InterTileExchange::deposit(int64_t op, int64_t j, int64_t partial,
                                int64_t rank, const void *descriptor) {
  const InterTilePlan::Partial &shape = plan.ops[op].partials[partial];
  std::vector<uint8_t> bytes;
  bytes.reserve(shape.numElements * shape.elementBytes);
  auto *head = static_cast<const DescriptorHead *>(descriptor);
  forEachElement(head, rank, shape.elementBytes, [&](int64_t at) {
    bytes.insert(bytes.end(), head->aligned + at,
                 head->aligned + at + shape.elementBytes);
  });
  int64_t tile = currentTile();
  std::lock_guard<std::mutex> lock(mutex);
  int64_t instance = executions[op][tile];
  partials[{unsigned(op), instance, tile, plan.ops[op].groupsOf[tile][j],
            partial}] = std::move(bytes);
}

int64_t InterTileExchange::produced(int64_t op) {
  std::lock_guard<std::mutex> lock(mutex);
  int64_t instance = executions[op][currentTile()]++;
  changed.notify_all();
  return instance;
}

int64_t InterTileExchange::wait(int64_t op, int64_t instance) {
  const InterTilePlan::Op &delivery = plan.ops[op];
  int64_t tile = currentTile();
  std::unique_lock<std::mutex> lock(mutex);
  if (!delivered.insert({delivery.produce, instance, tile}).second) {
    fail("a tile future delivered twice (" + delivery.name + ")");
    return 0;
  }
  if (!delivery.errorOf[tile].empty()) {
    fail(delivery.errorOf[tile] + " (" + delivery.name + ")");
    return 0;
  }
  if (!isReady(tile, op, instance)) {
    waiting[tile] = {op, instance};
    checkDeadlock();
    changed.wait(lock,
                 [&] { return isReady(tile, op, instance) || !error.empty(); });
    waiting.erase(tile);
  }
  return error.empty() ? delivery.producersOf[tile].size() : 0;
}

void InterTileExchange::fetch(int64_t op, int64_t instance, int64_t j,
                              int64_t partial, int64_t rank, void *descriptor) {
  const InterTilePlan::Op &delivery = plan.ops[op];
  const InterTilePlan::Partial &shape = delivery.partials[partial];
  auto *head = static_cast<DescriptorHead *>(descriptor);
  int64_t tile = currentTile();
  const std::vector<uint8_t> *bytes = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const std::vector<int64_t> &producers = delivery.producersOf[tile];
    if (error.empty() && j < int64_t(producers.size())) {
      auto it = partials.find({delivery.produce, instance, producers[j],
                               delivery.groupOf[tile], partial});
      if (it == partials.end())
        fail("producer tile " + std::to_string(producers[j]) +
             " produced nothing for group " +
             std::to_string(delivery.groupOf[tile]) + " (" + delivery.name +
             ")");
      else
        bytes = &it->second; // never changed or erased once deposited
    }
  }
  int64_t next = 0;
  forEachElement(head, rank, shape.elementBytes, [&](int64_t at) {
    if (bytes)
      std::memcpy(head->aligned + at, bytes->data() + next, shape.elementBytes);
    else
      std::memset(head->aligned + at, 0, shape.elementBytes);
    next += shape.elementBytes;
  });
}
