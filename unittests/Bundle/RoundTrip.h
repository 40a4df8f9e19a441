//===- RoundTrip.h - A program through a bundle and back --------*- C++ -*-===//
//
// This file writes a program into a bundle, reads the bundle back and
// decodes the program, checking that every instruction survives field by
// field, and returns its disassembly: the round trip the tests of each
// instruction's encoding share.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_BUNDLE_ROUNDTRIP_H
#define KTFLOW_UNITTESTS_BUNDLE_ROUNDTRIP_H

#include "ktflow/Bundle/Bundle.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <string>

namespace ktflow::bundle::test {

/// Whether `x` and `y` agree in every field.
inline bool sameInst(const machine::Inst &x, const machine::Inst &y) {
  return x.op == y.op && x.sub == y.sub && x.imm == y.imm && x.a == y.a &&
         x.b == y.b && x.c == y.c && x.d == y.d && x.e == y.e && x.f == y.f &&
         x.g == y.g && x.h == y.h && x.i == y.i && x.j == y.j && x.k == y.k;
}

/// `program` as the one program of `b` (without relocations), the bundle
/// written and read back and the program decoded, each instruction
/// expected as it was; the decoded program's disassembly, or "" after a
/// failure (reported).
inline std::string roundTripProgram(Bundle b,
                                    const machine::UnitProgram &program) {
  b.programs = {{program.unit, encodeProgram(program)}};
  b.relocations.clear();
  auto read = readBundle(writeBundle(b));
  if (!read) {
    ADD_FAILURE() << llvm::toString(read.takeError());
    return "";
  }
  auto decoded = decodeProgram(read->programs[0].code, program.unit);
  if (!decoded) {
    ADD_FAILURE() << llvm::toString(decoded.takeError());
    return "";
  }
  EXPECT_EQ(decoded->insts.size(), program.insts.size());
  for (size_t i = 0; i < std::min(program.insts.size(), decoded->insts.size());
       ++i)
    EXPECT_TRUE(sameInst(program.insts[i], decoded->insts[i]))
        << "instruction " << i;
  std::string text;
  llvm::raw_string_ostream os(text);
  disassemble(os, *decoded, *read);
  return text;
}

} // namespace ktflow::bundle::test

#endif // KTFLOW_UNITTESTS_BUNDLE_ROUNDTRIP_H
