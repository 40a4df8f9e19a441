//===- Scheduler.cpp - Cooperative scheduling of compute tiles ------------===//
//
// This file implements the tile scheduler with ucontext coroutines. Stacks
// are mapped lazily with a guard page and released as soon as their tile
// finishes. Only the scheduler's own loop picks the next tile, so the order
// of execution depends on nothing but the kernel.
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"

#include "mlir/IR/Diagnostics.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace mlir;
using namespace ktflow::interp;

namespace {
/// Stack of one tile: deep enough for nested regions, calls and the MLIR
/// analyses run during interpretation; untouched pages cost nothing.
constexpr size_t kStackBytes = size_t(8) << 20;

/// The scheduler whose tiles are running on this thread.
thread_local Scheduler *activeScheduler = nullptr;
} // namespace

struct Scheduler::MainContext {
  ucontext_t context;
};

struct Scheduler::Tile {
  enum class State { NotStarted, Ready, Blocked, Done };
  State state = State::NotStarted;
  ucontext_t context;
  void *stack = nullptr;
  LogicalResult result = success();
  llvm::function_ref<bool()> ready;
  Operation *waitOp = nullptr;
  std::string waitReason;

  ~Tile() { releaseStack(); }
  void releaseStack() {
    if (stack)
      munmap(stack, kStackBytes);
    stack = nullptr;
  }
};

Scheduler::Scheduler() : main(std::make_unique<MainContext>()) {}
Scheduler::~Scheduler() = default;

void Scheduler::entryPoint() {
  Scheduler *self = activeScheduler;
  Tile &tile = *self->tiles[self->current];
  tile.result = self->body(self->current);
  tile.state = Tile::State::Done;
  // Returning resumes uc_link, the scheduler loop.
}

void Scheduler::resume(int64_t index) {
  Tile &tile = *tiles[index];
  current = index;
  if (tile.state == Tile::State::NotStarted) {
    void *stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (stack == MAP_FAILED) {
      tile.state = Tile::State::Done;
      tile.result = failure();
      return;
    }
    // A guard page turns a stack overflow into a fault, not corruption.
    mprotect(stack, static_cast<size_t>(getpagesize()), PROT_NONE);
    tile.stack = stack;
    getcontext(&tile.context);
    tile.context.uc_stack.ss_sp = stack;
    tile.context.uc_stack.ss_size = kStackBytes;
    tile.context.uc_link = &main->context;
    makecontext(&tile.context, &Scheduler::entryPoint, 0);
  }
  tile.state = Tile::State::Ready;
  swapcontext(&main->context, &tile.context);
  current = -1;
  if (tile.state == Tile::State::Done)
    tile.releaseStack();
}

void Scheduler::switchToScheduler() {
  swapcontext(&tiles[current]->context, &main->context);
}

LogicalResult Scheduler::yield() {
  if (aborted)
    return failure();
  if (tiles.size() <= 1)
    return success();
  tiles[current]->state = Tile::State::Ready;
  switchToScheduler();
  return failure(aborted);
}

LogicalResult Scheduler::waitUntil(llvm::function_ref<bool()> ready,
                                   Operation *op, std::string reason) {
  if (aborted)
    return failure();
  if (ready())
    return success();
  Tile &tile = *tiles[current];
  tile.state = Tile::State::Blocked;
  tile.ready = ready;
  tile.waitOp = op;
  tile.waitReason = std::move(reason);
  switchToScheduler();
  tile.ready = nullptr;
  return failure(aborted);
}

void Scheduler::reportDeadlock() {
  Tile *first = nullptr;
  for (auto &tile : tiles)
    if (tile->state == Tile::State::Blocked) {
      first = tile.get();
      break;
    }
  if (!first || !first->waitOp)
    return;
  int64_t blocked = llvm::count_if(tiles, [](const std::unique_ptr<Tile> &t) {
    return t->state == Tile::State::Blocked;
  });
  InFlightDiagnostic diag = first->waitOp->emitOpError();
  diag << "deadlock: " << blocked << " unfinished tile"
       << (blocked == 1 ? " waits" : "s wait")
       << " for tile futures that no tile can produce any more";
  for (auto [index, tile] : llvm::enumerate(tiles))
    if (tile->state == Tile::State::Blocked && tile->waitOp)
      diag.attachNote(tile->waitOp->getLoc())
          << "tile " << index << " " << tile->waitReason;
}

LogicalResult
Scheduler::run(int64_t numTiles,
               llvm::function_ref<LogicalResult(int64_t)> tileBody) {
  tiles.clear();
  for (int64_t i = 0; i < numTiles; ++i)
    tiles.push_back(std::make_unique<Tile>());
  body = tileBody;
  aborted = false;
  Scheduler *previous = activeScheduler;
  activeScheduler = this;
  bool failed = false;
  int64_t cursor = 0;
  while (true) {
    int64_t next = -1;
    bool unfinished = false;
    for (int64_t k = 0; k < numTiles && next < 0; ++k) {
      int64_t t = (cursor + k) % numTiles;
      Tile &tile = *tiles[t];
      switch (tile.state) {
      case Tile::State::Done:
        break;
      case Tile::State::NotStarted:
        unfinished = true;
        if (aborted)
          tile.state = Tile::State::Done; // nothing to unwind
        else
          next = t;
        break;
      case Tile::State::Ready:
        unfinished = true;
        next = t;
        break;
      case Tile::State::Blocked:
        unfinished = true;
        if (aborted || tile.ready())
          next = t;
        break;
      }
    }
    if (next < 0) {
      if (!unfinished)
        break;
      // Every unfinished tile is blocked on a condition nobody can make
      // true any more.
      reportDeadlock();
      aborted = failed = true;
      continue;
    }
    cursor = next + 1;
    resume(next);
    if (tiles[next]->state == Tile::State::Done &&
        mlir::failed(tiles[next]->result)) {
      aborted = failed = true;
    }
  }
  activeScheduler = previous;
  tiles.clear();
  return failure(failed);
}
