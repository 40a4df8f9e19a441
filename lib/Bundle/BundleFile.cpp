//===- BundleFile.cpp - Reading and writing program bundles ---------------===//
//
// This file writes and reads the bundle file: a 32-byte header (magic,
// version, payload size, xxh3 checksum of the payload) followed by tagged
// sections MACH (machine), META (symbols, FIFOs, syncs, relocations),
// CODE (unit programs) and, optionally, LOCS (source locations). Reading
// checks, in order, the magic, the version, the size and the checksum,
// then parses every field with bounds checks, so each kind of damage gets
// its own message. Each section's fields are listed once, for writing and
// reading alike (SectionIO.h).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Bundle.h"

#include "ByteStream.h"
#include "SectionIO.h"

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
static constexpr uint32_t kLocsTag = tag("LOCS");

/// The throughput table is sparse on disk: a count, then (class, type,
/// rate) for every nonzero rate. The directions differ, hence two overloads.
static void throughputTable(SectionWriter &io, const machine::MachineUnit &u) {
  unsigned nonzero = 0;
  for (const auto &row : u.throughput)
    for (double v : row)
      nonzero += v != 0;
  io.uleb(nonzero);
  for (unsigned c = 0; c < machine::kNumOpClasses; ++c)
    for (unsigned t = 0; t < machine::kNumElemTypes; ++t)
      if (u.throughput[c][t] != 0) {
        io.u8(c);
        io.u8(t);
        io.f64(u.throughput[c][t]);
      }
}

static void throughputTable(SectionReader &io, machine::MachineUnit &u) {
  ByteReader &r = io.stream();
  size_t n = r.count(10);
  for (size_t i = 0; i < n; ++i) {
    uint8_t c = r.u8(), t = r.u8();
    double v = r.f64();
    if (c >= machine::kNumOpClasses || t >= machine::kNumElemTypes ||
        !(v >= 0)) {
      r.fail("bad unit throughput");
      return;
    }
    u.throughput[c][t] = v;
  }
}

/// The MACH section. `IO` is SectionWriter or SectionReader; `MachineT` is
/// const when writing.
template <typename IO, typename MachineT>
static void machineFields(IO &io, MachineT &m) {
  io.str(m.name);
  io.f64(m.clockHz);
  io.uleb(m.syncLatency);
  auto &ic = m.interconnect;
  io.u8(ic.topology);
  io.check(ic.topology <= machine::MachineInterconnect::Crossbar,
           "unknown interconnect topology");
  io.u8(ic.bidirectional);
  io.uleb(ic.numCores);
  io.uleb(ic.hopLatency);
  io.f64(ic.linkBandwidth);
  io.list(ic.dims, 1, [&](auto &d) { io.uleb(d); });
  io.list(m.memories, 4, [&](auto &mem) {
    io.str(mem.name);
    io.str(mem.kind);
    io.uleb(mem.size);
    io.f64(mem.bandwidth);
    int64_t core = mem.core;
    io.sleb(core);
    io.check(core >= -1 && core <= INT32_MAX, "bad core index");
    if constexpr (IO::kReading)
      mem.core = static_cast<int32_t>(core);
  });
  io.list(m.units, 4, [&](auto &u) {
    io.str(u.name);
    io.str(u.kind);
    io.uleb(u.roles);
    int64_t core = u.core;
    io.sleb(core);
    io.check(core >= -1 && core <= INT32_MAX, "bad core index");
    if constexpr (IO::kReading)
      u.core = static_cast<int32_t>(core);
    throughputTable(io, u);
    io.uleb(u.maxOutstanding);
    io.check(u.maxOutstanding >= 1, "a unit keeps no transfer in flight");
    io.uleb(u.matrix.m);
    io.uleb(u.matrix.n);
    io.uleb(u.matrix.k);
    io.check((u.matrix.m == 0) == (u.matrix.n == 0) &&
                 (u.matrix.m == 0) == (u.matrix.k == 0),
             "a matrix shape with a zero extent");
  });
  io.list(m.links, 14, [&](auto &l) {
    io.u8(l.from.kind);
    io.uleb(l.from.index);
    io.u8(l.to.kind);
    io.uleb(l.to.index);
    io.check(l.from.kind <= machine::NodeRef::Unit &&
                 l.to.kind <= machine::NodeRef::Unit,
             "bad link endpoint");
    io.f64(l.bandwidth);
    io.uleb(l.latency);
    io.uleb(l.fifoDepth);
    io.list(l.granularities, 1, [&](auto &g) { io.uleb(g); });
  });
}

