//===- SameWalks.cpp - Programs whose walks are one another's, renamed ----===//
//
// This file implements SameWalks (SameWalks.h) and the copy of a walk for
// another program (ProgramWalker's renaming constructor).
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

bool Renaming::OneToOne::bind(uint32_t x, uint32_t y) {
  auto [there, fresh] = to.try_emplace(x, y);
  if (!fresh)
    return there->second == y;
  return from.try_emplace(y, x).second;
}

llvm::SmallVector<uint32_t, 3> detail::costOperands(const Inst &in) {
  switch (in.op) {
  case Opcode::Load:
  case Opcode::Store:
  case Opcode::ReadIndex:
    return {in.d};
  case Opcode::Dma:
  case Opcode::RemoteDma:
    if (hasPlanes(in))
      return {in.e, in.f, in.i};
    return {in.e, in.f};
  case Opcode::Fill:
    return {in.c, in.d};
  case Opcode::LoopBegin:
    return {in.b, in.c, in.d};
  default:
    return {};
  }
}

/// For each instruction of `program`, whether the scalar it writes may
/// reach an operand the walk reads (costOperands; of the instructions
/// `compared` only, where given), directly or through the values computed
/// from it: backwards through the program, a loop's body again for its
/// next trip, until nothing more is found.
std::vector<bool> detail::definitionsRead(const UnitProgram &program,
                                          llvm::ArrayRef<size_t> counted,
                                          const std::vector<bool> *compared) {
  const std::vector<Inst> &insts = program.insts;
  std::vector<bool> read(insts.size(), false);
  using Regs = llvm::BitVector;
  // Per loop (by its loop_end), what is read at its body's top and after
  // it.
  llvm::DenseMap<size_t, Regs> atTop, after;
  for (bool grew = true; grew;) {
    grew = false;
    Regs needed(program.numSRegs, false);
    auto need = [&](uint32_t reg) {
      if (reg != kNoReg && reg < needed.size())
        needed[reg] = true;
    };
    for (size_t pc = insts.size(); pc-- > 0;) {
      const Inst &in = insts[pc];
      if (in.op == Opcode::LoopEnd) {
        after[pc] = needed;
        auto top = atTop.find(pc);
        if (top != atTop.end())
          needed |= top->second;
        continue;
      }
      if (in.op == Opcode::LoopBegin) {
        Regs &top = atTop[in.e];
        if (top != needed) {
          top = needed;
          grew = true;
        }
        // Zero trips: what is read after the loop.
        needed |= after[in.e];
      }
      if (writesScalar(in) && in.a < needed.size() && needed[in.a]) {
        needed[in.a] = false;
        if (!read[pc])
          grew = true;
        read[pc] = true;
        for (uint32_t reg : scalarSources(in))
          need(reg);
        // The value the lockstep check gives an index read is its bound's
        // (SameCostOperands.cpp; the bound is read anyway where all are).
        if (in.op == Opcode::ReadIndex)
          need(in.d);
      }
      if ((!compared || (*compared)[pc]) && !llvm::is_contained(counted, pc))
        for (uint32_t reg : costOperands(in))
          need(reg);
    }
  }
  return read;
}

void SameWalks::add(const UnitProgram &program, const ProgramWalker &walker,
                    size_t index) {
  if (walker.iterations() < kWorthCopying)
    return;
  buckets[bucketOf(program)].push_back(walked.size());
  Walked &w = walked.emplace_back();
  w.program = &program;
  w.walker = index;
}

void SameWalks::analyse(Walked &walked) {
  const UnitProgram &program = *walked.program;
  Constants constants(program);
  walked.shape = constants.getShape();
  for (auto [pc, in] : llvm::enumerate(program.insts))
    if (in.op == Opcode::LoopBegin && constants.counts(pc)) {
      walked.counted.push_back(pc);
      walked.trips.push_back(constants.tripsAt(pc));
    }
  walked.read = definitionsRead(program, walked.counted);
  walked.named = ResourcesNamed(program);
  walked.analysed = true;
}

