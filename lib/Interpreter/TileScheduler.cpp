//===- TileScheduler.cpp - Cooperative scheduling of compute tiles --------===//
//
// This file implements the tile scheduler with ucontext coroutines. A tile
// gets its stack (mapped lazily, with a guard page) when it starts and
// gives it back when it finishes; finished tiles' stacks are reused. Only
// the tile scheduler's own loop picks the next tile, so the order of
// execution depends on nothing but the kernel and the window.
//
// Under AddressSanitizer every switch is announced to it (its fiber API), so
// it knows which stack runs: otherwise a noreturn call or longjmp on a tile
// stack makes it unpoison a bogus range ("ignoring requested
// __asan_handle_no_return") and its stack-use-after-return frames mix up.
// The switch itself then bypasses ASan's swapcontext interceptor, whose
// only work is what the annotations do properly: it clears the shadow of
// the target's whole 8 MiB stack on every switch (hiding the redzones of a
// suspended tile's live frames) and warns on first use, which made every
// interpreter run of the sanitized tests a sanitizer report.
//
//===----------------------------------------------------------------------===//

#include "TileScheduler.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Compiler.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if LLVM_ADDRESS_SANITIZER_BUILD
#include <dlfcn.h>
#include <sanitizer/common_interface_defs.h>
#endif

using namespace mlir;
using namespace ktflow::interp;

namespace {
/// Stack of one tile: deep enough for nested regions, calls and the MLIR
/// analyses run during interpretation; untouched pages cost nothing.
constexpr size_t kStackBytes = size_t(8) << 20;

/// Finished tiles' stacks kept for reuse (their touched pages stay mapped).
constexpr size_t kMaxFreeStacks = 64;

/// The tile scheduler whose tiles are running on this thread.
thread_local TileScheduler *activeTileScheduler = nullptr;

/// A context's stack, as AddressSanitizer's fiber API describes it.
struct StackBounds {
  const void *bottom = nullptr;
  size_t size = 0;
};

#if LLVM_ADDRESS_SANITIZER_BUILD
/// glibc's swapcontext rather than ASan's interceptor of it (see above).
int realSwapcontext(ucontext_t *from, const ucontext_t *to) {
  using Swap = int (*)(ucontext_t *, const ucontext_t *);
  static Swap real = [] {
    auto next = reinterpret_cast<Swap>(dlsym(RTLD_NEXT, "swapcontext"));
    return next ? next : &swapcontext;
  }();
  return real(from, to);
}
#endif

/// Saves the running context in `from` and runs `to`, whose stack is
/// `toStack`. `fakeStack` holds the leaving stack's ASan fake frames while
/// it is suspended; when it resumes, `resumedFrom` (if any) gets the stack
/// that switched back to it.
void switchContext(ucontext_t *from, const ucontext_t *to, StackBounds toStack,
                   void *&fakeStack, StackBounds *resumedFrom) {
#if LLVM_ADDRESS_SANITIZER_BUILD
  __sanitizer_start_switch_fiber(&fakeStack, toStack.bottom, toStack.size);
  realSwapcontext(from, to);
  __sanitizer_finish_switch_fiber(fakeStack,
                                  resumedFrom ? &resumedFrom->bottom : nullptr,
                                  resumedFrom ? &resumedFrom->size : nullptr);
#else
  (void)toStack, (void)fakeStack, (void)resumedFrom;
  swapcontext(from, to);
#endif
}

/// The first thing a tile does: learn the stack it was started from.
void enterTile(StackBounds &caller) {
#if LLVM_ADDRESS_SANITIZER_BUILD
  __sanitizer_finish_switch_fiber(nullptr, &caller.bottom, &caller.size);
#else
  (void)caller;
#endif
}

/// The last thing a tile does before returning to `caller` through uc_link:
/// its stack (and its fake frames) end here.
void leaveTile(StackBounds caller) {
#if LLVM_ADDRESS_SANITIZER_BUILD
  __sanitizer_start_switch_fiber(nullptr, caller.bottom, caller.size);
#else
  (void)caller;
#endif
}
} // namespace

struct TileScheduler::MainContext {
  ucontext_t context;
  /// The stack the tile scheduler loop runs on, learned by the first tile.
  StackBounds stack;
  void *fakeStack = nullptr;
};

struct TileScheduler::Tile {
  enum class State { Ready, Blocked, Done };
  int64_t id = 0;
  State state = State::Ready;
  ucontext_t context;
  void *stack = nullptr;
  void *fakeStack = nullptr;
  LogicalResult result = success();
  llvm::function_ref<bool()> ready;
  Operation *waitOp = nullptr;
  std::string waitReason;
};

static void *mapStack() {
  void *stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack == MAP_FAILED)
    return nullptr;
  // A guard page turns a stack overflow into a fault, not corruption.
  mprotect(stack, static_cast<size_t>(getpagesize()), PROT_NONE);
  return stack;
}

TileScheduler::TileScheduler() : main(std::make_unique<MainContext>()) {}

TileScheduler::~TileScheduler() {
  for (void *stack : freeStacks)
    munmap(stack, kStackBytes);
}

void TileScheduler::entryPoint() {
  TileScheduler *self = activeTileScheduler;
  enterTile(self->main->stack);
  Tile &tile = *self->live.find(self->current)->second;
  tile.result = self->body(tile.id);
  tile.state = Tile::State::Done;
  // Returning resumes uc_link, the tile scheduler loop.
  leaveTile(self->main->stack);
}

