//===- Printer.cpp - Human-readable bundles -------------------------------===//
//
// This file prints a bundle for `ktflow inspect`: header facts, the runtime
// symbols (tensors, runtime arguments) with their relocation sites, buffers,
// FIFOs, syncs, and a disassembly of every unit program.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Bundle/Bundle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::bundle;
using machine::Inst;
using machine::Opcode;

static const char *aluName(uint8_t op) {
  static const char *names[] = {
      "add",  "sub",  "mul",  "divs", "divu", "rems", "remu",
      "ceildivs", "ceildivu", "floordivs", "mins", "minu", "maxs", "maxu",
      "and",  "or",   "xor",  "shl",  "shrs", "shru", "eq", "ne", "slt",
      "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  return op < machine::kNumAluOps ? names[op] : "?";
}

static std::string memName(const Bundle &b, uint32_t m) {
  return m < b.machine.memories.size() ? b.machine.memories[m].name : "?";
}
static std::string fifoName(const Bundle &b, uint32_t f) {
  return f < b.fifos.size() ? "@" + b.fifos[f].name : "?";
}
static std::string vtypeStr(const machine::UnitProgram &p, uint32_t t) {
  return t < p.vtypes.size() ? p.vtypes[t].str() : "?";
}

/// `@SYMBOL`, followed by the kernel's name for it when that differs:
/// `@arg1 (x)`, `@lit8192 (@8192)`.
template <typename SymbolT>
static std::string symbolRef(const SymbolT &symbol) {
  std::string name = getKernelName(symbol);
  return "@" + symbol.name + (name == symbol.name ? "" : " (" + name + ")");
}

/// The symbol patched into instruction `pc` of program `index`, if any.
static std::string relocatedSymbol(const Bundle &b, int64_t index,
                                   llvm::ArrayRef<uint32_t> immOffsets,
                                   size_t pc) {
  if (index < 0 || pc >= immOffsets.size() || !immOffsets[pc])
    return "";
  for (const Relocation &r : b.relocations) {
    if (r.program != index || r.offset != immOffsets[pc])
      continue;
    if (r.kind == SymbolKind::TensorAddress && r.symbol < b.tensors.size())
      return "address of " + symbolRef(b.tensors[r.symbol]);
    if (r.kind == SymbolKind::RuntimeArg && r.symbol < b.runtimeArgs.size())
      return "value of " + symbolRef(b.runtimeArgs[r.symbol]);
    if (r.kind == SymbolKind::RuntimeArgAsFloat &&
        r.symbol < b.runtimeArgs.size())
      return "value of " + symbolRef(b.runtimeArgs[r.symbol]) + " as a float";
  }
  return "";
}

void ktflow::bundle::disassemble(llvm::raw_ostream &os,
                                 const machine::UnitProgram &p,
                                 const Bundle &b) {
  disassemble(os, p, b, -1);
}

void ktflow::bundle::disassemble(llvm::raw_ostream &os,
                                 const machine::UnitProgram &p, const Bundle &b,
                                 int64_t programIndex) {
  std::vector<uint32_t> immOffsets;
  // Encoding is deterministic, so re-encoding finds the immediates' offsets.
  (void)encodeProgram(p, &immOffsets);
  auto s = [](uint32_t r) { return "s" + std::to_string(r); };
  auto v = [](uint32_t r) { return "v" + std::to_string(r); };
  for (size_t i = 0; i < p.maps.size(); ++i) {
    const machine::MapBody &m = p.maps[i];
    os << "    map#" << i << "(";
    for (size_t k = 0; k < m.inputs.size(); ++k)
      os << (k ? ", " : "") << v(m.inputs[k]);
    os << "):";
    for (const machine::MicroOp &op : m.ops) {
      os << " %" << op.dst << " = " << machine::scalarOpName(op.op);
      if (op.op == machine::ScalarOp::Const)
        os << " " << op.imm;
      unsigned arity = machine::scalarOpArity(op.op);
      if (arity > 0) os << " %" << op.a;
      if (arity > 1) os << ", %" << op.b;
      if (arity > 2) os << ", %" << op.c;
      os << " : " << machine::elemTypeName(op.type) << ";";
    }
    os << " -> %" << m.resultSlot << "\n";
  }
  for (size_t pc = 0; pc < p.insts.size(); ++pc) {
    const Inst &in = p.insts[pc];
    os << llvm::format("    %4zu  ", pc) << machine::opcodeName(in.op);
    switch (in.op) {
    case Opcode::Halt:
      break;
    case Opcode::SetImm: {
      std::string sym = relocatedSymbol(b, programIndex, immOffsets, pc);
      os << " " << s(in.a) << ", ";
      if (sym.empty())
        os << in.imm;
      else
        os << "<" << sym << ">";
      break;
    }
    case Opcode::Alu:
      os << "." << aluName(in.sub) << " " << s(in.a) << ", " << s(in.b)
         << ", " << s(in.c);
      break;
    case Opcode::MovS:
      os << " " << s(in.a) << ", " << s(in.b);
      break;
    case Opcode::SelectS:
      os << " " << s(in.a) << " = " << s(in.b) << " ? " << s(in.c) << " : "
         << s(in.d);
      break;
    case Opcode::LoopBegin:
      os << " " << s(in.a) << " = " << s(in.b) << " to " << s(in.c)
         << " step " << s(in.d) << " (end " << in.e << ")";
      if (in.sub >= machine::kLoopSkewed)
        os << " skewed " << static_cast<unsigned>(in.sub);
      break;
    case Opcode::LoopEnd:
      os << " " << s(in.a) << " (begin " << in.e << ")";
      break;
    case Opcode::Dma:
    case Opcode::RemoteDma:
      os << " " << s(in.e) << " bytes";
      if (in.f != machine::kNoReg)
        os << " x " << s(in.f) << " rows";
      os << " from " << memName(b, in.a) << "[" << s(in.b) << "] to "
         << memName(b, in.c) << "[" << s(in.d) << "]";
      if (in.f != machine::kNoReg)
        os << " strides " << s(in.g) << ", " << s(in.h);
      if (machine::hasPlanes(in))
        os << " x " << s(in.i) << " planes strides " << s(in.j) << ", "
           << s(in.k);
      break;
    case Opcode::Fill:
      os << " " << s(in.c) << " bytes";
      if (in.d != machine::kNoReg)
        os << " x " << s(in.d) << " rows";
      os << " to " << memName(b, in.a) << "[" << s(in.b) << "]";
      if (in.d != machine::kNoReg)
        os << " stride " << s(in.e);
      break;
    case Opcode::Load:
      os << " " << fifoName(b, in.a) << " <- " << memName(b, in.b) << "["
         << s(in.c) << "], " << s(in.d) << " bytes";
      if (in.sub == machine::kTransferRows)
        os << " x " << s(in.e) << " rows stride " << s(in.f);
      break;
    case Opcode::Store:
      os << " " << memName(b, in.b) << "[" << s(in.c) << "] <- "
         << fifoName(b, in.a) << ", " << s(in.d) << " bytes";
      if (in.sub == machine::kTransferRows)
        os << " x " << s(in.e) << " rows stride " << s(in.f);
      break;
    case Opcode::Recv:
      os << " " << v(in.a) << " <- " << fifoName(b, in.b) << " : "
         << vtypeStr(p, in.c);
      break;
    case Opcode::Send:
      os << " " << fifoName(b, in.a) << " <- " << v(in.b);
      break;
    case Opcode::Map:
      os << " " << v(in.a) << " = map#" << in.b;
      if (in.sub)
        os << " accumulator " << (in.sub - 1);
      os << " : " << vtypeStr(p, in.c);
      break;
    case Opcode::Reduce: {
      auto kind = machine::reduceKindOf(in.sub);
      os << "." << machine::reduceKindName(kind) << " " << v(in.a) << " = "
         << v(in.b);
      if (machine::reduceSubHasInit(in.sub))
        os << " from " << v(in.d);
      os << " : " << vtypeStr(p, in.c);
      break;
    }
    case Opcode::Broadcast:
      os << " " << v(in.a) << " = " << v(in.b) << " : " << vtypeStr(p, in.c);
      break;
    case Opcode::Splat: {
      double value;
      std::memcpy(&value, &in.imm, sizeof(double));
      os << " " << v(in.a) << " = " << value << " : " << vtypeStr(p, in.c);
      break;
    }
    case Opcode::ReadIndex:
      os << " " << s(in.a) << " = i" << (8 * in.sub) << " " << memName(b, in.b)
         << "[" << s(in.c) << "] below " << s(in.d);
      break;
    case Opcode::Iota:
      os << " " << v(in.a) << " = s" << in.b;
      if (in.sub)
        os << " + coordinate " << (in.sub - 1);
      os << " : " << vtypeStr(p, in.c);
      break;
    case Opcode::Matmul:
      os << " " << v(in.a) << " = " << v(in.d) << " + " << v(in.b) << " x "
         << v(in.c) << " : " << vtypeStr(p, in.e);
      break;
    case Opcode::MovV:
      os << " " << v(in.a) << ", " << v(in.b);
      break;
    case Opcode::SyncSend:
    case Opcode::SyncRecv:
      os << " @" << (in.a < b.syncs.size() ? b.syncs[in.a].name : "?");
      break;
    }
    os << "\n";
  }
}

/// ` argument N named "NAME"`: the kernel argument a symbol comes from, as
/// DataflowIR spells it.
static void printOrigin(llvm::raw_ostream &os, uint32_t argument,
                        llvm::StringRef name) {
  if (argument == kNoArg)
    return;
  os << " argument " << argument;
  if (name.empty())
    return;
  os << " named \"";
  llvm::printEscapedString(name, os);
  os << "\"";
}

void ktflow::bundle::printBundle(llvm::raw_ostream &os, const Bundle &b,
                                 size_t fileSize) {
  os << "bundle: version " << kVersion;
  if (fileSize)
    os << ", " << fileSize << " bytes";
  os << "\nkernel: " << b.kernel << "\n";
  os << "device: " << b.device << " (fingerprint "
     << llvm::format_hex(b.deviceFingerprint, 18) << "; "
     << b.machine.memories.size() << " memories, " << b.machine.units.size()
     << " units, " << b.machine.links.size() << " datapaths)\n";
  os << "tensors:\n";
  for (size_t i = 0; i < b.tensors.size(); ++i) {
    const TensorArg &t = b.tensors[i];
    os << "  @" << t.name << " : " << tensorRoleName(t.role) << " ";
    for (const TensorDim &d : t.dims) {
      if (d.runtimeArg != kNoArg && d.runtimeArg < b.runtimeArgs.size())
        os << "(" << (d.scale != 1 ? std::to_string(d.scale) + "*" : "") << "@"
           << b.runtimeArgs[d.runtimeArg].name << ")";
      else
        os << d.size;
      os << "x";
    }
    os << machine::elemTypeName(t.elem) << " in " << memName(b, t.memory);
    printOrigin(os, t.argument, t.argName);
    if (t.address)
      os << " at " << *t.address;
    if (t.tile)
      os << " of tile " << *t.tile;
    os << "\n";
  }
  os << "runtime args:\n";
  for (const RuntimeArg &a : b.runtimeArgs) {
    os << "  @" << a.name;
    if (std::optional<machine::ElemType> type = getFloatType(a)) {
      os << " float " << machine::elemTypeName(*type);
      printOrigin(os, a.argument, a.argName);
      os << "\n";
      continue;
    }
    if (a.lowerbound != 1)
      os << " lowerbound " << a.lowerbound;
    os << " granularity " << a.granularity << " upperbound " << a.upperbound;
    printOrigin(os, a.argument, a.argName);
    os << "\n";
  }
  os << "buffers:\n";
  for (const Buffer &buf : b.buffers)
    os << "  @" << buf.name << " in " << memName(b, buf.memory) << " ["
       << buf.offset << ", " << buf.offset + buf.size << ")\n";
  auto unitName = [&](uint32_t u) {
    return u < b.machine.units.size() ? b.machine.units[u].name
                                      : std::string("?");
  };
  os << "fifos:\n";
  for (const machine::FifoDesc &f : b.fifos)
    os << "  @" << f.name << " " << unitName(f.producer) << " -> "
       << unitName(f.consumer) << " depth " << f.depth << " entry "
       << f.entryBytes << " bytes\n";
  os << "syncs:\n";
  for (const machine::SyncDesc &sd : b.syncs)
    os << "  @" << sd.name << " " << unitName(sd.sender) << " -> "
       << unitName(sd.receiver) << "\n";
  os << "relocations:\n";
  for (const Relocation &r : b.relocations) {
    bool tensor = r.kind == SymbolKind::TensorAddress;
    std::string sym = "?";
    if (tensor && r.symbol < b.tensors.size())
      sym = "address of " + symbolRef(b.tensors[r.symbol]);
    else if (!tensor && r.symbol < b.runtimeArgs.size())
      sym = "value of " + symbolRef(b.runtimeArgs[r.symbol]) +
            (r.kind == SymbolKind::RuntimeArgAsFloat ? " as a float" : "");
    os << "  " << (r.program < b.programs.size()
                       ? unitName(b.programs[r.program].unit)
                       : std::string("?"))
       << " +" << r.offset << ": " << sym << "\n";
  }
  os << "programs:\n";
  for (size_t index = 0; index < b.programs.size(); ++index) {
    const EncodedProgram &p = b.programs[index];
    os << "  " << unitName(p.unit) << " (" << p.code.size() << " bytes)\n";
    auto decoded = decodeProgram(p.code, p.unit);
    if (!decoded) {
      os << "    <" << llvm::toString(decoded.takeError()) << ">\n";
      continue;
    }
    disassemble(os, *decoded, b, index);
  }
}