static void readMachine(ByteReader &r, machine::Machine &m) {
  SectionReader io(r);
  machineFields(io, m);
  if (r.ok())
    if (std::string err = m.validate(); !err.empty())
      r.fail("invalid machine: " + err);
}

/// The kernel argument a symbol comes from: its position (or none) and its
/// name in the source, which only an argument has.
template <typename IO, typename IndexT, typename NameT>
static void originFields(IO &io, IndexT &argument, NameT &name) {
  io.optionalIndex(argument);
  io.str(name);
  io.check(name.empty() || argument != kNoArg,
           "an argument name without an argument position");
}

/// The META section: symbols, buffers, FIFOs, syncs and relocations.
template <typename IO, typename BundleT>
static void metaFields(IO &io, BundleT &b) {
  io.str(b.kernel);
  io.str(b.device);
  io.fixed64(b.deviceFingerprint);
  io.list(b.tensors, 8, [&](auto &t) {
    io.str(t.name);
    io.u8(t.elem);
    io.u8(t.role);
    io.check(static_cast<unsigned>(t.elem) < machine::kNumElemTypes &&
                 t.role <= TensorRole::InOut,
             "bad tensor element type or role");
    io.uleb(t.memory);
    io.list(t.dims, 3, [&](auto &d) {
      io.sleb(d.size);
      io.optionalIndex(d.runtimeArg);
      io.sleb(d.scale);
    });
    originFields(io, t.argument, t.argName);
    io.optionalValue(t.address);
    io.check(!t.address || t.argument == kNoArg,
             "a tensor with both an argument position and a literal address");
    io.optionalValue(t.tile);
    io.check(!t.tile || t.address,
             "a tensor of a tile's scratchpad without a literal address");
  });
  io.list(b.runtimeArgs, 7, [&](auto &a) {
    io.str(a.name);
    io.sleb(a.granularity);
    io.sleb(a.upperbound);
    io.sleb(a.lowerbound);
    originFields(io, a.argument, a.argName);
    io.u8(a.floatType);
  });
  io.list(b.buffers, 4, [&](auto &buf) {
    io.str(buf.name);
    io.uleb(buf.memory);
    io.uleb(buf.offset);
    io.uleb(buf.size);
  });
  io.list(b.fifos, 6, [&](auto &f) {
    io.str(f.name);
    io.uleb(f.producer);
    io.uleb(f.consumer);
    io.uleb(f.link);
    io.uleb(f.depth);
    io.uleb(f.entryBytes);
  });
  io.list(b.syncs, 3, [&](auto &sync) {
    io.str(sync.name);
    io.uleb(sync.sender);
    io.uleb(sync.receiver);
  });
  io.list(b.relocations, 4, [&](auto &rel) {
    io.uleb(rel.program);
    io.uleb(rel.offset);
    io.u8(rel.kind);
    io.check(rel.kind <= SymbolKind::RuntimeArgAsFloat, "bad relocation kind");
    io.uleb(rel.symbol);
  });
}

/// The CODE section: every unit's encoded program.
template <typename IO, typename BundleT>
static void codeFields(IO &io, BundleT &b) {
  io.list(b.programs, 2, [&](auto &p) {
    io.uleb(p.unit);
    io.bytes(p.code);
  });
}