std::optional<std::pair<size_t, Renaming>>
SameWalks::find(const UnitProgram &program) {
  if (buckets.empty())
    return std::nullopt;
  auto bucket = buckets.find(bucketOf(program));
  if (bucket == buckets.end())
    return std::nullopt;
  std::optional<Constants> constants;
  std::vector<size_t> &candidates = bucket->second;
  unsigned tried = 0;
  auto sameOpcodes = [&](const Walked &w) {
    return llvm::equal(w.program->insts, program.insts,
                       [](const Inst &x, const Inst &y) {
                         return x.op == y.op && x.sub == y.sub;
                       });
  };
  for (auto w = candidates.begin(); w != candidates.end(); ++w) {
    // Programs of other instructions are told apart before the analysis,
    // and are not counted as tried. renaming compares the opcodes too, so
    // where it finds the walk they are the same: compared first, they were
    // a second pass over each program copied, nearly all of find's own
    // time (swiglu_ffn_64x1024x4096 on spyre_like: 283 programs copied,
    // each found at the first try).
    bool same = false;
    if (!walked[*w].analysed) {
      if (!sameOpcodes(walked[*w]))
        continue;
      same = true;
      analyse(walked[*w]);
    }
    if (std::optional<Renaming> names =
            renaming(walked[*w], program, constants)) {
      // The walk copied last is tried first next time.
      std::rotate(candidates.begin(), w, w + 1);
      return std::make_pair(walked[candidates.front()].walker,
                            std::move(*names));
    }
    if (!same && !sameOpcodes(walked[*w]))
      continue;
    if (++tried == kMostTried)
      break;
  }
  return std::nullopt;
}

static bool sameMaps(const MapBody &x, const MapBody &y) {
  if (x.inputs != y.inputs || x.numSlots != y.numSlots ||
      x.resultSlot != y.resultSlot || x.ops.size() != y.ops.size())
    return false;
  for (auto [p, q] : llvm::zip_equal(x.ops, y.ops))
    if (p.op != q.op || p.type != q.type || p.srcType != q.srcType ||
        p.dst != q.dst || p.a != q.a || p.b != q.b || p.c != q.c ||
        !(p.imm == q.imm || (p.imm != p.imm && q.imm != q.imm)))
      return false;
  return true;
}

static bool sameUnits(const MachineUnit &x, const MachineUnit &y) {
  return x.kind == y.kind && x.roles == y.roles &&
         x.throughput == y.throughput && x.maxOutstanding == y.maxOutstanding &&
         x.matrix.m == y.matrix.m && x.matrix.n == y.matrix.n &&
         x.matrix.k == y.matrix.k;
}

static bool sameRoutes(RouteCost x, RouteCost y) {
  return x.bandwidth == y.bandwidth && x.latency == y.latency;
}

/// An instruction's bytes as words: op, sub, two bytes of padding and `a`;
/// `b` and `c`; then `d` to `k` and `imm`.
constexpr size_t kInstWords = sizeof(Inst) / sizeof(uint64_t);
static_assert(sizeof(Inst) == kInstWords * sizeof(uint64_t) &&
                  offsetof(Inst, sub) == 1 && offsetof(Inst, a) == 4 &&
                  offsetof(Inst, b) == 8 && offsetof(Inst, c) == 12 &&
                  offsetof(Inst, d) == 16,
              "op, sub, a, b and c are the first two words");

/// The bits of an instruction's first two words that sameBitsBut compares,
/// per set of fields it ignores (bit f: ResourcesNamed::kNameFields[f],
/// that is a, b and c): never the padding.
static const std::array<std::array<uint64_t, 2>, 8> kComparedBits = [] {
  std::array<std::array<uint64_t, 2>, 8> compared;
  for (unsigned ignored = 0; ignored < 8; ++ignored) {
    uint8_t bytes[2 * sizeof(uint64_t)];
    std::memset(bytes, 0xff, sizeof(bytes));
    std::memset(bytes + 2, 0, 2);
    for (unsigned f = 0; f < 3; ++f)
      if (ignored >> f & 1)
        std::memset(bytes + 4 * (f + 1), 0, 4);
    std::memcpy(compared[ignored].data(), bytes, sizeof(bytes));
  }
  return compared;
}();

