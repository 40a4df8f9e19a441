//===- BundleFile.cpp - Reading and writing program bundles ---------------===//
//
// This file writes and reads the bundle file: a 32-byte header (magic,
// version, payload size, xxh3 checksum of the payload) followed by tagged
// sections MACH (machine), META (symbols, FIFOs, syncs, relocations) and
// CODE (unit programs). Reading checks, in order, the magic, the version,
// the size and the checksum, then parses every field with bounds checks, so
// each kind of damage gets its own message.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Bundle.h"

#include "ByteStream.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;

llvm::StringRef ktflow::bundle::tensorRoleName(TensorRole role) {
  switch (role) {
  case TensorRole::Input: return "in";
  case TensorRole::Output: return "out";
  case TensorRole::InOut: return "inout";
  }
  return "?";
}

static constexpr uint32_t tag(const char (&s)[5]) {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 |
         uint32_t(uint8_t(s[2])) << 16 | uint32_t(uint8_t(s[3])) << 24;
}
static constexpr uint32_t kMachineTag = tag("MACH");
static constexpr uint32_t kMetaTag = tag("META");
static constexpr uint32_t kCodeTag = tag("CODE");

static void writeMachine(ByteWriter &w, const sim::Machine &m) {
  w.str(m.name);
  w.f64(m.clockHz);
  w.uleb(m.syncLatency);
  const sim::MachineInterconnect &ic = m.interconnect;
  w.u8(ic.topology);
  w.u8(ic.bidirectional);
  w.uleb(ic.numCores);
  w.uleb(ic.hopLatency);
  w.f64(ic.linkBandwidth);
  w.uleb(ic.dims.size());
  for (uint32_t d : ic.dims)
    w.uleb(d);
  w.uleb(m.memories.size());
  for (const sim::MachineMemory &mem : m.memories) {
    w.str(mem.name);
    w.str(mem.kind);
    w.uleb(mem.size);
    w.f64(mem.bandwidth);
  }
  w.uleb(m.units.size());
  for (const sim::MachineUnit &u : m.units) {
    w.str(u.name);
    w.str(u.kind);
    w.uleb(u.roles);
    w.sleb(u.core);
    unsigned nonzero = 0;
    for (const auto &row : u.throughput)
      for (double v : row)
        nonzero += v != 0;
    w.uleb(nonzero);
    for (unsigned c = 0; c < sim::kNumOpClasses; ++c)
      for (unsigned t = 0; t < sim::kNumElemTypes; ++t)
        if (u.throughput[c][t] != 0) {
          w.u8(c);
          w.u8(t);
          w.f64(u.throughput[c][t]);
        }
  }
  w.uleb(m.links.size());
  for (const sim::MachineLink &l : m.links) {
    w.u8(l.from.kind);
    w.uleb(l.from.index);
    w.u8(l.to.kind);
    w.uleb(l.to.index);
    w.f64(l.bandwidth);
    w.uleb(l.latency);
    w.uleb(l.fifoDepth);
    w.uleb(l.granularities.size());
    for (uint32_t g : l.granularities)
      w.uleb(g);
  }
}

