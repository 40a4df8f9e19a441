//===- Program.cpp - Executable unit programs -----------------------------===//
//
// This file implements the names and classes of the executable form and its
// structural validation, the gate between a decoded bundle and the
// simulator: after it, no index can be out of range.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Program.h"

#include "ScalarSteps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <iterator>

using namespace ktflow::machine;

const char *ktflow::machine::opcodeName(Opcode op) {
  static const char *names[] = {
      "halt",       "set_imm", "alu",       "mov_s",     "loop_begin",
      "loop_end",   "dma",     "load",      "store",     "recv",
      "send",       "map",     "reduce",    "broadcast", "splat",
      "matmul",     "mov_v",   "sync_send", "sync_recv", "select_s",
      "remote_dma", "fill",    "iota",      "read_index"};
  unsigned i = static_cast<unsigned>(op);
  return i < kNumOpcodes ? names[i] : "?";
}

const char *ktflow::machine::reduceKindName(ReduceKind kind) {
  static const char *names[] = {"add",         "mul",        "max",
                                "min",         "maxnum",     "minnum",
                                "maxafternan", "minafternan"};
  static_assert(std::size(names) == kNumReduceKinds);
  unsigned i = static_cast<unsigned>(kind);
  return i < kNumReduceKinds ? names[i] : "?";
}

const char *ktflow::machine::scalarOpName(ScalarOp op) {
  static const char *names[] = {
      "const",         "addf",  "subf",    "mulf",   "divf",    "maxf",
      "minf",          "negf",  "absf",    "exp",    "log",     "sqrt",
      "rsqrt",         "tanh",  "sigmoid", "silu",   "gelu",    "recip",
      "erf",           "addi",  "subi",    "muli",   "divsi",   "remsi",
      "maxsi",         "minsi", "andi",    "ori",    "xori",    "cast",
      "cast_unsigned", "cmpf",  "cmpi",    "select", "maxnumf", "minnumf"};
  static_assert(std::size(names) == kNumScalarOps);
  unsigned i = static_cast<unsigned>(op);
  return i < kNumScalarOps ? names[i] : "?";
}

OpClass ktflow::machine::scalarOpClass(ScalarOp op) {
  switch (op) {
  case ScalarOp::DivF:
  case ScalarOp::Exp:
  case ScalarOp::Log:
  case ScalarOp::Sqrt:
  case ScalarOp::Rsqrt:
  case ScalarOp::Tanh:
  case ScalarOp::Sigmoid:
  case ScalarOp::Silu:
  case ScalarOp::Gelu:
  case ScalarOp::Recip:
  case ScalarOp::Erf:
    return OpClass::Transcendental;
  default:
    return OpClass::Elementwise;
  }
}

unsigned ktflow::machine::scalarOpArity(ScalarOp op) {
  switch (op) {
  case ScalarOp::Const:
    return 0;
  case ScalarOp::NegF:
  case ScalarOp::AbsF:
  case ScalarOp::Exp:
  case ScalarOp::Log:
  case ScalarOp::Sqrt:
  case ScalarOp::Rsqrt:
  case ScalarOp::Tanh:
  case ScalarOp::Sigmoid:
  case ScalarOp::Silu:
  case ScalarOp::Gelu:
  case ScalarOp::Recip:
  case ScalarOp::Erf:
  case ScalarOp::Cast:
  case ScalarOp::CastUnsigned:
    return 1;
  case ScalarOp::Select:
    return 3;
  default:
    return 2;
  }
}

bool ktflow::machine::evaluateAlu(AluOp op, int64_t a, int64_t b, int64_t &r) {
  return detail::evaluateAluInline(op, a, b, r);
}

KnownScalarStep
ktflow::machine::stepKnownScalar(const Inst &in,
                                 std::vector<KnownScalar> &regs) {
  return detail::stepKnownScalarInline(in, regs);
}

std::string VectorType::str() const {
  std::string s = "vector<";
  for (uint32_t d : shape)
    s += std::to_string(d) + "x";
  s += elemTypeName(elem).str() + ">";
  return s;
}

namespace {
/// Validates one program; `fail` records the first problem.
class ProgramValidator {
public:
  ProgramValidator(const Machine &m, const Executable &exe,
                   const UnitProgram &p, size_t index)
      : m(m), exe(exe), p(p), where("program " + std::to_string(index)) {}

