//===- ProgramCodec.cpp - Binary encoding of unit programs ----------------===//
//
// This file encodes a unit program compactly: ULEB128 for registers, table
// indices and counts, one byte per opcode and sub-operation, and a fixed
// 8-byte little-endian immediate for set_imm and splat so that relocations
// can patch it in place. Each opcode has a fixed number of operands.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Bundle.h"

#include "ByteStream.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;
using sim::Inst;
using sim::Opcode;

/// How many of the register fields a..h an opcode uses, and whether it has
/// an 8-byte immediate.
static std::pair<unsigned, bool> operandShape(Opcode op) {
  switch (op) {
  case Opcode::Halt: return {0, false};
  case Opcode::SetImm: return {1, true};
  case Opcode::Alu: return {3, false};
  case Opcode::MovS: return {2, false};
  case Opcode::LoopBegin: return {5, false};
  case Opcode::LoopEnd: return {5, false};
  case Opcode::Dma: return {8, false};
  case Opcode::Load: return {4, false};
  case Opcode::Store: return {4, false};
  case Opcode::Recv: return {3, false};
  case Opcode::Send: return {2, false};
  case Opcode::Map: return {3, false};
  case Opcode::Reduce: return {3, false};
  case Opcode::Broadcast: return {3, false};
  case Opcode::Splat: return {3, true};
  case Opcode::Matmul: return {5, false};
  case Opcode::MovV: return {2, false};
  case Opcode::SyncSend: return {1, false};
  case Opcode::SyncRecv: return {1, false};
  case Opcode::SelectS: return {4, false};
  }
  return {0, false};
}

static uint32_t *field(Inst &inst, unsigned i) {
  uint32_t *fields[] = {&inst.a, &inst.b, &inst.c, &inst.d,
                        &inst.e, &inst.f, &inst.g, &inst.h};
  return fields[i];
}

std::vector<uint8_t>
ktflow::bundle::encodeProgram(const sim::UnitProgram &program,
                              std::vector<uint32_t> *immOffsets) {
  ByteWriter w;
  w.uleb(program.numSRegs);
  w.uleb(program.numVRegs);
  w.uleb(program.vtypes.size());
  for (const sim::VectorType &t : program.vtypes) {
    w.u8(static_cast<uint8_t>(t.elem));
    w.uleb(t.shape.size());
    for (uint32_t d : t.shape)
      w.uleb(d);
  }
  w.uleb(program.maps.size());
  for (const sim::MapBody &m : program.maps) {
    w.uleb(m.inputs.size());
    for (uint32_t in : m.inputs)
      w.uleb(in);
    w.uleb(m.numSlots);
    w.uleb(m.resultSlot);
    w.uleb(m.ops.size());
    for (const sim::MicroOp &op : m.ops) {
      w.u8(static_cast<uint8_t>(op.op));
      w.u8(static_cast<uint8_t>(op.type));
      w.u8(static_cast<uint8_t>(op.srcType));
      w.uleb(op.dst);
      w.uleb(op.a);
      w.uleb(op.b);
      w.uleb(op.c);
      w.f64(op.imm);
    }
  }
  w.uleb(program.insts.size());
  if (immOffsets)
    immOffsets->assign(program.insts.size(), 0);
  for (size_t i = 0; i < program.insts.size(); ++i) {
    Inst inst = program.insts[i];
    w.u8(static_cast<uint8_t>(inst.op));
    w.u8(inst.sub);
    auto [numFields, hasImm] = operandShape(inst.op);
    for (unsigned f = 0; f < numFields; ++f)
      w.uleb(*field(inst, f));
    if (hasImm) {
      if (immOffsets)
        (*immOffsets)[i] = w.bytes.size();
      w.fixed64(static_cast<uint64_t>(inst.imm));
    }
  }
  return std::move(w.bytes);
}

llvm::Expected<sim::UnitProgram>
ktflow::bundle::decodeProgram(llvm::ArrayRef<uint8_t> code, uint32_t unit) {
  ByteReader r(code);
  sim::UnitProgram p;
  p.unit = unit;
  p.numSRegs = r.u32();
  p.numVRegs = r.u32();
  if (p.numSRegs > (1u << 20) || p.numVRegs > (1u << 20))
    r.fail("register count out of range");
  p.vtypes.resize(r.count(2));
  for (sim::VectorType &t : p.vtypes) {
    uint8_t elem = r.u8();
    if (elem >= sim::kNumElemTypes)
      r.fail("unknown element type");
    t.elem = static_cast<sim::ElemType>(elem);
    t.shape.resize(r.count());
    for (uint32_t &d : t.shape)
      d = r.u32();
  }
  p.maps.resize(r.count(4));
  for (sim::MapBody &m : p.maps) {
    m.inputs.resize(r.count());
    for (uint32_t &in : m.inputs)
      in = r.u32();
    m.numSlots = r.u32();
    m.resultSlot = r.u32();
    m.ops.resize(r.count(15));
    for (sim::MicroOp &op : m.ops) {
      uint8_t kind = r.u8(), type = r.u8(), srcType = r.u8();
      if (kind >= sim::kNumScalarOps || type >= sim::kNumElemTypes ||
          srcType >= sim::kNumElemTypes)
        r.fail("unknown micro-op or element type");
      op.op = static_cast<sim::ScalarOp>(kind);
      op.type = static_cast<sim::ElemType>(type);
      op.srcType = static_cast<sim::ElemType>(srcType);
      op.dst = r.u32();
      op.a = r.u32();
      op.b = r.u32();
      op.c = r.u32();
      op.imm = r.f64();
    }
  }
  p.insts.resize(r.count(2));
  for (Inst &inst : p.insts) {
    uint8_t op = r.u8();
    if (op >= sim::kNumOpcodes) {
      r.fail("unknown opcode " + std::to_string(op));
      break;
    }
    inst.op = static_cast<Opcode>(op);
    inst.sub = r.u8();
    auto [numFields, hasImm] = operandShape(inst.op);
    for (unsigned f = 0; f < numFields; ++f)
      *field(inst, f) = r.u32();
    if (hasImm)
      inst.imm = static_cast<int64_t>(r.fixed64());
  }
  if (r.ok() && !r.atEnd())
    r.fail("trailing bytes after the last instruction");
  if (!r.ok())
    return llvm::createStringError("malformed program: " + r.getError());
  return p;
}