/// Whether `x` and `y` are the same instruction but in the fields
/// `ignored` marks (ResourcesNamed::fieldsNamed), every other field
/// compared (word by word, the padding masked out: libc's memcmp, called
/// for each instruction, cost what the comparison saved).
static bool sameBitsBut(const Inst &x, const Inst &y, uint8_t ignored) {
  uint64_t wx[kInstWords], wy[kInstWords];
  std::memcpy(wx, &x, sizeof(wx));
  std::memcpy(wy, &y, sizeof(wy));
  const std::array<uint64_t, 2> &compared = kComparedBits[ignored & 7];
  uint64_t differ =
      ((wx[0] ^ wy[0]) & compared[0]) | ((wx[1] ^ wy[1]) & compared[1]);
  for (size_t w = 2; w < kInstWords; ++w)
    differ |= wx[w] ^ wy[w];
  return differ == 0;
}

/// Whether `p` and `q`, of one opcode, have the same registers and table
/// indices in the fields (but g and h) the walk reads of that opcode; the
/// resources they name (ResourcesNamed) are paired by renaming.
static bool sameButNames(const Inst &p, const Inst &q) {
  bool same = true;
  auto equal = [&](std::initializer_list<uint32_t Inst::*> fields) {
    for (uint32_t Inst::*field : fields)
      same &= p.*field == q.*field;
  };
  switch (p.op) {
  case Opcode::Recv:
  case Opcode::ReadIndex:
    equal({&Inst::a, &Inst::c, &Inst::d, &Inst::e, &Inst::f});
    break;
  case Opcode::Send:
  case Opcode::Fill:
  case Opcode::SyncSend:
  case Opcode::SyncRecv:
    equal({&Inst::b, &Inst::c, &Inst::d, &Inst::e, &Inst::f});
    break;
  case Opcode::Load:
  case Opcode::Store:
    equal({&Inst::c, &Inst::d, &Inst::e, &Inst::f});
    break;
  case Opcode::Dma:
  case Opcode::RemoteDma:
    equal(
        {&Inst::b, &Inst::d, &Inst::e, &Inst::f, &Inst::i, &Inst::j, &Inst::k});
    break;
  default:
    equal({&Inst::a, &Inst::b, &Inst::c, &Inst::d, &Inst::e, &Inst::f});
    break;
  }
  return same;
}

