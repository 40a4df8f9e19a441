//===- RenamingTest.cpp - Which programs' walks are copies, renamed -------===//
//
// This file checks SameWalks::renaming, which compares each instruction of
// two programs whole but for the FIFOs, sync channels and memories they
// name, and pairs those names through the walked program's numbering
// (ResourcesNamed, SameWalks.h): a program is a copy only where each
// resource the walked program names is one of its own wherever named, one
// to one, and every other field of the instructions naming them is the
// same.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "ProgramWalker.h"
#include "SameWalks.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t L1 = 1, LU = 1, VEC = 2, LU2 = 5;

/// The test machine with a second load unit (LU2 reading L1) and its FIFO
/// link to the vector unit.
Machine twoLoadUnits() {
  Machine m = makeTestMachine();
  m.memories[L1].core = 0;
  m.units.push_back(m.units[LU]);
  m.units.back().name = "core0.lu2";
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links.push_back({mem(L1), unit(LU2), 64, 1, 0, {}});      // 10
  m.links.push_back({unit(LU2), unit(VEC), 64, 1, 4, {128}}); // 11
  return m;
}

/// FIFOs 0 and 1 from LU, 2 and 3 from LU2, all to the vector unit.
Executable fourFifos() {
  Executable exe;
  exe.fifos = {{"a", LU, VEC, 5, 4, 128},
               {"a2", LU, VEC, 5, 4, 128},
               {"b", LU2, VEC, 11, 4, 128},
               {"c", LU2, VEC, 11, 4, 128}};
  return exe;
}

/// A load unit that loads, 32 times, a 128-byte entry into `first` and
/// one into `second`, from `memory`.
UnitProgram loadsInto(uint32_t unit, uint32_t first, uint32_t second,
                      uint32_t memory = L1) {
  ProgramBuilder lu(unit);
  size_t loop = lu.loopBegin(32);
  lu.load(first, memory, 0, 128);
  lu.load(second, memory, 128, 128);
  lu.loopEnd(loop);
  return lu.done();
}

/// Whether SameWalks finds `to`'s walk a copy of `from`'s, `from` walked,
/// and the renaming of LU's FIFO `fifo` if so.
std::optional<uint32_t> copiedFifo(const UnitProgram &from,
                                   const UnitProgram &to, uint32_t fifo = 0) {
  Machine m = twoLoadUnits();
  Executable exe = fourFifos();
  exe.programs = {from, to};
  RouteCosts routes(m, exe);
  KernelEstimate out;
  out.memoryBusy.assign(m.memories.size(), 0);
  ProgramWalker walker(m, exe, exe.programs[0], out, routes);
  walker.run();
  SameWalks same(m, exe, routes);
  same.add(exe.programs[0], walker, 0);
  std::optional<std::pair<size_t, Renaming>> found = same.find(exe.programs[1]);
  if (!found)
    return std::nullopt;
  return found->second.fifos(fifo);
}

TEST(RenamingTest, ResourceNamedAlikeIsCopied) {
  // LU loads into FIFO a twice a trip, LU2 into b: a is b.
  EXPECT_EQ(copiedFifo(loadsInto(LU, 0, 0), loadsInto(LU2, 2, 2)), 2u);
  EXPECT_EQ(copiedFifo(loadsInto(LU, 0, 1), loadsInto(LU2, 3, 2), 1), 2u);
}

TEST(RenamingTest, OneResourceNamedAsTwoIsNotCopied) {
  // LU's FIFO a would be both b and c: not a renaming.
  EXPECT_EQ(copiedFifo(loadsInto(LU, 0, 0), loadsInto(LU2, 2, 3)),
            std::nullopt);
}

TEST(RenamingTest, TwoResourcesNamedAsOneAreNotCopied) {
  // LU's FIFOs a and a2 would both be b: not one to one.
  EXPECT_EQ(copiedFifo(loadsInto(LU, 0, 1), loadsInto(LU2, 2, 2)),
            std::nullopt);
}

TEST(RenamingTest, OtherFieldOfAnInstructionNamingResourcesIsCompared) {
  // LU2's second load reads its bytes from the address's register: the
  // loads name FIFOs and memories that pair, but not the same size.
  UnitProgram to = loadsInto(LU2, 2, 3);
  Inst &second = to.insts[to.insts.size() - 3];
  ASSERT_EQ(second.op, Opcode::Load);
  second.d = second.c;
  EXPECT_EQ(copiedFifo(loadsInto(LU, 0, 1), to), std::nullopt);
}

TEST(RenamingTest, OnlyTheFieldsNamingResourcesAreLeftOut) {
  // LU2's second load reads its address from the size's register: the
  // loads name FIFOs and memories (a, b) that pair, and differ in c.
  UnitProgram to = loadsInto(LU2, 2, 3);
  Inst &second = to.insts[to.insts.size() - 3];
  ASSERT_EQ(second.op, Opcode::Load);
  second.c = second.d;
  EXPECT_EQ(copiedFifo(loadsInto(LU, 0, 1), to), std::nullopt);
}

TEST(RenamingTest, CopyChargesTheMemoryItNames) {
  // LU2 loads from a second scratchpad, L1B, as LU loads from L1: the copy
  // of LU's walk charges L1B what the walk charged L1.
  constexpr uint32_t L1B = 2;
  Machine m = twoLoadUnits();
  m.memories[L1].bandwidth = 64; // Charged: it has a bandwidth.
  m.memories.push_back(m.memories[L1]);
  m.memories.back().name = "core0.L1B";
  m.links[10].from = {NodeRef::Memory, L1B};
  Executable exe = fourFifos();
  exe.programs = {loadsInto(LU, 0, 0), loadsInto(LU2, 2, 2, L1B)};
  RouteCosts routes(m, exe);
  KernelEstimate out;
  out.memoryBusy.assign(m.memories.size(), 0);
  ProgramWalker walker(m, exe, exe.programs[0], out, routes);
  walker.run();
  double walked = out.memoryBusy[L1];
  ASSERT_GT(walked, 0);
  SameWalks same(m, exe, routes);
  same.add(exe.programs[0], walker, 0);
  std::optional<std::pair<size_t, Renaming>> found = same.find(exe.programs[1]);
  ASSERT_TRUE(found);
  ProgramWalker copy(walker, exe.programs[1], found->second);
  EXPECT_EQ(out.memoryBusy[L1B], walked);
  EXPECT_EQ(out.memoryBusy[L1], walked);
}

TEST(RenamingTest, FieldsNamedAreTheResourcesPlaces) {
  // Bit f for ResourcesNamed::kNameFields[f]: a load names a FIFO (a) and
  // a memory (b), a DMA two memories (a, c), a receive a FIFO (b).
  ProgramBuilder b(LU);
  b.load(0, L1, 0, 128);
  b.dma(L1, 0, L1, 64, 64);
  b.recv(0, b.vtype(ElemType::f32, {4}));
  UnitProgram program = b.done();
  ResourcesNamed named(program);
  ASSERT_EQ(named.fieldsNamed.size(), program.insts.size());
  for (auto [pc, in] : llvm::enumerate(program.insts)) {
    uint8_t expected = in.op == Opcode::Load   ? 0b011
                       : in.op == Opcode::Dma  ? 0b101
                       : in.op == Opcode::Recv ? 0b010
                                               : 0;
    EXPECT_EQ(named.fieldsNamed[pc], expected) << opcodeName(in.op);
  }
}

} // namespace
