//===- BindingsTest.cpp - Binding a kernel from command-line text ---------===//
//
// This file tests the text bindings of `ktflow interp` on
// examples/kernels/add_runtime_arg.mlir (C = A + B over M rows): scalars and
// input specs by SSA name and position reach the run (outputs checked
// against sums computed here), outputs print one summary line each, `.npy`
// files hold the outputs, and every malformed or unknown binding is refused
// with the option quoted.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Interpreter/Bindings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::testing;

namespace {

std::unique_ptr<KernelRun> addKernel() {
  std::unique_ptr<KernelRun> run =
      KernelRun::fromExample("add_runtime_arg.mlir");
  EXPECT_TRUE(run->ok()) << run->errors;
  return run;
}

std::string errorOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "(success)";
}

TEST(Bindings, ScalarsAndInputsReachTheRun) {
  std::unique_ptr<KernelRun> run = addKernel();
  ASSERT_TRUE(run->ok());
  // By SSA name and by position (2 is %b).
  ASSERT_FALSE(static_cast<bool>(interp::bindArguments(
      *run->interpreter, {"M_arg=64"}, {"a=seq:0:100", "2=value:0.5"})));
  ASSERT_TRUE(run->run()) << run->errors;
  host::Tensor c = run->output("c");
  ASSERT_EQ(c.shape, (llvm::SmallVector<int64_t, 4>{64, 64}));
  std::vector<double> expected;
  for (int64_t i = 0; i < 64 * 64; ++i)
    expected.push_back(f16(static_cast<double>(i % 100) + 0.5));
  expectClose(c, expected, Tolerance::exact(), "c");

  std::string printed;
  llvm::raw_string_ostream os(printed);
  interp::printOutputs(os, *run->interpreter);
  std::string line;
  llvm::raw_string_ostream lineOs(line);
  host::printTensorSummary(lineOs, "c", c);
  // Only c is stored; no scratchpad line without chargeIntermediates.
  EXPECT_EQ(printed, line);
}

TEST(Bindings, OutputFilesHoldTheOutputs) {
  std::unique_ptr<KernelRun> run = addKernel();
  ASSERT_TRUE(run->ok());
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("bindings", "npy", path));
  auto files =
      interp::parseOutputFiles(*run->interpreter, {("c=" + path).str()});
  ASSERT_TRUE(static_cast<bool>(files)) << errorOf(files.takeError());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].name, "c");
  ASSERT_FALSE(static_cast<bool>(interp::bindArguments(
      *run->interpreter, {"M_arg=32"}, {"a=value:1", "b=value:2"})));
  ASSERT_TRUE(run->run()) << run->errors;
  ASSERT_FALSE(
      static_cast<bool>(interp::writeOutputFiles(*run->interpreter, *files)));
  llvm::Expected<host::Tensor> written = host::readNpyFile(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(static_cast<bool>(written)) << errorOf(written.takeError());
  expectClose(*written, std::vector<double>(32 * 64, 3.0), Tolerance::exact(),
              "c.npy");
}

TEST(Bindings, BadBindingsQuoteTheOption) {
  std::unique_ptr<KernelRun> run = addKernel();
  ASSERT_TRUE(run->ok());
  interp::Interpreter &interpreter = *run->interpreter;
  EXPECT_EQ(errorOf(interp::bindArguments(interpreter, {"M_arg"}, {})),
            "--arg expects NAME=VALUE, got 'M_arg'");
  EXPECT_EQ(errorOf(interp::bindArguments(interpreter, {"M_arg=33"}, {})),
            "--arg M_arg=33: runtime argument 'M_arg' = 33 is not a multiple "
            "of its granularity 32");
  EXPECT_EQ(errorOf(interp::bindArguments(interpreter, {}, {"a=ones"})),
            "--input a=ones: invalid input 'ones' (expected FILE.npy, random, "
            "randn, zeros, value:V, range:LO:HI or seq:LO:HI)");
  EXPECT_EQ(errorOf(interp::bindArguments(interpreter, {}, {"M_arg=zeros"})),
            "--input M_arg=zeros: 'M_arg' is not a tensor argument (no memory "
            "view is built on it); give its value with --arg");
  EXPECT_EQ(errorOf(interp::bindArguments(interpreter, {}, {"=zeros"})),
            "--input expects NAME=VALUE, got '=zeros'");

  auto unknown = interp::parseOutputFiles(interpreter, {"d=d.npy"});
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(errorOf(unknown.takeError()),
            "--output d=d.npy: @add_runtime_arg has no argument 'd' "
            "(arguments: M_arg, a, b, c)");
  // Literal addresses are checked only once the kernel has run.
  auto literal = interp::parseOutputFiles(interpreter, {"@64=x.npy"});
  ASSERT_TRUE(static_cast<bool>(literal)) << errorOf(literal.takeError());
  EXPECT_EQ(errorOf(interp::writeOutputFiles(interpreter, *literal)),
            "--output @64: the kernel has not run");
}

} // namespace