std::optional<Renaming>
SameWalks::renaming(Walked &walkedFrom, const UnitProgram &to,
                    std::optional<Constants> &constants) const {
  const UnitProgram &from = *walkedFrom.program;
  if (from.insts.size() != to.insts.size() || from.numSRegs != to.numSRegs ||
      from.numVRegs != to.numVRegs || from.vtypes != to.vtypes ||
      from.maps.size() != to.maps.size())
    return std::nullopt;
  Renaming names;
  if (!names.units.bind(from.unit, to.unit))
    return std::nullopt;
  const MachineUnit &fromUnit = machine.units[from.unit];
  const MachineUnit &toUnit = machine.units[to.unit];
  const ResourcesNamed &named = walkedFrom.named;
  // The set_imm instructions whose values the walk may read and whose
  // immediates differ: what they reach is compared where the walk reads
  // it (sameCostOperands).
  llvm::SmallVector<size_t, 4> differing;
  const Inst *fromInsts = from.insts.data(), *toInsts = to.insts.data();
  const uint8_t *fieldsNamed = named.fieldsNamed.data();
  for (size_t i = 0, size = from.insts.size(); i < size; ++i) {
    const Inst &p = fromInsts[i], &q = toInsts[i];
    // Most instructions are the same but for the resources they name
    // (paired below): compared whole but for those.
    uint8_t names = fieldsNamed[i];
    if ((names == 0 || p.op != Opcode::RemoteDma) && sameBitsBut(p, q, names))
      continue;
    // Otherwise field by field, as the walk reads them.
    if (p.op != q.op || p.sub != q.sub || p.g != q.g || p.h != q.h)
      return std::nullopt;
    if (p.imm != q.imm) {
      if (p.op != Opcode::SetImm)
        return std::nullopt;
      if (walkedFrom.read[i])
        differing.push_back(i);
    }
    if (!sameButNames(p, q))
      return std::nullopt;
    if (p.op == Opcode::RemoteDma) {
      // The hops of the core interconnect to the other core.
      const MachineInterconnect &ic = machine.interconnect;
      int32_t x = machine.memories[p.c].core, y = machine.memories[q.c].core;
      bool noHopsX = fromUnit.core < 0 || x < 0;
      bool noHopsY = toUnit.core < 0 || y < 0;
      if (noHopsX != noHopsY ||
          (!noHopsX && ic.hops(fromUnit.core, x) != ic.hops(toUnit.core, y)))
        return std::nullopt;
    }
  }
  // Each resource `from` names is one of `to`'s wherever named, one to
  // one, bound in the order first named.
  constexpr int64_t kUnpaired = -1;
  llvm::SmallVector<int64_t, 16> paired[ResourcesNamed::kNumKinds];
  for (auto [kind, resources] : llvm::enumerate(named.resources))
    paired[kind].assign(resources.size(), kUnpaired);
  for (const ResourcesNamed::Place &at : named.places) {
    int64_t y = to.insts[at.pc].*ResourcesNamed::kNameFields[at.field];
    int64_t &pair = paired[at.kind][at.index];
    if (pair == kUnpaired)
      pair = y;
    else if (pair != y)
      return std::nullopt;
  }
  Renaming::OneToOne *maps[] = {&names.fifos, &names.syncs, &names.memories};
  for (auto [kind, resources] : llvm::enumerate(named.resources))
    for (auto [x, y] : llvm::zip_equal(resources, paired[kind]))
      if (!maps[kind]->bind(x, static_cast<uint32_t>(y)))
        return std::nullopt;
  // The routes between each memory and the unit of equal cost, each way
  // the program transfers.
  NodeRef fromSelf{NodeRef::Unit, from.unit}, toSelf{NodeRef::Unit, to.unit};
  for (auto [x, y, readWritten] : llvm::zip_equal(
           named.resources[ResourcesNamed::Memory],
           paired[ResourcesNamed::Memory], named.memoryReadWritten)) {
    NodeRef mx{NodeRef::Memory, x};
    NodeRef my{NodeRef::Memory, static_cast<uint32_t>(y)};
    if ((readWritten.first &&
         !sameRoutes(routes(mx, fromSelf), routes(my, toSelf))) ||
        (readWritten.second &&
         !sameRoutes(routes(fromSelf, mx), routes(toSelf, my))))
      return std::nullopt;
  }
  // The loops the start counts run as many trips in both.
  if (!walkedFrom.counted.empty()) {
    // The instructions are the same but for set_imm's immediates.
    if (!constants)
      constants.emplace(to, walkedFrom.shape);
    for (auto [pc, trips] :
         llvm::zip_equal(walkedFrom.counted, walkedFrom.trips))
      if (!constants->counts(pc) || constants->tripsAt(pc) != trips)
        return std::nullopt;
  }
  for (auto [x, y] : llvm::zip_equal(from.maps, to.maps))
    if (!sameMaps(x, y))
      return std::nullopt;
  for (auto [x, y] : names.fifos.to) {
    const FifoDesc &fx = exe.fifos[x], &fy = exe.fifos[y];
    const MachineLink &lx = machine.links[fx.link],
                      &ly = machine.links[fy.link];
    if (lx.bandwidth != ly.bandwidth || lx.latency != ly.latency ||
        fx.entryBytes != fy.entryBytes ||
        !names.units.bind(fx.producer, fy.producer) ||
        !names.units.bind(fx.consumer, fy.consumer))
      return std::nullopt;
  }
  for (auto [x, y] : names.syncs.to)
    if (!names.units.bind(exe.syncs[x].sender, exe.syncs[y].sender) ||
        !names.units.bind(exe.syncs[x].receiver, exe.syncs[y].receiver))
      return std::nullopt;
  for (auto [x, y] : names.memories.to) {
    const MachineMemory &mx = machine.memories[x], &my = machine.memories[y];
    if (mx.bandwidth != my.bandwidth || (mx.core < 0) != (my.core < 0))
      return std::nullopt;
  }
  // The units' rates and roles, and which of them share the unit's core.
  for (auto [x, y] : names.units.to) {
    const MachineUnit &ux = machine.units[x], &uy = machine.units[y];
    if (!sameUnits(ux, uy) ||
        (ux.core == fromUnit.core) != (uy.core == toUnit.core))
      return std::nullopt;
  }
  // Last, as it steps the programs through their loops.
  if (!differing.empty() &&
      !sameCostOperands(from, to, walkedFrom.read, walkedFrom.counted,
                        walkedFrom.trips, differing, walkedFrom.reads))
    return std::nullopt;
  return names;
}