  std::string run() {
    if (p.unit >= m.units.size())
      return where + ": unit index out of range";
    where = "program of " + m.units[p.unit].name;
    for (const VectorType &t : p.vtypes) {
      if (static_cast<unsigned>(t.elem) >= kNumElemTypes || t.shape.empty() ||
          t.shape.size() > 4)
        return where + ": malformed vector type";
      uint64_t n = 1;
      for (uint32_t d : t.shape) {
        if (d == 0 || d > (1u << 20))
          return where + ": vector dimension out of range";
        n *= d;
      }
      if (n > (1u << 20))
        return where + ": vector of more than 2^20 elements";
    }
    for (const MapBody &body : p.maps)
      if (std::string err = checkMap(body); !err.empty())
        return err;
    if (p.insts.empty() || p.insts.back().op != Opcode::Halt)
      return where + ": does not end with halt";
    std::vector<uint32_t> open;
    for (size_t pc = 0; pc < p.insts.size(); ++pc)
      if (std::string err = checkInst(p.insts[pc], pc, open); !err.empty())
        return where + ", instruction " + std::to_string(pc) + " (" +
               opcodeName(p.insts[pc].op) + "): " + err;
    if (!open.empty())
      return where + ": loop_begin without loop_end";
    return "";
  }

private:
  bool s(uint32_t r) const { return r < p.numSRegs; }
  bool v(uint32_t r) const { return r < p.numVRegs; }
  bool vt(uint32_t t) const { return t < p.vtypes.size(); }

  std::string checkMap(const MapBody &body) {
    if (body.numSlots > (1u << 16) || body.resultSlot >= body.numSlots ||
        body.inputs.size() > body.numSlots)
      return where + ": malformed map body";
    for (uint32_t in : body.inputs)
      if (!v(in))
        return where + ": map input register out of range";
    for (const MicroOp &op : body.ops) {
      if (static_cast<unsigned>(op.op) >= kNumScalarOps ||
          static_cast<unsigned>(op.type) >= kNumElemTypes ||
          static_cast<unsigned>(op.srcType) >= kNumElemTypes ||
          op.dst >= body.numSlots || op.dst < body.inputs.size())
        return where + ": malformed map micro-op";
      unsigned arity = scalarOpArity(op.op);
      if ((arity > 0 && op.a >= body.numSlots) ||
          (arity > 1 && op.b >= body.numSlots) ||
          (arity > 2 && op.c >= body.numSlots))
        return where + ": map micro-op operand out of range";
    }
    return "";
  }

  std::string checkFifo(uint32_t fifo, bool producer) {
    if (fifo >= exe.fifos.size())
      return "FIFO index out of range";
    const FifoDesc &f = exe.fifos[fifo];
    if ((producer ? f.producer : f.consumer) != p.unit)
      return "unit " + m.units[p.unit].name + " is not the " +
             (producer ? "producer" : "consumer") + " of FIFO '" + f.name + "'";
    return "";
  }