void TileScheduler::start(int64_t index) {
  auto tile = std::make_unique<Tile>();
  tile->id = index;
  if (!freeStacks.empty()) {
    tile->stack = freeStacks.back();
    freeStacks.pop_back();
  } else {
    tile->stack = mapStack();
  }
  if (!tile->stack) {
    tile->state = Tile::State::Done;
    tile->result = failure();
  } else {
    getcontext(&tile->context);
    tile->context.uc_stack.ss_sp = tile->stack;
    tile->context.uc_stack.ss_size = kStackBytes;
    tile->context.uc_link = &main->context;
    makecontext(&tile->context, &TileScheduler::entryPoint, 0);
  }
  live[index] = std::move(tile);
  ++nextToStart;
  peakLive = std::max(peakLive, static_cast<int64_t>(live.size()));
}

void TileScheduler::resume(Tile &tile) {
  if (tile.state == Tile::State::Done)
    return; // it never started: no stack
  current = tile.id;
  tile.state = Tile::State::Ready;
  switchContext(&main->context, &tile.context, {tile.stack, kStackBytes},
                main->fakeStack, nullptr);
  current = -1;
}

void TileScheduler::switchToTileScheduler() {
  Tile &tile = *live.find(current)->second;
  switchContext(&tile.context, &main->context, main->stack, tile.fakeStack,
                &main->stack);
}

LogicalResult TileScheduler::yield() {
  if (aborted)
    return failure();
  if (numTiles <= 1)
    return success();
  live.find(current)->second->state = Tile::State::Ready;
  switchToTileScheduler();
  return failure(aborted);
}

LogicalResult TileScheduler::waitUntil(llvm::function_ref<bool()> ready,
                                       Operation *op, std::string reason) {
  if (aborted)
    return failure();
  if (ready())
    return success();
  Tile &tile = *live.find(current)->second;
  tile.state = Tile::State::Blocked;
  tile.ready = ready;
  tile.waitOp = op;
  tile.waitReason = std::move(reason);
  switchToTileScheduler();
  tile.ready = nullptr;
  return failure(aborted);
}

int64_t TileScheduler::pickNext(bool mayStart) const {
  auto runnable = [&](const Tile &tile) {
    return tile.state == Tile::State::Ready ||
           (tile.state == Tile::State::Blocked && (aborted || tile.ready()));
  };
  // Round-robin in linear order from the cursor: the started tiles at or
  // after it, then the next tile to start (above every started one), then
  // the started tiles before the cursor.
  for (auto it = live.lower_bound(cursor); it != live.end(); ++it)
    if (runnable(*it->second))
      return it->first;
  if (mayStart)
    return nextToStart;
  for (auto it = live.begin(); it != live.end() && it->first < cursor; ++it)
    if (runnable(*it->second))
      return it->first;
  return -1;
}

void TileScheduler::reportDeadlock() {
  Tile *first = nullptr;
  for (auto &[id, tile] : live)
    if (tile->state == Tile::State::Blocked) {
      first = tile.get();
      break;
    }
  if (!first || !first->waitOp)
    return;
  int64_t blocked = llvm::count_if(live, [](const auto &entry) {
    return entry.second->state == Tile::State::Blocked;
  });
  InFlightDiagnostic diag = first->waitOp->emitOpError();
  diag << "deadlock: " << blocked << " unfinished tile"
       << (blocked == 1 ? " waits" : "s wait")
       << " for tile futures that no tile can produce any more";
  for (auto &[id, tile] : live)
    if (tile->state == Tile::State::Blocked && tile->waitOp)
      diag.attachNote(tile->waitOp->getLoc())
          << "tile " << id << " " << tile->waitReason;
}

void TileScheduler::reportTooManyLive() {
  const Tile &first = *live.begin()->second;
  if (!first.waitOp)
    return;
  InFlightDiagnostic diag = first.waitOp->emitOpError();
  diag << "the " << live.size()
       << " unfinished tiles all wait for tile futures, which tiles not "
          "started yet may produce, but at most "
       << kMaxLiveTiles << " tiles can be unfinished at once";
  diag.attachNote(first.waitOp->getLoc())
      << "tile " << first.id << " " << first.waitReason;
}

LogicalResult
TileScheduler::run(int64_t tiles, int64_t window,
                   llvm::function_ref<LogicalResult(int64_t)> tileBody) {
  live.clear();
  numTiles = tiles;
  nextToStart = cursor = peakLive = 0;
  body = tileBody;
  aborted = false;
  TileScheduler *previous = activeTileScheduler;
  activeTileScheduler = this;
  bool failed = false;
  while (true) {
    bool unstarted = !aborted && nextToStart < numTiles;
    int64_t next =
        pickNext(unstarted && static_cast<int64_t>(live.size()) < window);
    if (next < 0) {
      if (live.empty() && !unstarted)
        break;
      if (!unstarted) {
        // Every unfinished tile is blocked on a condition nobody can make
        // true any more.
        reportDeadlock();
        aborted = failed = true;
        continue;
      }
      // Every unfinished tile waits for a future; a tile not started yet
      // may produce it.
      if (static_cast<int64_t>(live.size()) >= kMaxLiveTiles) {
        reportTooManyLive();
        aborted = failed = true;
        continue;
      }
      next = nextToStart;
    }
    cursor = next + 1;
    if (next == nextToStart)
      start(next);
    auto it = live.find(next);
    Tile &tile = *it->second;
    resume(tile);
    if (tile.state != Tile::State::Done)
      continue;
    if (mlir::failed(tile.result))
      aborted = failed = true;
    if (tile.stack) {
      if (freeStacks.size() < kMaxFreeStacks)
        freeStacks.push_back(tile.stack);
      else
        munmap(tile.stack, kStackBytes);
    }
    live.erase(it);
  }
  activeTileScheduler = previous;
  return failure(failed);
}
