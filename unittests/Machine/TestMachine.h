//===- TestMachine.h - A small machine and a program builder for tests ----===//
//
// This file builds, in plain C++, a one-core machine (DDR, L1, a DMA engine,
// a load unit, a vector unit, a store unit, FIFOs of depth 4) and a helper
// that assembles unit programs, so the simulator and the bundle codec can be
// tested without MLIR or a device file.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_MACHINE_TESTMACHINE_H
#define KTFLOW_UNITTESTS_MACHINE_TESTMACHINE_H

#include "ktflow/Machine/Program.h"

#include <cstring>

namespace ktflow::machine::test {

/// Units: 0 dma, 1 lu, 2 vec, 3 su, 4 dma2. Memories: 0 DDR, 1 L1.
/// DDR<->dma links: 32 B/cycle, latency 10; dma<->L1: 32 B/cycle,
/// latency 2; L1->lu, su->L1: 64 B/cycle, latency 1; FIFO links lu->vec,
/// vec->su: 64 B/cycle, latency 1, depth 4, entries of 128 bytes.
inline Machine makeTestMachine(double ddrBandwidth = 0) {
  Machine m;
  m.name = "test_device";
  m.syncLatency = 3;
  m.memories = {{"DDR", "DDR", 1 << 20, ddrBandwidth},
                {"core0.L1", "L1", 64 << 10, 0}};
  auto unit = [](const char *name, uint32_t roles) {
    MachineUnit u;
    u.name = name;
    u.kind = name;
    u.roles = roles;
    return u;
  };
  m.units = {unit("core0.dma", RoleDma), unit("core0.lu", RoleLoad),
             unit("core0.vec", RoleVector), unit("core0.su", RoleStore),
             unit("core0.dma2", RoleDma)};
  MachineUnit &vec = m.units[2];
  vec.setThroughput(OpClass::Elementwise, ElemType::f16, 64);
  vec.setThroughput(OpClass::Elementwise, ElemType::f32, 32);
  vec.setThroughput(OpClass::Transcendental, ElemType::f16, 16);
  vec.setThroughput(OpClass::Reduction, ElemType::f16, 32);
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto u = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links = {
      {mem(0), u(0), 32, 10, 0, {}}, // 0
      {u(0), mem(1), 32, 2, 0, {}},  // 1
      {mem(1), u(0), 32, 2, 0, {}},  // 2
      {u(0), mem(0), 32, 10, 0, {}}, // 3
      {mem(1), u(1), 64, 1, 0, {}},  // 4
      {u(1), u(2), 64, 1, 4, {128}}, // 5 FIFO
      {u(2), u(3), 64, 1, 4, {128}}, // 6 FIFO
      {u(3), mem(1), 64, 1, 0, {}},  // 7
      {mem(0), u(4), 32, 10, 0, {}}, // 8
      {u(4), mem(1), 32, 2, 0, {}},  // 9
  };
  return m;
}

/// Assembles one unit program.
struct ProgramBuilder {
  UnitProgram p;
  explicit ProgramBuilder(uint32_t unit) { p.unit = unit; }

  uint32_t sreg() { return p.numSRegs++; }
  uint32_t vreg() { return p.numVRegs++; }
  Inst &emit(Opcode op) {
    p.insts.push_back({});
    p.insts.back().op = op;
    return p.insts.back();
  }
  uint32_t imm(int64_t value) {
    uint32_t r = sreg();
    Inst &i = emit(Opcode::SetImm);
    i.a = r;
    i.imm = value;
    return r;
  }
  uint32_t vtype(ElemType elem, std::vector<uint32_t> shape) {
    p.vtypes.push_back({elem, std::move(shape)});
    return p.vtypes.size() - 1;
  }
  void dma(uint32_t srcMem, int64_t src, uint32_t dstMem, int64_t dst,
           int64_t bytes) {
    uint32_t rs = imm(src), rd = imm(dst), rb = imm(bytes);
    Inst &i = emit(Opcode::Dma);
    i.a = srcMem, i.b = rs, i.c = dstMem, i.d = rd, i.e = rb;
    i.f = i.g = i.h = kNoReg;
  }
  void load(uint32_t fifo, uint32_t mem, int64_t addr, int64_t bytes) {
    uint32_t ra = imm(addr), rb = imm(bytes);
    Inst &i = emit(Opcode::Load);
    i.a = fifo, i.b = mem, i.c = ra, i.d = rb;
  }
  void store(uint32_t fifo, uint32_t mem, int64_t addr, int64_t bytes) {
    uint32_t ra = imm(addr), rb = imm(bytes);
    Inst &i = emit(Opcode::Store);
    i.a = fifo, i.b = mem, i.c = ra, i.d = rb;
  }
  /// Opens a counted loop; returns the index of its loop_begin.
  size_t loopBegin(int64_t count) {
    uint32_t lb = imm(0), ub = imm(count), st = imm(1), iv = sreg();
    Inst &i = emit(Opcode::LoopBegin);
    i.a = iv, i.b = lb, i.c = ub, i.d = st;
    return p.insts.size() - 1;
  }
  void loopEnd(size_t begin) {
    Inst copy = p.insts[begin];
    Inst &i = emit(Opcode::LoopEnd);
    i.a = copy.a, i.c = copy.c, i.d = copy.d, i.e = begin;
    p.insts[begin].e = p.insts.size() - 1;
  }
  uint32_t recv(uint32_t fifo, uint32_t type) {
    uint32_t r = vreg();
    Inst &i = emit(Opcode::Recv);
    i.a = r, i.b = fifo, i.c = type;
    return r;
  }
  void send(uint32_t fifo, uint32_t v) {
    Inst &i = emit(Opcode::Send);
    i.a = fifo, i.b = v;
  }
  /// v = op(a, b) element-wise, or op(a) when b is kNoReg.
  uint32_t map(ScalarOp op, uint32_t type, uint32_t a, uint32_t b = kNoReg) {
    MapBody body;
    body.inputs = {a};
    if (b != kNoReg)
      body.inputs.push_back(b);
    uint32_t n = body.inputs.size();
    MicroOp mop;
    mop.op = op;
    mop.type = mop.srcType = p.vtypes[type].elem;
    mop.dst = n, mop.a = 0, mop.b = n > 1 ? 1 : 0;
    body.ops = {mop};
    body.numSlots = n + 1;
    body.resultSlot = n;
    p.maps.push_back(body);
    uint32_t r = vreg();
    Inst &i = emit(Opcode::Map);
    i.a = r, i.b = p.maps.size() - 1, i.c = type;
    return r;
  }
  /// s = the `bytes`-byte index at `addr` of memory `mem`, below `bound`.
  uint32_t readIndex(uint32_t mem, int64_t addr, uint8_t bytes, int64_t bound) {
    uint32_t ra = imm(addr), rb = imm(bound), r = sreg();
    Inst &i = emit(Opcode::ReadIndex);
    i.a = r, i.b = mem, i.c = ra, i.d = rb, i.sub = bytes;
    return r;
  }
  void syncSend(uint32_t s) { emit(Opcode::SyncSend).a = s; }
  void syncRecv(uint32_t s) { emit(Opcode::SyncRecv).a = s; }
  UnitProgram done() {
    emit(Opcode::Halt);
    return p;
  }
};

} // namespace ktflow::machine::test

#endif // KTFLOW_UNITTESTS_MACHINE_TESTMACHINE_H