static void readMachine(ByteReader &r, sim::Machine &m) {
  m.name = r.str();
  m.clockHz = r.f64();
  m.syncLatency = r.u32();
  sim::MachineInterconnect &ic = m.interconnect;
  uint8_t topology = r.u8();
  if (topology > sim::MachineInterconnect::Crossbar)
    r.fail("unknown interconnect topology");
  ic.topology = static_cast<sim::MachineInterconnect::Topology>(topology & 3);
  ic.bidirectional = r.u8() != 0;
  ic.numCores = r.u32();
  ic.hopLatency = r.u32();
  ic.linkBandwidth = r.f64();
  ic.dims.resize(r.count());
  for (uint32_t &d : ic.dims)
    d = r.u32();
  m.memories.resize(r.count(4));
  for (sim::MachineMemory &mem : m.memories) {
    mem.name = r.str();
    mem.kind = r.str();
    mem.size = r.uleb();
    mem.bandwidth = r.f64();
  }
  m.units.resize(r.count(4));
  for (sim::MachineUnit &u : m.units) {
    u.name = r.str();
    u.kind = r.str();
    u.roles = r.u32();
    int64_t core = r.sleb();
    if (core < -1 || core > INT32_MAX)
      r.fail("bad core index");
    u.core = static_cast<int32_t>(core);
    size_t n = r.count(10);
    for (size_t i = 0; i < n; ++i) {
      uint8_t c = r.u8(), t = r.u8();
      double v = r.f64();
      if (c >= sim::kNumOpClasses || t >= sim::kNumElemTypes || !(v >= 0)) {
        r.fail("bad unit throughput");
        return;
      }
      u.throughput[c][t] = v;
    }
  }
  m.links.resize(r.count(14));
  for (sim::MachineLink &l : m.links) {
    uint8_t fromKind = r.u8();
    l.from.index = r.u32();
    uint8_t toKind = r.u8();
    l.to.index = r.u32();
    if (fromKind > 1 || toKind > 1)
      r.fail("bad link endpoint");
    l.from.kind = static_cast<sim::NodeRef::Kind>(fromKind & 1);
    l.to.kind = static_cast<sim::NodeRef::Kind>(toKind & 1);
    l.bandwidth = r.f64();
    l.latency = r.u32();
    l.fifoDepth = r.u32();
    l.granularities.resize(r.count());
    for (uint32_t &g : l.granularities)
      g = r.u32();
  }
  if (r.ok())
    if (std::string err = m.validate(); !err.empty())
      r.fail("invalid machine: " + err);
}

static void writeMeta(ByteWriter &w, const Bundle &b) {
  w.str(b.kernel);
  w.str(b.device);
  w.fixed64(b.deviceFingerprint);
  w.uleb(b.tensors.size());
  for (const TensorArg &t : b.tensors) {
    w.str(t.name);
    w.u8(static_cast<uint8_t>(t.elem));
    w.u8(static_cast<uint8_t>(t.role));
    w.uleb(t.memory);
    w.uleb(t.dims.size());
    for (const TensorDim &d : t.dims) {
      w.sleb(d.size);
      w.uleb(d.runtimeArg == kNoArg ? 0 : uint64_t(d.runtimeArg) + 1);
    }
  }
  w.uleb(b.runtimeArgs.size());
  for (const RuntimeArg &a : b.runtimeArgs) {
    w.str(a.name);
    w.sleb(a.granularity);
    w.sleb(a.upperbound);
  }
  w.uleb(b.buffers.size());
  for (const Buffer &buf : b.buffers) {
    w.str(buf.name);
    w.uleb(buf.memory);
    w.uleb(buf.offset);
    w.uleb(buf.size);
  }
  w.uleb(b.fifos.size());
  for (const sim::FifoDesc &f : b.fifos) {
    w.str(f.name);
    w.uleb(f.producer);
    w.uleb(f.consumer);
    w.uleb(f.link);
    w.uleb(f.depth);
    w.uleb(f.entryBytes);
  }
  w.uleb(b.syncs.size());
  for (const sim::SyncDesc &s : b.syncs) {
    w.str(s.name);
    w.uleb(s.sender);
    w.uleb(s.receiver);
  }
  w.uleb(b.relocations.size());
  for (const Relocation &rel : b.relocations) {
    w.uleb(rel.program);
    w.uleb(rel.offset);
    w.u8(static_cast<uint8_t>(rel.kind));
    w.uleb(rel.symbol);
  }
}