/// `map` with each key renamed.
template <typename Map>
static Map renamed(const Map &map, const Renaming::OneToOne &names) {
  Map result;
  result.reserve(map.size());
  for (const auto &[key, value] : map)
    result.try_emplace(names(key), value);
  return result;
}

static void renameEach(llvm::MutableArrayRef<uint32_t> ids,
                       const Renaming::OneToOne &names) {
  for (uint32_t &id : ids)
    id = names(id);
}

ProgramWalker::ProgramWalker(const ProgramWalker &walked,
                             const UnitProgram &program, const Renaming &names)
    : ProgramWalker(walked) {
  this->program = &program;
  unit = &machine.units[program.unit];
  feeds.reset();
  for (const FifoDesc &fifo : exe.fifos)
    if (fifo.producer == program.unit &&
        computes(machine.units[fifo.consumer])) {
      feeds = fifo.consumer;
      break;
    }
  // The records stay shared, their ids renamed as read. (A copy is not
  // copied again: `names` renames the walked program's.)
  chargeAgain(*out, &names);
  // (From the names paired, not each of the kernel's: a lookup for each
  // of spyre_like's channels was a tenth of a short walk's copy.)
  fifoNames.assign(exe.fifos.size(), 0);
  walkedFifos.assign(exe.fifos.size(), UINT32_MAX);
  for (auto [x, y] : names.fifos.to) {
    fifoNames[x] = y;
    walkedFifos[y] = x;
  }
  syncNames.assign(exe.syncs.size(), 0);
  for (auto [x, y] : names.syncs.to)
    syncNames[x] = y;
  firstSignals = renamed(firstSignals, names.syncs);
  lastWaits = renamed(lastWaits, names.syncs);
  renameEach(waitedBeforeFirstLoad, names.syncs);
  renameEach(signalledAfterLastStore, names.syncs);
  for (std::optional<uint32_t> *memory :
       {&loadDevice, &storeDevice, &loadMemory})
    if (*memory)
      *memory = names.memories(**memory);
  if (handOverStore)
    handOverStore = names.units(*handOverStore);
}

void ProgramWalker::chargeAgain(KernelEstimate &estimate,
                                const Renaming *names) {
  out = &estimate;
  std::vector<double> &busyOf = out->memoryBusy;
  if (!names) {
    records->chargeTo(busyOf, [](uint32_t m) { return m; });
    return;
  }
  // The renamed memories by index (a hash-map lookup per charge cost
  // layernorm_1151x8192's estimate on mesh_device 2 %: its lanes' walks,
  // copied, charge memories thousands of times each); those not renamed
  // are 0, as the renaming's lookup gives.
  std::vector<uint32_t> renamed(busyOf.size(), 0);
  for (auto [x, y] : names->memories.to)
    if (x < renamed.size())
      renamed[x] = y;
  records->chargeTo(busyOf, [&](uint32_t m) {
    return m < renamed.size() ? renamed[m] : names->memories(m);
  });
}
