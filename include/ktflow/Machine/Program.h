//===- Program.h - Executable unit programs ---------------------*- C++ -*-===//
//
// This file declares the executable form of a DataflowIR kernel: one
// instruction stream per execution-unit instance, plus the FIFOs and sync
// channels that join them. The bundle encodes exactly this (see
// docs/bundle-format.md); the simulator executes it.
//
// Scalar registers hold 64-bit integers (addresses, sizes, loop counters);
// vector registers hold typed vectors. Loops are counted: LoopBegin/LoopEnd
// with bounds in scalar registers. A Map applies a small scalar micro-program
// to every element of its input vectors.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_PROGRAM_H
#define KTFLOW_MACHINE_PROGRAM_H

#include "ktflow/Machine/Machine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::machine {

enum class Opcode : uint8_t {
  Halt,      ///< end of program
  SetImm,    ///< s[a] = imm (a relocation site when imm is a runtime symbol)
  Alu,       ///< s[a] = s[b] <sub> s[c]
  MovS,      ///< s[a] = s[b]
  LoopBegin, ///< s[a] = s[b]; if !(s[a] < s[c]) goto e + 1   (step s[d]);
             ///< sub = D >= kLoopSkewed when the body issues the loads
             ///< of the execution D ahead before this one's stores (a
             ///< hint for the estimate; the simulator runs every loop
             ///< alike)
  LoopEnd,   ///< s[a] += s[d]; if s[a] < s[c] goto e + 1
  Dma,       ///< copy s[e] bytes x s[f] rows, mem a @ s[b] -> mem c @ s[d]
             ///< (row strides s[g], s[h]; f == kNoReg means one row);
             ///< sub = kDmaPlanes: x s[i] planes of those rows (plane
             ///< strides s[j], s[k]), one transfer
  Load,      ///< FIFO a <- s[d] bytes of mem b @ s[c], one entry at a time;
             ///< sub = kTransferRows: x s[e] rows s[f] bytes apart, an
             ///< entry continuing over the rows
  Store,     ///< mem b @ s[c] <- s[d] bytes popped from FIFO a; sub =
             ///< kTransferRows: x s[e] rows s[f] bytes apart
  Recv,      ///< v[a] = pop FIFO b, typed vtypes[c]
  Send,      ///< push v[b] on FIFO a
  Map,       ///< v[a] = maps[b] applied element-wise, typed vtypes[c];
             ///< sub = 1 + the input that is a wide accumulator, or 0
  Reduce,    ///< v[a] = reduce<sub> of v[b] along its last dim, vtypes[c]
             ///< (from v[d] when reduceSubHasInit(sub))
             ///< (16-bit floats accumulate in f32, rounded once)
  Broadcast, ///< v[a] = v[b] repeated along the last dim, vtypes[c]
  Splat,     ///< v[a] = bit_cast<double>(imm), vtypes[c]
  Matmul,    ///< v[a] = v[d] + v[b] x v[c], vtypes[e]
  MovV,      ///< v[a] = v[b]
  SyncSend,  ///< send one token on sync channel a
  SyncRecv,  ///< wait for and consume one token of sync channel a
  SelectS,   ///< s[a] = s[b] != 0 ? s[c] : s[d]
  RemoteDma, ///< as Dma, mem c in another core: over the core interconnect
  Fill,      ///< zero s[c] bytes x s[d] rows of mem a @ s[b] (row stride
             ///< s[e]; d == kNoReg means one row)
  Iota,      ///< v[a] = s[b] + the element's coordinate along dimension
             ///< sub - 1 (s[b] everywhere when sub = 0), vtypes[c]
  ReadIndex, ///< s[a] = the signed sub-byte integer of mem b @ s[c] (sub is
             ///< 1, 2, 4 or 8); an error unless 0 <= s[a] < s[d]
};
constexpr unsigned kNumOpcodes = static_cast<unsigned>(Opcode::ReadIndex) + 1;
/// LoopBegin's sub: plain, or skewed D = sub executions ahead.
constexpr uint8_t kLoopPlain = 0, kLoopSkewed = 1, kLoopSkewedMax = 255;
/// A Dma's or RemoteDma's sub: rows (one level of strides), or planes of
/// rows (two levels: fields i, j, k are the planes and their strides).
constexpr uint8_t kDmaRows = 0, kDmaPlanes = 1;
/// A Load's or Store's sub: one run of bytes, or rows of them (fields e
/// and f are the rows and their stride).
constexpr uint8_t kTransferRun = 0, kTransferRows = 1;
const char *opcodeName(Opcode op);

enum class AluOp : uint8_t {
  Add,
  Sub,
  Mul,
  DivS,
  DivU,
  RemS,
  RemU,
  CeilDivS,
  CeilDivU,
  FloorDivS,
  MinS,
  MinU,
  MaxS,
  MaxU,
  And,
  Or,
  Xor,
  Shl,
  ShrS,
  ShrU,
  // Comparisons yield 1 or 0.
  Eq,
  Ne,
  Slt,
  Sle,
  Sgt,
  Sge,
  Ult,
  Ule,
  Ugt,
  Uge,
};
constexpr unsigned kNumAluOps = static_cast<unsigned>(AluOp::Uge) + 1;

