//===- Machine.h - The machine's description of a device --------*- C++ -*-===//
//
// This file declares `Machine`, the plain description of a device that the
// program bundle carries and the simulator executes on: memory instances with
// capacity and aggregate bandwidth, execution-unit instances with compute
// throughput per op class and element type, and links (datapaths) with
// bandwidth, latency, FIFO depth and transfer granularities. It knows nothing
// of MLIR; the architecture description indexes its rates by the same
// OpClass, and an adapter (FromDevice.h) builds a Machine from the device
// model.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_MACHINE_H
#define KTFLOW_MACHINE_MACHINE_H

#include "ktflow/Machine/MatrixTiming.h"
#include "ktflow/Machine/OpClass.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::machine {

/// Element types the machine computes with.
enum class ElemType : uint8_t { i1, i8, i16, i32, i64, f16, bf16, f32, f64 };
constexpr unsigned kNumElemTypes = 9;

/// Bytes per element (i1 occupies one byte).
unsigned elemBytes(ElemType type);
llvm::StringRef elemTypeName(ElemType type);
std::optional<ElemType> parseElemType(llvm::StringRef name);
bool isFloat(ElemType type);

/// What a unit can do; derived from device features, never from names.
enum UnitRole : uint32_t {
  RoleDma = 1u << 0,    ///< moves data between memories
  RoleLoad = 1u << 1,   ///< scratchpad -> FIFO
  RoleStore = 1u << 2,  ///< FIFO -> scratchpad
  RoleVector = 1u << 3, ///< element-wise / reduction compute
  RoleMatrix = 1u << 4, ///< matrix engine
};

struct MachineMemory {
  std::string name; ///< instance name, e.g. "DDR" or "core0.L1"
  std::string kind; ///< e.g. "DDR", "L1"
  uint64_t size = 0;
  /// Aggregate bytes per cycle over all ports; 0 means not a bottleneck.
  double bandwidth = 0;
  /// The core instance whose scratchpad this is; -1 outside the cores
  /// (device memory). A remote DMA writes the scratchpad of another core.
  int32_t core = -1;
};

struct MachineUnit {
  std::string name; ///< instance name, e.g. "core0.sfu"
  std::string kind;
  uint32_t roles = 0;
  /// The core instance the unit belongs to; -1 outside the cores.
  int32_t core = -1;
  /// Elements (MACs for Matrix) per cycle for each op class and element
  /// type; 0 means the unit cannot do that class on that type.
  std::array<std::array<double, kNumElemTypes>, kNumOpClasses> throughput{};
  /// Transfers (dma, store) in flight at once: with more than one the unit
  /// moves on once a transfer's bytes have left and it lands `latency`
  /// later; with one it waits for the last byte.
  uint32_t maxOutstanding = 1;
  /// The block one wave of the matrix engine computes (MatrixTiming.h);
  /// all zero for a unit without one.
  MatrixShape matrix;

  double getThroughput(OpClass c, ElemType t) const {
    return throughput[static_cast<unsigned>(c)][static_cast<unsigned>(t)];
  }
  void setThroughput(OpClass c, ElemType t, double v) {
    throughput[static_cast<unsigned>(c)][static_cast<unsigned>(t)] = v;
  }
};

/// A node of the datapath graph.
struct NodeRef {
  enum Kind : uint8_t { Memory, Unit } kind = Memory;
  uint32_t index = 0;
  bool operator==(const NodeRef &o) const {
    return kind == o.kind && index == o.index;
  }
};

struct MachineLink {
  NodeRef from, to;
  double bandwidth = 64;  ///< bytes per cycle, > 0
  uint32_t latency = 1;   ///< cycles
  uint32_t fifoDepth = 0; ///< entries; 0 when the datapath is not a queue
  /// Legal transfer sizes in bytes; empty means any.
  std::vector<uint32_t> granularities;
};

/// How cores are connected: the latency of syncs between cores, and the
/// links that remote DMAs carry data over (one per direction between two
/// neighbouring cores, each `linkBandwidth` bytes per cycle).
struct MachineInterconnect {
  enum Topology : uint8_t { None, Ring, Mesh, Crossbar } topology = None;
  bool bidirectional = false;
  uint32_t numCores = 1;
  uint32_t hopLatency = 1;
  double linkBandwidth = 0;
  /// Mesh extents, x fastest (product = numCores).
  std::vector<uint32_t> dims;

  /// Hops from core `a` to core `b` (0 for the same core).
  uint32_t hops(uint32_t a, uint32_t b) const;
  /// The cores a transfer from `a` to `b` visits, `a` and `b` included
  /// (hops(a, b) + 1 of them), by deterministic routing: a two-way ring
  /// takes the shorter way round, increasing indices on a tie; a mesh goes
  /// along x (the fastest-varying coordinate) first, then y; a crossbar
  /// goes straight. Empty without an interconnect.
  std::vector<uint32_t> path(uint32_t a, uint32_t b) const;
};

/// A device as bundles record it and the simulator runs it.
struct Machine {
  std::string name;
  double clockHz = 1e9;
  /// Cycles between a sync_send and the matching sync_recv seeing it,
  /// within a core; between cores each interconnect hop adds its latency.
  uint32_t syncLatency = 1;
  MachineInterconnect interconnect;
  std::vector<MachineMemory> memories;
  std::vector<MachineUnit> units;
  std::vector<MachineLink> links;

  std::optional<uint32_t> findMemory(llvm::StringRef name) const;
  std::optional<uint32_t> findUnit(llvm::StringRef name) const;
  /// The link from `from` to `to`, if the device has one.
  std::optional<uint32_t> findLink(NodeRef from, NodeRef to) const;
  /// The fewest-hops route from `from` to `to` (link indices, lowest link
  /// index first on ties, so routes are deterministic); nullopt if none.
  /// Intermediate nodes are memories only: data is never forwarded through
  /// another execution unit.
  /// With `linksOut`, the links out of each node (linksOutOfNodes()) for a
  /// caller that searches many routes.
  std::optional<std::vector<uint32_t>>
  route(NodeRef from, NodeRef to,
        const std::vector<std::vector<uint32_t>> *linksOut = nullptr) const;
  /// The links out of each node (memories first, then units), in index
  /// order.
  std::vector<std::vector<uint32_t>> linksOutOfNodes() const;
  std::string nodeName(NodeRef node) const;
  /// Cycles for a sync token from unit `from` to reach unit `to`.
  uint32_t syncCycles(uint32_t from, uint32_t to) const;
  /// A hash of everything that affects what a program means or how long it
  /// takes; bundles record it to refuse running on another device.
  uint64_t fingerprint() const;
  /// Checks internal consistency (indices in range, positive bandwidths).
  /// Returns an empty string when valid, else the first problem.
  std::string validate() const;
};

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_MACHINE_H
