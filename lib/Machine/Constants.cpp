//===- Constants.cpp - The scalars of a program that hold one value -------===//
//
// This file implements ConstantsShape and Constants (SameWalks.h): which
// scalar registers of a program hold one value wherever they are read,
// found register by register as the estimate asks.
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"
#include "ScalarSteps.h"

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
    : Constants(program, std::make_shared<const ConstantsShape>(program), end) {
}

Constants::Constants(const UnitProgram &program,
                     std::shared_ptr<const ConstantsShape> shape, size_t end)
    : insts(&program.insts), shape(std::move(shape)),
      end(std::min(end, program.insts.size())),
      states(this->shape->single.size(), Unfound),
      slots(new Slot[this->shape->single.size()]) {}

Constants::State Constants::find(uint32_t reg) {
  // The sources a definition reads are defined before it (definedBefore):
  // found first, deepest first, without recursion.
  llvm::SmallVector<uint32_t, 16> stack{reg};
  while (!stack.empty()) {
    uint32_t top = stack.back();
    if (states[top] != Unfound) {
      stack.pop_back();
      continue;
    }
    size_t pc = shape->definedAt[top];
    const Inst &in = (*insts)[pc];
    size_t before = stack.size();
    auto need = [&](uint32_t source) {
      if (definedBefore(source, pc) && states[source] == Unfound)
        stack.push_back(source);
    };
    switch (in.op) {
    case Opcode::LoopBegin:
    case Opcode::SelectS:
      need(in.b);
      need(in.c);
      need(in.d);
      break;
    case Opcode::Alu:
      need(in.b);
      need(in.c);
      break;
    case Opcode::MovS:
      need(in.b);
      break;
    default: // A set_imm or an index read.
      break;
    }
    if (stack.size() == before) {
      evaluate(top);
      stack.pop_back();
    }
  }
  return State(states[reg]);
}

void Constants::evaluate(uint32_t reg) {
  size_t pc = shape->definedAt[reg];
  const Inst &in = (*insts)[pc];
  switch (in.op) {
  case Opcode::LoopBegin:
    if (counts(pc) && tripsAt(pc) <= 1)
      return set(reg, Unknown, valueOf(in.b), in.e);
    return set(reg, NotConstant);
  case Opcode::SetImm:
  case Opcode::MovS:
  case Opcode::SelectS:
  case Opcode::Alu:
    break;
  default: // An index read.
    return set(reg, NotConstant);
  }
  if (!llvm::all_of(scalarSources(in),
                    [&](uint32_t source) { return at(source, pc); }))
    return set(reg, NotConstant);
  // Stepped on its sources' values, as the walk steps it
  // (stepKnownScalarInline).
  KnownScalar b = in.op == Opcode::SetImm ? KnownScalar() : valueOf(in.b);
  KnownScalar value;
  switch (in.op) {
  case Opcode::SetImm:
    value = in.imm;
    break;
  case Opcode::MovS:
    value = b;
    break;
  case Opcode::SelectS:
    value = b ? (*b != 0 ? valueOf(in.c) : valueOf(in.d)) : KnownScalar();
    break;
  default: { // An alu.
    KnownScalarStep step;
    value = knownAluOf(in, b, valueOf(in.c), step);
    break;
  }
  }
  set(reg, Unknown, value);
}