/// Computes `a <op> b` as an alu instruction does into `r`; false on
/// signed overflow or division by zero (the instruction then fails).
bool evaluateAlu(AluOp op, int64_t a, int64_t b, int64_t &r);

/// The fold of a Reduce. Max/Min propagate NaN (arith.maximumf/minimumf,
/// and maxsi/minsi); MaxNum/MinNum skip it, a NaN element leaving the other
/// operand (arith.maxnumf/minnumf): only a chunk of NaN alone reduces to
/// NaN. MaxAfterNaN/MinAfterNaN are the select form with the accumulator
/// on the compare's left, `cmp(acc, x) ? acc : x`: a NaN element replaces
/// the accumulator and the next element replaces the NaN, so a row folds
/// to the extremum of what follows its last NaN. That fold is not one of
/// the chunks alone (a chunk holding a NaN discards what came before it),
/// so these two start from an initial accumulator, register d (one value
/// per row), where the others start from the row's first element. All
/// order -0 below +0. The values are the bundle's encoding.
enum class ReduceKind : uint8_t {
  Add,
  Mul,
  Max,
  Min,
  MaxNum,
  MinNum,
  MaxAfterNaN,
  MinAfterNaN
};
constexpr unsigned kNumReduceKinds = 8;
const char *reduceKindName(ReduceKind kind);
/// Whether a Reduce of `kind` folds from the initial accumulator in d.
inline bool reduceHasInit(ReduceKind kind) {
  return kind == ReduceKind::MaxAfterNaN || kind == ReduceKind::MinAfterNaN;
}
/// A Reduce's sub: its kind, with this bit set when a kind that needs no
/// initial accumulator folds from one in d all the same (an `add` whose
/// first step adds the row's accumulator, so no map folds its result in).
constexpr uint8_t kReduceFromInit = 0x80;
inline ReduceKind reduceKindOf(uint8_t sub) {
  return static_cast<ReduceKind>(sub & ~kReduceFromInit);
}
/// Whether a Reduce with `sub` folds from the initial accumulator in d.
inline bool reduceSubHasInit(uint8_t sub) {
  return (sub & kReduceFromInit) || reduceHasInit(reduceKindOf(sub));
}

/// Element-wise scalar operations of a Map body.
enum class ScalarOp : uint8_t {
  Const,
  AddF,
  SubF,
  MulF,
  DivF,
  MaxF, ///< NaN if an operand is NaN, -0 below +0 (arith.maximumf)
  MinF, ///< NaN if an operand is NaN, -0 below +0 (arith.minimumf)
  NegF,
  AbsF,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  Silu,
  Gelu,
  Recip,
  Erf,
  AddI,
  SubI,
  MulI,
  DivSI,
  RemSI,
  MaxSI,
  MinSI,
  AndI,
  OrI,
  XorI,
  Cast,         ///< value conversion; the source is signed if an integer
  CastUnsigned, ///< value conversion; the source is unsigned
  CmpF,         ///< imm holds a CmpFPredicate
  CmpI,         ///< imm holds a CmpIPredicate
  Select,       ///< a ? b : c
  MaxNumF,      ///< the operand that is not NaN, else MaxF's result
  MinNumF,      ///< the operand that is not NaN, else MinF's result
};
constexpr unsigned kNumScalarOps = static_cast<unsigned>(ScalarOp::MinNumF) + 1;

/// The comparison of a CmpF micro-op: ordered predicates are false when an
/// operand is NaN, unordered ones true. The values are the bundle's
/// encoding (docs/bundle-format.md) and never change.
enum class CmpFPredicate : uint8_t {
  False,
  Oeq,
  Ogt,
  Oge,
  Olt,
  Ole,
  One,
  Ord,
  Ueq,
  Ugt,
  Uge,
  Ult,
  Ule,
  Une,
  Uno,
  True,
};
/// The comparison of a CmpI micro-op; the unsigned ones read the operands
/// as unsigned integers of the source type. Encoded like CmpFPredicate.
enum class CmpIPredicate : uint8_t {
  Eq,
  Ne,
  Slt,
  Sle,
  Sgt,
  Sge,
  Ult,
  Ule,
  Ugt,
  Uge,
};
const char *scalarOpName(ScalarOp op);
/// The throughput class a scalar op is costed in.
OpClass scalarOpClass(ScalarOp op);
/// Number of slot operands an op reads.
unsigned scalarOpArity(ScalarOp op);

constexpr uint32_t kNoReg = UINT32_MAX;

