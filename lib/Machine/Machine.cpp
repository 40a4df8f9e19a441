//===- Machine.cpp - The machine's description of a device ----------------===//
//
// This file implements name lookup, routing and fingerprinting of a Machine.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Machine.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <deque>

using namespace ktflow::machine;

unsigned ktflow::machine::elemBytes(ElemType type) {
  switch (type) {
  case ElemType::i1:
  case ElemType::i8:
    return 1;
  case ElemType::i16:
  case ElemType::f16:
  case ElemType::bf16:
    return 2;
  case ElemType::i32:
  case ElemType::f32:
    return 4;
  case ElemType::i64:
  case ElemType::f64:
    return 8;
  }
  return 1;
}

llvm::StringRef ktflow::machine::elemTypeName(ElemType type) {
  static const char *names[] = {"i1",  "i8",   "i16", "i32", "i64",
                                "f16", "bf16", "f32", "f64"};
  unsigned i = static_cast<unsigned>(type);
  return i < kNumElemTypes ? names[i] : "?";
}

std::optional<ElemType> ktflow::machine::parseElemType(llvm::StringRef name) {
  for (unsigned i = 0; i < kNumElemTypes; ++i)
    if (elemTypeName(static_cast<ElemType>(i)) == name)
      return static_cast<ElemType>(i);
  return std::nullopt;
}

bool ktflow::machine::isFloat(ElemType type) {
  return type == ElemType::f16 || type == ElemType::bf16 ||
         type == ElemType::f32 || type == ElemType::f64;
}

std::optional<uint32_t> Machine::findMemory(llvm::StringRef name) const {
  for (uint32_t i = 0; i < memories.size(); ++i)
    if (memories[i].name == name)
      return i;
  return std::nullopt;
}

std::optional<uint32_t> Machine::findUnit(llvm::StringRef name) const {
  for (uint32_t i = 0; i < units.size(); ++i)
    if (units[i].name == name)
      return i;
  return std::nullopt;
}

std::optional<uint32_t> Machine::findLink(NodeRef from, NodeRef to) const {
  for (uint32_t i = 0; i < links.size(); ++i)
    if (links[i].from == from && links[i].to == to)
      return i;
  return std::nullopt;
}

static size_t nodeId(const Machine &m, NodeRef n) {
  return n.kind == NodeRef::Memory ? n.index : m.memories.size() + n.index;
}

std::vector<std::vector<uint32_t>> Machine::linksOutOfNodes() const {
  std::vector<std::vector<uint32_t>> out(memories.size() + units.size());
  for (uint32_t i = 0; i < links.size(); ++i) {
    NodeRef node = links[i].from;
    if (node.index <
        (node.kind == NodeRef::Memory ? memories.size() : units.size()))
      out[nodeId(*this, node)].push_back(i);
  }
  return out;
}

std::optional<std::vector<uint32_t>>
Machine::route(NodeRef from, NodeRef to,
               const std::vector<std::vector<uint32_t>> *linksOut) const {
  size_t numNodes = memories.size() + units.size();
  if (nodeId(*this, from) >= numNodes || nodeId(*this, to) >= numNodes)
    return std::nullopt;
  // Breadth-first over links in index order: the first path found has the
  // fewest hops and, among those, the lowest link indices.
  std::vector<int64_t> viaLink(numNodes, -1);
  std::vector<bool> seen(numNodes, false);
  std::deque<NodeRef> queue{from};
  seen[nodeId(*this, from)] = true;
  while (!queue.empty()) {
    NodeRef node = queue.front();
    queue.pop_front();
    if (node == to)
      break;
    // Data cannot be forwarded through another unit: only memories relay.
    if (node.kind == NodeRef::Unit && !(node == from))
      continue;
    auto reach = [&](uint32_t i) {
      size_t next = nodeId(*this, links[i].to);
      if (next >= numNodes || seen[next])
        return;
      seen[next] = true;
      viaLink[next] = i;
      queue.push_back(links[i].to);
    };
    if (linksOut) {
      for (uint32_t i : (*linksOut)[nodeId(*this, node)])
        reach(i);
      continue;
    }
    for (uint32_t i = 0; i < links.size(); ++i)
      if (links[i].from == node)
        reach(i);
  }
  if (!seen[nodeId(*this, to)] || from == to)
    return std::nullopt;
  std::vector<uint32_t> path;
  for (NodeRef node = to; !(node == from);) {
    uint32_t link = viaLink[nodeId(*this, node)];
    path.insert(path.begin(), link);
    node = links[link].from;
  }
  return path;
}

uint32_t MachineInterconnect::hops(uint32_t a, uint32_t b) const {
  if (a == b || topology == None || numCores == 0)
    return 0;
  a %= numCores;
  b %= numCores;
  switch (topology) {
  case None:
    return 0;
  case Crossbar:
    return 1;
  case Ring: {
    uint32_t forward = (b + numCores - a) % numCores;
    return bidirectional ? std::min(forward, numCores - forward) : forward;
  }
  case Mesh: {
    uint32_t total = 0;
    for (uint32_t extent : dims) {
      if (extent == 0)
        break;
      uint32_t x = a % extent, y = b % extent;
      total += x > y ? x - y : y - x;
      a /= extent;
      b /= extent;
    }
    return total;
  }
  }
  return 0;
}

