//===- LockstepReach.cpp - What a lane's differing immediates reach -------===//
//
// This file implements the analyses of a walked program the lockstep check
// (SameCostOperands.cpp) makes once and keeps with its read trace
// (SameWalks.h): what a set of differing immediates reaches of what the
// walk reads, and which registers hold one value wherever they are read.
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"

#include "llvm/ADT/BitVector.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

/// What the set_imm instructions `differing` reach of what the walk reads
/// of `program` (ReadTrace::Reach): their registers, and those computed
/// from them (a loop's from its start or step, an index read's from its
/// bound), forwards until nothing more is found.
ReadTrace::Reach detail::reachOf(const UnitProgram &program,
                                 llvm::ArrayRef<size_t> counted,
                                 llvm::ArrayRef<size_t> differing) {
  const std::vector<Inst> &insts = program.insts;
  llvm::BitVector reached(program.numSRegs);
  auto isReached = [&](uint32_t reg) {
    return reg != kNoReg && reg < reached.size() && reached[reg];
  };
  for (size_t pc : differing)
    if (insts[pc].a < reached.size())
      reached.set(insts[pc].a);
  for (bool grew = true; grew;) {
    grew = false;
    for (const Inst &in : insts) {
      if (!writesScalar(in) || in.a >= reached.size() || reached[in.a])
        continue;
      llvm::SmallVector<uint32_t, 3> sources = scalarSources(in);
      if (in.op == Opcode::ReadIndex)
        sources.push_back(in.d);
      if (llvm::any_of(sources, isReached)) {
        reached.set(in.a);
        grew = true;
      }
    }
  }
  ReadTrace::Reach reach;
  reach.compared.assign(insts.size(), false);
  for (auto [pc, in] : llvm::enumerate(insts))
    reach.compared[pc] = !llvm::is_contained(counted, pc) &&
                         llvm::any_of(costOperands(in), isReached);
  reach.stepped = definitionsRead(program, counted, &reach.compared);
  // Per instruction, how many before it are stepped or compared.
  std::vector<size_t> touchedBefore(insts.size() + 1, 0);
  for (size_t pc = 0; pc < insts.size(); ++pc)
    touchedBefore[pc + 1] =
        touchedBefore[pc] + (reach.stepped[pc] || reach.compared[pc] ? 1 : 0);
  reach.skipped.assign(insts.size(), false);
  for (auto [pc, in] : llvm::enumerate(insts))
    if (in.op == Opcode::LoopBegin && !reach.stepped[pc])
      reach.skipped[pc] = touchedBefore[in.e] == touchedBefore[pc + 1];
  return reach;
}

/// Per scalar register of `program`, whether it has one definition and
/// every instruction that names it (but that definition) comes after it,
/// inside the loop around it: wherever it is read, the definition ran
/// first in the same trip of that loop.
std::vector<bool> detail::definedBeforeEveryUse(const UnitProgram &program) {
  ConstantsShape shape(program);
  std::vector<bool> before(shape.single);
  for (auto [pc, in] : llvm::enumerate(program.insts))
    for (uint32_t reg :
         {in.a, in.b, in.c, in.d, in.e, in.f, in.g, in.h, in.i, in.j, in.k}) {
      if (reg >= before.size() || !before[reg])
        continue;
      size_t at = shape.definedAt[reg];
      before[reg] = pc == at || (at < pc && pc <= shape.loopEnds[at]);
    }
  return before;
}