static void readMeta(ByteReader &r, Bundle &b) {
  b.kernel = r.str();
  b.device = r.str();
  b.deviceFingerprint = r.fixed64();
  b.tensors.resize(r.count(5));
  for (TensorArg &t : b.tensors) {
    t.name = r.str();
    uint8_t elem = r.u8(), role = r.u8();
    if (elem >= sim::kNumElemTypes || role > 2)
      r.fail("bad tensor element type or role");
    t.elem = static_cast<sim::ElemType>(elem % sim::kNumElemTypes);
    t.role = static_cast<TensorRole>(role % 3);
    t.memory = r.u32();
    t.dims.resize(r.count(2));
    for (TensorDim &d : t.dims) {
      d.size = r.sleb();
      uint32_t arg = r.u32();
      d.runtimeArg = arg == 0 ? kNoArg : arg - 1;
    }
  }
  b.runtimeArgs.resize(r.count(3));
  for (RuntimeArg &a : b.runtimeArgs) {
    a.name = r.str();
    a.granularity = r.sleb();
    a.upperbound = r.sleb();
  }
  b.buffers.resize(r.count(4));
  for (Buffer &buf : b.buffers) {
    buf.name = r.str();
    buf.memory = r.u32();
    buf.offset = r.uleb();
    buf.size = r.uleb();
  }
  b.fifos.resize(r.count(6));
  for (sim::FifoDesc &f : b.fifos) {
    f.name = r.str();
    f.producer = r.u32();
    f.consumer = r.u32();
    f.link = r.u32();
    f.depth = r.u32();
    f.entryBytes = r.u32();
  }
  b.syncs.resize(r.count(3));
  for (sim::SyncDesc &s : b.syncs) {
    s.name = r.str();
    s.sender = r.u32();
    s.receiver = r.u32();
  }
  b.relocations.resize(r.count(4));
  for (Relocation &rel : b.relocations) {
    rel.program = r.u32();
    rel.offset = r.u32();
    uint8_t kind = r.u8();
    if (kind > 1)
      r.fail("bad relocation kind");
    rel.kind = static_cast<SymbolKind>(kind & 1);
    rel.symbol = r.u32();
  }
}

std::vector<uint8_t> ktflow::bundle::writeBundle(const Bundle &bundle) {
  ByteWriter payload;
  auto section = [&](uint32_t t, const ByteWriter &body) {
    payload.fixed32(t);
    payload.fixed64(body.bytes.size());
    payload.raw(body.bytes);
  };
  ByteWriter machine, meta, code;
  writeMachine(machine, bundle.machine);
  writeMeta(meta, bundle);
  code.uleb(bundle.programs.size());
  for (const EncodedProgram &p : bundle.programs) {
    code.uleb(p.unit);
    code.uleb(p.code.size());
    code.raw(p.code);
  }
  section(kMachineTag, machine);
  section(kMetaTag, meta);
  section(kCodeTag, code);

  ByteWriter file;
  file.raw(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(kMagic), sizeof(kMagic)));
  file.fixed32(kVersion);
  file.fixed32(0);
  file.fixed64(payload.bytes.size());
  file.fixed64(llvm::xxh3_64bits(payload.bytes));
  file.raw(payload.bytes);
  return std::move(file.bytes);
}

