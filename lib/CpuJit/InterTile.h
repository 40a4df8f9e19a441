//===- InterTile.h - Inter-tile ops on the compiled tier --------*- C++ -*-===//
//
// This file declares how the compiled tier runs ktdp.inter_tile_produce,
// inter_tile_consume and inter_tile_reduce with the interpreter's semantics
// (lib/Interpreter/InterTile.cpp): the k-th execution of a produce on every
// tile is one future instance; a consumer waits until every producer it
// depends on has executed its k-th produce; a reduce folds the partials of
// those producers in ascending tile order starting from the identity; a
// tile that consumes nothing gets zeros (consume) or the identity (reduce).
//
// Which tile produces for which group, and which producers each consumer
// waits for, depend only on the grid: they are worked out once per run
// (InterTilePlan). The tile function calls the runtime (InterTileExchange,
// on the calling thread's exchange) to learn its groups, hand over partials
// and fetch them; it runs the produce body and the reduce's combiner
// itself, so their arithmetic follows the tier's numerics. Every tile runs
// on a thread of its own, so a consumer can wait for any producer; an
// exchange in which every live tile waits is a deadlock, which makes the
// run fail and the interpreter report it at the op.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_INTERTILE_H
#define KTFLOW_LIB_CPUJIT_INTERTILE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ktflow::jit {

/// The inter-tile ops of a kernel, with everything that depends only on
/// the grid worked out per tile. Ops are numbered in the order the tile
/// function's calls name them.
struct InterTilePlan {
  enum class Kind { Produce, Consume, Reduce };
  struct Partial {
    unsigned elementBytes = 0;
    int64_t numElements = 0;
  };
  struct Op {
    Kind kind = Kind::Produce;
    std::string name; // for messages: the op and its location
    /// The produce a consume or reduce delivers (an index into `ops`).
    unsigned produce = 0;
    std::vector<Partial> partials;
    /// Produce: the groups each tile produces for, ascending.
    std::vector<std::vector<int64_t>> groupsOf;
    /// Consume, reduce: each tile's group (-1: it consumes nothing), the
    /// producers it waits for (ascending), or why the interpreter stops it.
    std::vector<int64_t> groupOf;
    std::vector<std::vector<int64_t>> producersOf;
    std::vector<std::string> errorOf;
  };
  std::vector<Op> ops;

  bool empty() const { return ops.empty(); }
};

/// The element types of partials the runtime hands over; the tile function
/// declares one deposit and one fetch function per type
/// (`ktflow_jit_deposit_f16`, ...), all bound to the same C functions.
inline constexpr const char *kPartialElementTypes[] = {
    "f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "index"};

/// Tiles that exchange values each run on their own thread, at most this
/// many (the interpreter's coroutines have a similar limit).
inline constexpr int64_t kMaxExchangingTiles = 256;

/// Rewrites the inter-tile ops of `fn` (the tile function, before
/// bufferization) into calls of the exchange runtime and fills `plan` for
/// a grid of `numTiles` tiles. On failure `why` says what is not lowered.
mlir::LogicalResult lowerInterTileOps(mlir::func::FuncOp fn, int64_t numTiles,
                                      InterTilePlan &plan, std::string &why);

/// The runtime functions the rewritten code calls, by symbol name.
llvm::ArrayRef<std::pair<llvm::StringRef, void *>> interTileRuntimeSymbols();

/// The values the tiles of one run hand to each other.
class InterTileExchange {
public:
  InterTileExchange(const InterTilePlan &plan, int64_t numTiles);

  /// Binds the calling thread to tile `tile` of this exchange, until
  /// finishTile. Every tile counts as running from the start (a tile whose
  /// thread has not started yet may still produce).
  void startTile(int64_t tile);
  /// The calling thread's tile ran to its end (or stopped): it will
  /// produce nothing more.
  void finishTile();
  /// The first error of the run (a deadlock, or what the interpreter
  /// reports at an op), or "".
  std::string getError();

  // The runtime calls, on the calling thread's tile.
  int64_t countGroups(int64_t op);
  int64_t group(int64_t op, int64_t j);
  void deposit(int64_t op, int64_t j, int64_t partial, int64_t rank,
               const void *descriptor);
  int64_t produced(int64_t op);
  int64_t wait(int64_t op, int64_t instance);
  void fetch(int64_t op, int64_t instance, int64_t j, int64_t partial,
             int64_t rank, void *descriptor);

private:
  void fail(const std::string &message);
  bool isReady(int64_t tile, int64_t op, int64_t instance);
  void checkDeadlock();
  int64_t currentTile() const;

  const InterTilePlan &plan;
  std::mutex mutex;
  std::condition_variable changed;
  /// executions[op][tile]: how many times the tile ran produce `op`.
  std::vector<std::vector<int64_t>> executions;
  /// (produce, instance, tile, group, partial) -> the partial's bytes.
  std::map<std::tuple<unsigned, int64_t, int64_t, int64_t, int64_t>,
           std::vector<uint8_t>>
      partials;
  /// (produce, instance, tile): the instances each tile has delivered.
  std::set<std::tuple<unsigned, int64_t, int64_t>> delivered;
  int64_t liveTiles;
  /// The tiles blocked in wait: tile -> (delivery op, instance).
  std::map<int64_t, std::pair<int64_t, int64_t>> waiting;
  std::string error;
};

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_INTERTILE_H