  std::string checkInst(const Inst &i, size_t pc, std::vector<uint32_t> &open) {
    switch (i.op) {
    case Opcode::Halt:
      return "";
    case Opcode::SetImm:
      return s(i.a) ? "" : "register out of range";
    case Opcode::Alu:
      if (i.sub >= kNumAluOps)
        return "unknown ALU operation";
      return s(i.a) && s(i.b) && s(i.c) ? "" : "register out of range";
    case Opcode::MovS:
      return s(i.a) && s(i.b) ? "" : "register out of range";
    case Opcode::SelectS:
      return s(i.a) && s(i.b) && s(i.c) && s(i.d) ? ""
                                                  : "register out of range";
    case Opcode::LoopBegin:
      if (!(s(i.a) && s(i.b) && s(i.c) && s(i.d)))
        return "register out of range";
      if (i.e <= pc || i.e >= p.insts.size() ||
          p.insts[i.e].op != Opcode::LoopEnd || p.insts[i.e].e != pc)
        return "unmatched loop";
      open.push_back(pc);
      return "";
    case Opcode::LoopEnd:
      if (open.empty() || open.back() != i.e)
        return "unmatched loop";
      open.pop_back();
      return s(i.a) && s(i.c) && s(i.d) ? "" : "register out of range";
    case Opcode::Dma:
    case Opcode::RemoteDma:
      if (i.a >= m.memories.size() || i.c >= m.memories.size())
        return "memory index out of range";
      if (!(s(i.b) && s(i.d) && s(i.e)))
        return "register out of range";
      if (i.f != kNoReg && !(s(i.f) && s(i.g) && s(i.h)))
        return "register out of range";
      if (i.sub == kDmaRows)
        return "";
      if (i.sub != kDmaPlanes)
        return "unknown dma form";
      if (i.f == kNoReg)
        return "planes of a dma without rows";
      return s(i.i) && s(i.j) && s(i.k) ? "" : "register out of range";
    case Opcode::Fill:
      if (i.a >= m.memories.size())
        return "memory index out of range";
      if (!(s(i.b) && s(i.c)))
        return "register out of range";
      if (i.d != kNoReg && !(s(i.d) && s(i.e)))
        return "register out of range";
      return "";
    case Opcode::Load:
    case Opcode::Store:
      if (i.b >= m.memories.size())
        return "memory index out of range";
      if (!(s(i.c) && s(i.d)))
        return "register out of range";
      if (i.sub > kTransferRows)
        return "unknown load or store form";
      if (i.sub == kTransferRows && !(s(i.e) && s(i.f)))
        return "register out of range";
      return checkFifo(i.a, i.op == Opcode::Load);
    case Opcode::Recv:
      if (!(v(i.a) && vt(i.c)))
        return "register out of range";
      return checkFifo(i.b, false);
    case Opcode::Send:
      return v(i.b) ? checkFifo(i.a, true) : "register out of range";
    case Opcode::Map:
      if (i.b >= p.maps.size())
        return "map body out of range";
      if (i.sub > p.maps[i.b].inputs.size())
        return "map accumulator input out of range";
      return v(i.a) && vt(i.c) ? "" : "register out of range";
    case Opcode::Reduce:
      if (static_cast<unsigned>(reduceKindOf(i.sub)) >= kNumReduceKinds)
        return "unknown reduction";
      if (reduceSubHasInit(i.sub) && !v(i.d))
        return "register out of range";
      [[fallthrough]];
    case Opcode::Broadcast:
      return v(i.a) && v(i.b) && vt(i.c) ? "" : "register out of range";
    case Opcode::Splat:
      return v(i.a) && vt(i.c) ? "" : "register out of range";
    case Opcode::ReadIndex:
      if (i.b >= m.memories.size())
        return "memory index out of range";
      if (!(s(i.a) && s(i.c) && s(i.d)))
        return "register out of range";
      return llvm::is_contained({1, 2, 4, 8}, i.sub) ? "" : "bad index width";
    case Opcode::Iota:
      if (!(v(i.a) && s(i.b) && vt(i.c)))
        return "register out of range";
      return i.sub <= p.vtypes[i.c].shape.size()
                 ? ""
                 : "iota dimension out of range";
    case Opcode::Matmul:
      return v(i.a) && v(i.b) && v(i.c) && v(i.d) && vt(i.e)
                 ? ""
                 : "register out of range";
    case Opcode::MovV:
      return v(i.a) && v(i.b) ? "" : "register out of range";
    case Opcode::SyncSend:
    case Opcode::SyncRecv: {
      if (i.a >= exe.syncs.size())
        return "sync index out of range";
      const SyncDesc &sd = exe.syncs[i.a];
      bool send = i.op == Opcode::SyncSend;
      if ((send ? sd.sender : sd.receiver) != p.unit)
        return "unit " + m.units[p.unit].name + " is not the " +
               (send ? "sender" : "receiver") + " of sync '" + sd.name + "'";
      return "";
    }
    }
    return "unknown opcode";
  }

  const Machine &m;
  const Executable &exe;
  const UnitProgram &p;
  std::string where;
};
} // namespace

std::string SourceTable::describe(size_t program, size_t pc) const {
  if (program >= programs.size() || pc >= programs[program].size())
    return "";
  const SourceLoc &loc = programs[program][pc];
  if (loc.file == 0 || loc.file > files.size())
    return "";
  return files[loc.file - 1] + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.col);
}

std::string Executable::validate(const Machine &machine) const {
  for (const FifoDesc &f : fifos) {
    if (f.producer >= machine.units.size() ||
        f.consumer >= machine.units.size() || f.link >= machine.links.size())
      return "FIFO '" + f.name + "' refers to a unit or link out of range";
    if (f.depth == 0 || f.entryBytes == 0 || f.entryBytes > (1u << 20))
      return "FIFO '" + f.name + "' has a zero depth or a bad entry size";
  }
  for (const SyncDesc &s : syncs)
    if (s.sender >= machine.units.size() || s.receiver >= machine.units.size())
      return "sync '" + s.name + "' refers to a unit out of range";
  std::vector<bool> seen(machine.units.size(), false);
  for (size_t i = 0; i < programs.size(); ++i) {
    if (programs[i].unit < seen.size()) {
      if (seen[programs[i].unit])
        return "two programs for unit " + machine.units[programs[i].unit].name;
      seen[programs[i].unit] = true;
    }
    if (std::string err =
            ProgramValidator(machine, *this, programs[i], i).run();
        !err.empty())
      return err;
  }
  return "";
}