llvm::Expected<Bundle>
ktflow::bundle::readBundle(llvm::ArrayRef<uint8_t> bytes) {
  if (bytes.size() < sizeof(kMagic) ||
      std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return llvm::createStringError("not a ktflow bundle (bad magic number)");
  if (bytes.size() < kHeaderSize)
    return llvm::createStringError(
        "truncated bundle: %zu bytes, shorter than the %zu-byte header",
        bytes.size(), kHeaderSize);
  ByteReader header(bytes.take_front(kHeaderSize));
  (void)header.raw(sizeof(kMagic));
  uint32_t version = header.fixed32();
  header.fixed32();
  uint64_t payloadSize = header.fixed64();
  uint64_t checksum = header.fixed64();
  if (version != kVersion)
    return llvm::createStringError(
        "unsupported bundle version %u (this ktflow reads version %u)",
        version, kVersion);
  uint64_t have = bytes.size() - kHeaderSize;
  if (have < payloadSize)
    return llvm::createStringError(
        "truncated bundle: the header announces %llu bytes of payload, the "
        "file has %llu",
        (unsigned long long)payloadSize, (unsigned long long)have);
  if (have > payloadSize)
    return llvm::createStringError(
        "corrupt bundle: %llu unexpected bytes after the payload",
        (unsigned long long)(have - payloadSize));
  llvm::ArrayRef<uint8_t> payload = bytes.drop_front(kHeaderSize);
  if (llvm::xxh3_64bits(payload) != checksum)
    return llvm::createStringError(
        "corrupt bundle: checksum mismatch (the file was modified or damaged)");

  Bundle bundle;
  bool seen[3] = {false, false, false};
  ByteReader r(payload);
  while (r.ok() && !r.atEnd()) {
    uint32_t t = r.fixed32();
    uint64_t size = r.fixed64();
    llvm::ArrayRef<uint8_t> body = r.raw(size);
    if (!r.ok())
      break;
    ByteReader s(body);
    if (t == kMachineTag) {
      readMachine(s, bundle.machine);
      seen[0] = true;
    } else if (t == kMetaTag) {
      readMeta(s, bundle);
      seen[1] = true;
    } else if (t == kCodeTag) {
      bundle.programs.resize(s.count(2));
      for (EncodedProgram &p : bundle.programs) {
        p.unit = s.u32();
        llvm::ArrayRef<uint8_t> code = s.raw(s.count());
        p.code.assign(code.begin(), code.end());
      }
      seen[2] = true;
    } else {
      continue; // a section from a later minor revision: skip it
    }
    if (!s.ok())
      return llvm::createStringError("corrupt bundle: %s", s.getError().c_str());
  }
  if (!r.ok())
    return llvm::createStringError("corrupt bundle: %s", r.getError().c_str());
  if (!seen[0] || !seen[1] || !seen[2])
    return llvm::createStringError(
        "corrupt bundle: missing machine, metadata or code section");
  for (const TensorArg &t : bundle.tensors) {
    if (t.memory >= bundle.machine.memories.size())
      return llvm::createStringError(
          "corrupt bundle: tensor '%s' lives in no memory", t.name.c_str());
    for (const TensorDim &d : t.dims)
      if (d.runtimeArg != kNoArg ? d.runtimeArg >= bundle.runtimeArgs.size()
                                 : d.size < 0)
        return llvm::createStringError(
            "corrupt bundle: tensor '%s' has a bad dimension", t.name.c_str());
  }
  for (const RuntimeArg &a : bundle.runtimeArgs)
    if (a.granularity <= 0 || a.upperbound < 0)
      return llvm::createStringError(
          "corrupt bundle: runtime argument '%s' has a bad granularity or "
          "upperbound",
          a.name.c_str());
  for (const Buffer &buf : bundle.buffers)
    if (buf.memory >= bundle.machine.memories.size())
      return llvm::createStringError(
          "corrupt bundle: buffer '%s' lives in no memory", buf.name.c_str());
  if (bundle.machine.fingerprint() != bundle.deviceFingerprint)
    return llvm::createStringError(
        "corrupt bundle: the machine section does not match its fingerprint");
  return bundle;
}

llvm::Expected<sim::Executable> ktflow::bundle::linkBundle(
    const Bundle &bundle,
    llvm::function_ref<int64_t(SymbolKind, uint32_t)> values) {
  std::vector<std::vector<uint8_t>> code;
  for (const EncodedProgram &p : bundle.programs)
    code.push_back(p.code);
  for (const Relocation &rel : bundle.relocations) {
    size_t limit = rel.kind == SymbolKind::TensorAddress
                       ? bundle.tensors.size()
                       : bundle.runtimeArgs.size();
    if (rel.program >= code.size() || rel.symbol >= limit ||
        uint64_t(rel.offset) + 8 > code[rel.program].size())
      return llvm::createStringError("corrupt bundle: relocation out of range");
    uint64_t v = static_cast<uint64_t>(values(rel.kind, rel.symbol));
    for (int i = 0; i < 8; ++i)
      code[rel.program][rel.offset + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  sim::Executable exe;
  exe.fifos = bundle.fifos;
  exe.syncs = bundle.syncs;
  for (size_t i = 0; i < code.size(); ++i) {
    auto program = decodeProgram(code[i], bundle.programs[i].unit);
    if (!program)
      return llvm::createStringError(
          "corrupt bundle: program %zu: %s", i,
          llvm::toString(program.takeError()).c_str());
    exe.programs.push_back(std::move(*program));
  }
  if (std::string err = exe.validate(bundle.machine); !err.empty())
    return llvm::createStringError("corrupt bundle: %s", err.c_str());
  return exe;
}
