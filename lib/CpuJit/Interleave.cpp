//===- Interleave.cpp - Tiles that take turns as the interpreter's do -----===//

#include "Interleave.h"

using namespace ktflow::jit;

namespace {
/// The turns and tile of the calling thread.
thread_local TileTurns *currentTurns = nullptr;
thread_local int64_t currentTile = 0;
} // namespace

TileTurns::TileTurns(int64_t numTiles) : finished(numTiles, false) {
  for (int64_t t = 0; t < numTiles; ++t)
    wake.push_back(std::make_unique<std::condition_variable>());
}

void TileTurns::start(int64_t tile) {
  currentTurns = this;
  currentTile = tile;
  std::unique_lock<std::mutex> lock(mutex);
  wake[tile]->wait(lock, [&] { return turn == tile; });
}

void TileTurns::passTurn(int64_t tile) {
  int64_t n = finished.size();
  for (int64_t k = 1; k <= n; ++k) {
    int64_t next = (tile + k) % n;
    if (!finished[next]) {
      turn = next;
      wake[next]->notify_one();
      return;
    }
  }
}

void TileTurns::yield() {
  std::unique_lock<std::mutex> lock(mutex);
  int64_t tile = currentTile;
  passTurn(tile);
  wake[tile]->wait(lock, [&] { return turn == tile; });
}

void TileTurns::finish() {
  std::unique_lock<std::mutex> lock(mutex);
  finished[currentTile] = true;
  passTurn(currentTile);
  currentTurns = nullptr;
}

void ktflow::jit::yieldTurn() {
  if (currentTurns)
    currentTurns->yield();
}
