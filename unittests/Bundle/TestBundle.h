//===- TestBundle.h - A small bundle for tests ------------------*- C++ -*-===//
//
// This file builds, in plain C++ on the test machine, a bundle whose one
// program copies a relocated tensor to L1 (with or without the source
// locations of its instructions), and re-seals a damaged bundle's
// checksum, so the bundle codec and the runtime's link step can be tested
// (and fed hostile fields) without MLIR or a device file.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_BUNDLE_TESTBUNDLE_H
#define KTFLOW_UNITTESTS_BUNDLE_TESTBUNDLE_H

#include "../Machine/TestMachine.h"

#include "ktflow/Bundle/Bundle.h"

#include "llvm/Support/xxhash.h"

namespace ktflow::bundle::test {

/// A bundle whose dma program copies tensor "x" (relocated address) to L1.
inline Bundle makeBundle() {
  using namespace ktflow::machine;
  using namespace ktflow::machine::test;
  Bundle b;
  b.kernel = "copy";
  b.machine = makeTestMachine();
  b.device = b.machine.name;
  b.deviceFingerprint = b.machine.fingerprint();
  TensorArg x;
  x.name = "x";
  x.dims = {{0, 0}};
  b.tensors = {x};
  RuntimeArg rows;
  rows.name = "n";
  rows.granularity = 64;
  rows.upperbound = 2048;
  b.runtimeArgs = {rows};
  b.fifos = {{"in", 1, 2, 5, 4, 128}};
  ProgramBuilder dma(0);
  uint32_t src = dma.imm(0); // relocated: address of x
  uint32_t dst = dma.imm(0);
  uint32_t n = dma.imm(0); // relocated: value of n
  uint32_t two = dma.imm(2);
  uint32_t bytes = dma.sreg();
  Inst &mul = dma.emit(Opcode::Alu);
  mul.sub = static_cast<uint8_t>(AluOp::Mul);
  mul.a = bytes, mul.b = n, mul.c = two;
  Inst &copy = dma.emit(Opcode::Dma);
  copy.a = 0, copy.b = src, copy.c = 1, copy.d = dst, copy.e = bytes;
  copy.f = copy.g = copy.h = kNoReg;
  UnitProgram p = dma.done();
  std::vector<uint32_t> offsets;
  b.programs.push_back({0, encodeProgram(p, &offsets)});
  b.relocations = {{0, offsets[0], SymbolKind::TensorAddress, 0},
                   {0, offsets[2], SymbolKind::RuntimeArg, 0}};
  return b;
}

/// makeBundle's bundle with a location for each instruction of its program:
/// the i-th on line 10 + i of k.mlir, but the second one unknown and the
/// last in lib.mlir.
inline Bundle makeLocatedBundle() {
  Bundle b = makeBundle();
  auto program = decodeProgram(b.programs[0].code, b.programs[0].unit);
  size_t n = program ? program->insts.size() : 0;
  if (!program)
    llvm::consumeError(program.takeError());
  b.sources.files = {"k.mlir", "lib.mlir"};
  std::vector<machine::SourceLoc> &locs = b.sources.programs.emplace_back();
  for (size_t i = 0; i < n; ++i)
    locs.push_back({1, static_cast<uint32_t>(10 + i), 3});
  locs[1] = {};
  locs.back() = {2, 7, 1};
  return b;
}

/// Rewrites the header's checksum after `bytes` was changed on purpose.
inline void fixChecksum(std::vector<uint8_t> &bytes) {
  uint64_t sum =
      llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(bytes).drop_front(kHeaderSize));
  for (int i = 0; i < 8; ++i)
    bytes[24 + i] = static_cast<uint8_t>(sum >> (8 * i));
}

} // namespace ktflow::bundle::test

#endif // KTFLOW_UNITTESTS_BUNDLE_TESTBUNDLE_H