std::vector<uint32_t> MachineInterconnect::path(uint32_t a, uint32_t b) const {
  if (topology == None || numCores == 0)
    return {};
  a %= numCores;
  b %= numCores;
  std::vector<uint32_t> cores{a};
  switch (topology) {
  case None:
    break;
  case Crossbar:
    if (a != b)
      cores.push_back(b);
    break;
  case Ring: {
    uint32_t forward = (b + numCores - a) % numCores;
    bool up = !bidirectional || forward <= numCores - forward;
    for (uint32_t c = a; c != b;) {
      c = up ? (c + 1) % numCores : (c + numCores - 1) % numCores;
      cores.push_back(c);
    }
    break;
  }
  case Mesh: {
    // Dimension by dimension, the fastest first: move the coordinate of
    // `a` to that of `b` one step at a time.
    uint64_t stride = 1;
    uint32_t c = a;
    for (uint32_t extent : dims) {
      // Extents beyond the cores (a malformed bundle) add nothing.
      if (extent == 0 || stride > numCores)
        break;
      auto coord = [&](uint32_t core) { return (core / stride) % extent; };
      while (coord(c) != coord(b)) {
        c = coord(c) < coord(b) ? c + stride : c - stride;
        cores.push_back(c);
      }
      stride *= extent;
    }
    break;
  }
  }
  return cores;
}

uint32_t Machine::syncCycles(uint32_t from, uint32_t to) const {
  int32_t a = from < units.size() ? units[from].core : -1;
  int32_t b = to < units.size() ? units[to].core : -1;
  if (a < 0 || b < 0)
    return syncLatency;
  return syncLatency + interconnect.hops(a, b) * interconnect.hopLatency;
}

std::string Machine::nodeName(NodeRef node) const {
  if (node.kind == NodeRef::Memory)
    return node.index < memories.size() ? memories[node.index].name : "?";
  return node.index < units.size() ? units[node.index].name : "?";
}

namespace {
/// Feeds plain values into one running hash.
struct Hasher {
  std::vector<uint8_t> bytes;
  template <typename T> void add(const T &v) {
    uint8_t buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));
    bytes.insert(bytes.end(), buf, buf + sizeof(T));
  }
  void add(const std::string &s) {
    add<uint64_t>(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
};
} // namespace

uint64_t Machine::fingerprint() const {
  Hasher h;
  h.add(name);
  h.add(syncLatency);
  h.add(interconnect.topology);
  h.add(interconnect.bidirectional);
  h.add(interconnect.numCores);
  h.add(interconnect.hopLatency);
  h.add(interconnect.linkBandwidth);
  for (uint32_t d : interconnect.dims)
    h.add(d);
  h.add<uint64_t>(memories.size());
  for (const MachineMemory &m : memories) {
    h.add(m.name);
    h.add(m.size);
    h.add(m.bandwidth);
    h.add(m.core);
  }
  h.add<uint64_t>(units.size());
  for (const MachineUnit &u : units) {
    h.add(u.name);
    h.add(u.roles);
    h.add(u.core);
    for (const auto &row : u.throughput)
      for (double v : row)
        h.add(v);
    h.add(u.matrix.m);
    h.add(u.matrix.n);
    h.add(u.matrix.k);
  }
  h.add<uint64_t>(links.size());
  for (const MachineLink &l : links) {
    h.add(l.from.kind);
    h.add(l.from.index);
    h.add(l.to.kind);
    h.add(l.to.index);
    h.add(l.bandwidth);
    h.add(l.latency);
    h.add(l.fifoDepth);
    for (uint32_t g : l.granularities)
      h.add(g);
  }
  return llvm::xxh3_64bits(h.bytes);
}

std::string Machine::validate() const {
  auto validNode = [&](NodeRef n) {
    return n.kind == NodeRef::Memory ? n.index < memories.size()
                                     : n.index < units.size();
  };
  for (size_t i = 0; i < links.size(); ++i) {
    const MachineLink &l = links[i];
    if (!validNode(l.from) || !validNode(l.to))
      return "link " + std::to_string(i) + " has an endpoint out of range";
    if (!(l.bandwidth > 0))
      return "link " + std::to_string(i) + " has a non-positive bandwidth";
  }
  if (interconnect.topology > MachineInterconnect::Crossbar ||
      interconnect.numCores == 0)
    return "malformed interconnect";
  for (const MachineUnit &u : units)
    if (u.core >= static_cast<int64_t>(interconnect.numCores))
      return "unit '" + u.name + "' has a core index out of range";
  for (const MachineMemory &m : memories) {
    if (m.bandwidth < 0)
      return "memory '" + m.name + "' has a negative bandwidth";
    if (m.core >= static_cast<int64_t>(interconnect.numCores))
      return "memory '" + m.name + "' has a core index out of range";
  }
  return "";
}