/// The LOCS section: the file names, then per program one location per
/// instruction, a file index (0: unknown) followed, when known, by the line
/// and the column.
template <typename IO, typename TableT>
static void sourceFields(IO &io, TableT &table) {
  io.list(table.files, 1, [&](auto &file) { io.str(file); });
  io.list(table.programs, 1, [&](auto &locs) {
    io.list(locs, 1, [&](auto &loc) {
      io.uleb(loc.file);
      io.check(loc.file <= table.files.size(),
               "a source location names no file");
      if (loc.file) {
        io.uleb(loc.line);
        io.uleb(loc.col);
      }
    });
  });
}

std::vector<uint8_t> ktflow::bundle::writeBundle(const Bundle &bundle) {
  ByteWriter payload;
  auto section = [&](uint32_t t, const ByteWriter &body) {
    payload.fixed32(t);
    payload.fixed64(body.bytes.size());
    payload.raw(body.bytes);
  };
  ByteWriter machine, meta, code;
  SectionWriter machineIO(machine), metaIO(meta), codeIO(code);
  machineFields(machineIO, bundle.machine);
  metaFields(metaIO, bundle);
  codeFields(codeIO, bundle);
  section(kMachineTag, machine);
  section(kMetaTag, meta);
  section(kCodeTag, code);
  if (!bundle.sources.programs.empty()) {
    ByteWriter locs;
    SectionWriter locsIO(locs);
    sourceFields(locsIO, bundle.sources);
    section(kLocsTag, locs);
  }

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
        "unsupported bundle version %u (this ktflow reads version %u; %s)",
        version, kVersion,
        version < kVersion ? "compile the kernel again"
                           : "it was written by a newer ktflow");
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
    SectionReader io(s);
    if (t == kMachineTag) {
      readMachine(s, bundle.machine);
      seen[0] = true;
    } else if (t == kMetaTag) {
      metaFields(io, bundle);
      seen[1] = true;
    } else if (t == kCodeTag) {
      codeFields(io, bundle);
      seen[2] = true;
    } else if (t == kLocsTag) {
      sourceFields(io, bundle.sources);
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
      if (d.runtimeArg != kNoArg
              ? d.runtimeArg >= bundle.runtimeArgs.size() || d.scale <= 0
              : d.size < 0)
        return llvm::createStringError(
            "corrupt bundle: tensor '%s' has a bad dimension", t.name.c_str());
  }
  for (const RuntimeArg &a : bundle.runtimeArgs) {
    std::optional<machine::ElemType> type = getFloatType(a);
    if (a.floatType && type != machine::ElemType::f16 &&
        type != machine::ElemType::bf16 && type != machine::ElemType::f32)
      return llvm::createStringError(
          "corrupt bundle: runtime argument '%s' has a bad float type",
          a.name.c_str());
    if (a.floatType)
      continue;
    if (a.granularity <= 0 || a.upperbound < 0 || a.upperbound < a.lowerbound)
      return llvm::createStringError(
          "corrupt bundle: runtime argument '%s' has a bad granularity or "
          "bounds",
          a.name.c_str());
  }
  // Each program's count of instructions is checked where its code is
  // decoded (rt::linkBundle).
  if (!bundle.sources.programs.empty() &&
      bundle.sources.programs.size() != bundle.programs.size())
    return llvm::createStringError(
        "corrupt bundle: source locations for %zu programs, the bundle has "
        "%zu",
        bundle.sources.programs.size(), bundle.programs.size());
  for (const Buffer &buf : bundle.buffers)
    if (buf.memory >= bundle.machine.memories.size())
      return llvm::createStringError(
          "corrupt bundle: buffer '%s' lives in no memory", buf.name.c_str());
  if (bundle.machine.fingerprint() != bundle.deviceFingerprint)
    return llvm::createStringError(
        "corrupt bundle: the machine section does not match its fingerprint");
  return bundle;
}
