//===- Constants.cpp - The scalars of a program that hold one value -------===//
//
// This file implements ConstantsShape and Constants (SameWalks.h): which
// scalar registers of a program hold one value wherever they are read,
// found register by register as the estimate asks.
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

llvm::SmallVector<uint32_t, 3> detail::scalarSources(const Inst &in) {
  switch (in.op) {
  case Opcode::MovS:
    return {in.b};
  case Opcode::SelectS:
    return {in.b, in.c, in.d};
  case Opcode::Alu:
    return {in.b, in.c};
  case Opcode::LoopBegin: // Its start and step.
    return {in.b, in.d};
  default:
    return {};
  }
}

bool detail::writesScalar(const Inst &in) {
  return in.op == Opcode::SetImm || in.op == Opcode::MovS ||
         in.op == Opcode::SelectS || in.op == Opcode::Alu ||
         in.op == Opcode::LoopBegin || in.op == Opcode::ReadIndex;
}

ConstantsShape::ConstantsShape(const UnitProgram &program)
    : definedAt(program.numSRegs, 0), single(program.numSRegs, false),
      loopEnds(program.insts.size(), SIZE_MAX) {
  std::vector<bool> defined(program.numSRegs, false);
  std::vector<size_t> open;
  for (auto [pc, in] : llvm::enumerate(program.insts)) {
    while (!open.empty() && pc > open.back())
      open.pop_back();
    loopEnds[pc] = open.empty() ? SIZE_MAX : open.back();
    if (in.op == Opcode::LoopBegin)
      open.push_back(in.e);
    if (writesScalar(in) && in.a < defined.size()) {
      single[in.a] = !defined[in.a];
      defined[in.a] = true;
      definedAt[in.a] = pc;
    }
  }
}

Constants::Constants(const UnitProgram &program, size_t end)
    : insts(&program.insts),
      shape(std::make_shared<const ConstantsShape>(program)),
      end(std::min(end, program.insts.size())) {}

Constants::Constants(const UnitProgram &program,
                     std::shared_ptr<const ConstantsShape> shape)
    : insts(&program.insts), shape(std::move(shape)),
      end(program.insts.size()) {}

const Constants::Found &Constants::value(uint32_t reg) {
  auto it = found.find(reg);
  if (it != found.end())
    return it->second;
  // The sources a definition reads are defined before it (definedBefore):
  // found first, deepest first, without recursion.
  llvm::SmallVector<uint32_t, 16> stack{reg};
  while (!stack.empty()) {
    uint32_t top = stack.back();
    if (found.contains(top)) {
      stack.pop_back();
      continue;
    }
    size_t pc = shape->definedAt[top];
    const Inst &in = (*insts)[pc];
    llvm::SmallVector<uint32_t, 3> reads;
    if (in.op == Opcode::LoopBegin)
      reads = {in.b, in.c, in.d};
    else if (in.op != Opcode::ReadIndex)
      reads = scalarSources(in);
    size_t before = stack.size();
    for (uint32_t source : reads)
      if (definedBefore(source, pc) && !found.contains(source))
        stack.push_back(source);
    if (stack.size() == before) {
      Found f = evaluate(top);
      found.try_emplace(top, f);
      stack.pop_back();
    }
  }
  return found.find(reg)->second;
}

Constants::Found Constants::evaluate(uint32_t reg) {
  Found f;
  size_t pc = shape->definedAt[reg];
  const Inst &in = (*insts)[pc];
  if (in.op == Opcode::ReadIndex)
    return f;
  if (in.op == Opcode::LoopBegin) {
    if (counts(pc) && tripsAt(pc) <= 1) {
      f.value = found.find(in.b)->second.value;
      f.scopeEnd = in.e;
    }
    return f;
  }
  if (!llvm::all_of(scalarSources(in),
                    [&](uint32_t source) { return at(source, pc); }))
    return f;
  // stepKnownScalar reads the sources alone and writes `reg`: stepped on
  // the instruction with its registers renumbered 0 (`reg`) to 3.
  Inst local = in;
  local.a = 0;
  local.b = 1;
  local.c = 2;
  local.d = 3;
  std::vector<KnownScalar> &regs = scratch;
  regs.assign(4, std::nullopt);
  auto of = [&](uint32_t source) { return *found.find(source)->second.value; };
  switch (in.op) {
  case Opcode::MovS:
    regs[1] = of(in.b);
    break;
  case Opcode::SelectS:
    regs[1] = of(in.b);
    regs[2] = of(in.c);
    regs[3] = of(in.d);
    break;
  case Opcode::Alu:
    regs[1] = of(in.b);
    regs[2] = of(in.c);
    break;
  default:
    break;
  }
  (void)stepKnownScalar(local, regs);
  f.value = regs[0];
  return f;
}
