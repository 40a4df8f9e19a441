//===- ProgramCodec.cpp - Binary encoding of unit programs ----------------===//
//
// This file encodes a unit program compactly: ULEB128 for registers, table
// indices and counts, one byte per opcode and sub-operation, and a fixed
// 8-byte little-endian immediate for set_imm and splat so that relocations
// can patch it in place. Each opcode has a fixed number of operands, set
// for a DMA by its sub-operation (planes of rows add three) and for a
// reduce by its kind (a fold from an initial accumulator adds one), which
// the decoder reads first.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Bundle.h"

#include "ByteStream.h"
#include "SectionIO.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;
using machine::Inst;
using machine::Opcode;

/// How many of the register fields a..k an opcode with sub-operation `sub`
/// uses, and whether it has an 8-byte immediate.
static std::pair<unsigned, bool> operandShape(Opcode op, uint8_t sub) {
  switch (op) {
  case Opcode::Halt: return {0, false};
  case Opcode::SetImm: return {1, true};
  case Opcode::Alu: return {3, false};
  case Opcode::MovS: return {2, false};
  case Opcode::LoopBegin: return {5, false};
  case Opcode::LoopEnd: return {5, false};
  case Opcode::Dma:
  case Opcode::RemoteDma:
    // Planes of rows: the planes and their two strides follow.
    return {sub == machine::kDmaPlanes ? 11u : 8u, false};
  case Opcode::Load:
  case Opcode::Store:
    // Rows (sub 1): the rows and their stride follow.
    return {sub == machine::kTransferRows ? 6u : 4u, false};
  case Opcode::Recv: return {3, false};
  case Opcode::Send: return {2, false};
  case Opcode::Map: return {3, false};
  case Opcode::Reduce: {
    // A fold from an initial accumulator: its register follows.
    bool init = machine::reduceSubHasInit(sub);
    return {init ? 4u : 3u, false};
  }
  case Opcode::Broadcast: return {3, false};
  case Opcode::Splat: return {3, true};
  case Opcode::Matmul: return {5, false};
  case Opcode::MovV: return {2, false};
  case Opcode::SyncSend: return {1, false};
  case Opcode::SyncRecv: return {1, false};
  case Opcode::SelectS: return {4, false};
  case Opcode::Fill:
    return {5, false};
  case Opcode::Iota:
    return {3, false};
  case Opcode::ReadIndex:
    return {4, false};
  }
  return {0, false};
}

static uint32_t *field(Inst &inst, unsigned i) {
  uint32_t *fields[] = {&inst.a, &inst.b, &inst.c, &inst.d, &inst.e, &inst.f,
                        &inst.g, &inst.h, &inst.i, &inst.j, &inst.k};
  return fields[i];
}

/// The register counts, vector types and map bodies that precede the
/// instructions, listed once for both directions (SectionIO.h). `ProgramT`
/// is const when writing.
template <typename IO, typename ProgramT>
static void tableFields(IO &io, ProgramT &p) {
  io.uleb(p.numSRegs);
  io.uleb(p.numVRegs);
  io.check(p.numSRegs <= (1u << 20) && p.numVRegs <= (1u << 20),
           "register count out of range");
  io.list(p.vtypes, 2, [&](auto &t) {
    io.u8(t.elem);
    io.check(static_cast<unsigned>(t.elem) < machine::kNumElemTypes,
             "unknown element type");
    io.list(t.shape, 1, [&](auto &d) { io.uleb(d); });
  });
  io.list(p.maps, 4, [&](auto &m) {
    io.list(m.inputs, 1, [&](auto &in) { io.uleb(in); });
    io.uleb(m.numSlots);
    io.uleb(m.resultSlot);
    io.list(m.ops, 15, [&](auto &op) {
      io.u8(op.op);
      io.u8(op.type);
      io.u8(op.srcType);
      io.check(static_cast<unsigned>(op.op) < machine::kNumScalarOps &&
                   static_cast<unsigned>(op.type) < machine::kNumElemTypes &&
                   static_cast<unsigned>(op.srcType) < machine::kNumElemTypes,
               "unknown micro-op or element type");
      io.uleb(op.dst);
      io.uleb(op.a);
      io.uleb(op.b);
      io.uleb(op.c);
      io.f64(op.imm);
    });
  });
}

std::vector<uint8_t>
ktflow::bundle::encodeProgram(const machine::UnitProgram &program,
                              std::vector<uint32_t> *immOffsets) {
  ByteWriter w;
  SectionWriter io(w);
  tableFields(io, program);
  w.uleb(program.insts.size());
  if (immOffsets)
    immOffsets->assign(program.insts.size(), 0);
  for (size_t i = 0; i < program.insts.size(); ++i) {
    Inst inst = program.insts[i];
    w.u8(static_cast<uint8_t>(inst.op));
    w.u8(inst.sub);
    auto [numFields, hasImm] = operandShape(inst.op, inst.sub);
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

llvm::Expected<machine::UnitProgram>
ktflow::bundle::decodeProgram(llvm::ArrayRef<uint8_t> code, uint32_t unit) {
  ByteReader r(code);
  machine::UnitProgram p;
  p.unit = unit;
  SectionReader io(r);
  tableFields(io, p);
  p.insts.resize(r.count(2));
  for (Inst &inst : p.insts) {
    uint8_t op = r.u8();
    if (op >= machine::kNumOpcodes) {
      r.fail("unknown opcode " + std::to_string(op));
      break;
    }
    inst.op = static_cast<Opcode>(op);
    inst.sub = r.u8();
    auto [numFields, hasImm] = operandShape(inst.op, inst.sub);
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
