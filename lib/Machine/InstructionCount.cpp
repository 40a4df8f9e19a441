//===- InstructionCount.cpp - Instructions a unit program executes --------===//
//
// This file bounds from below the instructions a unit program executes, so
// that the simulator refuses a program over its work budget before running
// it instead of after minutes. Programs have no branches but counted loops,
// so one walk in program order with the scalar registers whose values are
// known suffices: a loop body is walked once with every register it writes
// unknown (true on every iteration) and counted trip-count times.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Program.h"

#include "llvm/ADT/STLExtras.h"

#include <vector>

using namespace ktflow::machine;

namespace {
class Counter {
public:
  explicit Counter(const UnitProgram &program)
      : program(program), regs(program.numSRegs) {}

  InstructionBound run() {
    InstructionBound bound;
    top = &bound;
    bound.instructions = walk(0, program.insts.size(), /*depth=*/0).count;
    return bound;
  }

private:
  using Known = KnownScalar;
  struct Walked {
    uint64_t count = 0;
    /// Execution stops in the walked range (a halt, or an instruction that
    /// fails on known operands).
    bool stops = false;
  };

  static uint64_t add(uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
  }
  static uint64_t mul(uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
  }

  /// The scalar registers instructions [begin, end) write.
  std::vector<uint32_t> written(size_t begin, size_t end) const {
    std::vector<uint32_t> regs;
    for (size_t pc = begin; pc < end; ++pc)
      switch (program.insts[pc].op) {
      case Opcode::SetImm:
      case Opcode::Alu:
      case Opcode::MovS:
      case Opcode::SelectS:
      case Opcode::LoopBegin:
      case Opcode::LoopEnd:
        regs.push_back(program.insts[pc].a);
        break;
      default:
        break;
      }
    return regs;
  }

  bool halts(size_t begin, size_t end) const {
    for (size_t pc = begin; pc < end; ++pc)
      if (program.insts[pc].op == Opcode::Halt)
        return true;
    return false;
  }

  /// Iterations of `for (iv = lb; iv < ub; iv += step)`.
  static uint64_t tripCount(int64_t lb, int64_t ub, int64_t step) {
    if (lb >= ub)
      return 0;
    unsigned __int128 span = static_cast<unsigned __int128>(
        static_cast<__int128>(ub) - static_cast<__int128>(lb));
    return static_cast<uint64_t>((span + static_cast<uint64_t>(step) - 1) /
                                 static_cast<uint64_t>(step));
  }

  Walked walk(size_t begin, size_t end, unsigned depth) {
    Walked result;
    for (size_t pc = begin; pc < end;) {
      const Inst &in = program.insts[pc];
      result.count = add(result.count, 1);
      switch (in.op) {
      case Opcode::Halt:
        result.stops = true;
        return result;
      case Opcode::SetImm:
      case Opcode::MovS:
      case Opcode::SelectS:
      case Opcode::Alu:
        if (stepKnownScalar(in, regs) == KnownScalarStep::Fails) {
          result.stops = true; // the simulator fails here
          return result;
        }
        break;
      case Opcode::LoopBegin: {
        if (regs[in.d] && *regs[in.d] <= 0) {
          result.stops = true; // a non-positive step fails
          return result;
        }
        Walked loop = walkLoop(pc, depth);
        result.count = add(result.count, loop.count);
        if (loop.stops) {
          result.stops = true;
          return result;
        }
        pc = in.e + 1;
        continue;
      }
      default:
        break;
      }
      ++pc;
    }
    return result;
  }

  /// The loop at `pc` after its loop_begin: its iterations (each with its
  /// loop_end) and, afterwards, its body's registers unknown.
  Walked walkLoop(size_t pc, unsigned depth) {
    const Inst &in = program.insts[pc];
    size_t endPc = in.e;
    std::vector<uint32_t> body = written(pc + 1, endPc);
    Known lb = regs[in.b], ub = regs[in.c], step = regs[in.d];
    bool fixed = lb && ub && step && llvm::none_of(body, [&](uint32_t r) {
                   return r == in.a || r == in.c || r == in.d;
                 });
    std::optional<uint64_t> trips;
    if (fixed)
      trips = tripCount(*lb, *ub, *step);
    Walked loop;
    if (trips && *trips == 0) {
      regs[in.a] = lb;
      return loop;
    }
    // Unknown on every iteration: what the body writes, the induction
    // variable.
    for (uint32_t r : body)
      regs[r] = std::nullopt;
    regs[in.a] = std::nullopt;
    if (!trips) {
      // It may run zero times; if it runs, it may halt.
      loop.stops = halts(pc + 1, endPc);
      return loop;
    }
    Walked iteration = walk(pc + 1, endPc, depth + 1);
    if (iteration.stops) {
      loop.count = iteration.count;
      loop.stops = true;
      return loop;
    }
    loop.count = mul(*trips, add(iteration.count, 1));
    for (uint32_t r : body)
      regs[r] = std::nullopt;
    regs[in.a] = std::nullopt;
    if (depth == 0 && (!top->heaviestLoop || loop.count > heaviestCount)) {
      top->heaviestLoop = static_cast<uint32_t>(pc);
      top->heaviestLoopTrips = *trips;
      heaviestCount = loop.count;
    }
    return loop;
  }

  const UnitProgram &program;
  std::vector<Known> regs;
  InstructionBound *top = nullptr;
  uint64_t heaviestCount = 0;
};
} // namespace

InstructionBound
ktflow::machine::boundInstructions(const UnitProgram &program) {
  return Counter(program).run();
}