struct VectorType {
  ElemType elem = ElemType::f16;
  std::vector<uint32_t> shape;
  uint64_t numElements() const {
    uint64_t n = 1;
    for (uint32_t d : shape)
      n *= d;
    return n;
  }
  uint64_t bytes() const { return numElements() * elemBytes(elem); }
  std::string str() const;
  bool operator==(const VectorType &o) const {
    return elem == o.elem && shape == o.shape;
  }
};

struct MicroOp {
  ScalarOp op = ScalarOp::Const;
  ElemType type = ElemType::f32;    ///< result type
  ElemType srcType = ElemType::f32; ///< type of operand a (casts, compares)
  uint32_t dst = 0, a = 0, b = 0, c = 0; ///< slot indices
  double imm = 0;
};

/// A Map's micro-program: slots [0, inputs.size()) hold the inputs; each op
/// writes its own slot; the result is `resultSlot`.
struct MapBody {
  std::vector<uint32_t> inputs; ///< vector registers
  uint32_t numSlots = 0;
  std::vector<MicroOp> ops;
  uint32_t resultSlot = 0;
};

struct Inst {
  Opcode op = Opcode::Halt;
  uint8_t sub = 0;
  uint32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
  /// A two-level DMA's planes and plane strides (sub = kDmaPlanes).
  uint32_t i = 0, j = 0, k = 0;
  int64_t imm = 0;
};

/// Whether `in` is a Dma or RemoteDma that moves planes of rows.
inline bool hasPlanes(const Inst &in) {
  return (in.op == Opcode::Dma || in.op == Opcode::RemoteDma) &&
         in.sub == kDmaPlanes;
}

/// What a static walk of a program (instruction counts, the estimate) knows
/// of one scalar register: its value, or std::nullopt where it depends on
/// what is only known at run time.
using KnownScalar = std::optional<int64_t>;

enum class KnownScalarStep {
  /// `in` is not a scalar instruction; `regs` is unchanged.
  NotScalar,
  /// `in` computed its register (possibly to unknown).
  Done,
  /// An alu instruction on known operands that the simulator fails on;
  /// its register is now unknown.
  Fails,
};

/// Applies the scalar instruction `in` (set_imm, mov_s, select_s, alu) to
/// the registers a static walk knows, as the simulator would.
KnownScalarStep stepKnownScalar(const Inst &in, std::vector<KnownScalar> &regs);

/// One execution unit's program.
struct UnitProgram {
  uint32_t unit = 0; ///< index into Machine::units
  uint32_t numSRegs = 0;
  uint32_t numVRegs = 0;
  std::vector<VectorType> vtypes;
  std::vector<MapBody> maps;
  std::vector<Inst> insts;
};

struct FifoDesc {
  std::string name;
  uint32_t producer = 0, consumer = 0; ///< unit indices
  uint32_t link = 0;                   ///< the producer -> consumer link
  uint32_t depth = 1;                  ///< entries
  uint32_t entryBytes = 0;             ///< largest payload of an entry
};

struct SyncDesc {
  std::string name;
  uint32_t sender = 0, receiver = 0; ///< unit indices
};

/// Where an instruction comes from in the kernel's source: the file
/// `SourceTable::files[file - 1]` (0: unknown), a line and a column.
struct SourceLoc {
  uint32_t file = 0, line = 0, col = 0;
  bool operator==(const SourceLoc &o) const {
    return file == o.file && line == o.line && col == o.col;
  }
};

/// The kernel source location of every instruction, so that errors found
/// while running name the op of the kernel that became the instruction.
struct SourceTable {
  /// File names, each once.
  std::vector<std::string> files;
  /// Indexed like the programs; each holds one location per instruction.
  /// Empty when nothing is known.
  std::vector<std::vector<SourceLoc>> programs;

  /// "FILE:LINE:COL" of instruction `pc` of program `program`; "" when
  /// unknown or out of the table.
  std::string describe(size_t program, size_t pc) const;
};

/// Everything a machine executes, minus memory contents.
struct Executable {
  std::vector<UnitProgram> programs;
  std::vector<FifoDesc> fifos;
  std::vector<SyncDesc> syncs;
  /// Where the instructions come from, for error messages; may be empty.
  SourceTable sources;

  /// Checks every index against the machine and the program's own tables,
  /// so a decoded (possibly hostile) executable can never index out of
  /// range. Returns "" when valid.
  std::string validate(const Machine &machine) const;
};

/// The fewest instructions a (validated) unit program executes if it runs
/// to completion. Registers set by set_imm, and computed from known
/// registers by alu, mov_s and select_s, are known (relocated addresses and
/// runtime arguments included); a loop runs its trip count of times when
/// its bounds and step are known and its body writes none of them nor its
/// induction variable, and counts as running zero times otherwise.
struct InstructionBound {
  uint64_t instructions = 0;
  /// The outermost loop that executes the most instructions and its trip
  /// count, when some loop with a known trip count runs.
  std::optional<uint32_t> heaviestLoop;
  uint64_t heaviestLoopTrips = 0;
};
InstructionBound boundInstructions(const UnitProgram &program);

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_PROGRAM_H
