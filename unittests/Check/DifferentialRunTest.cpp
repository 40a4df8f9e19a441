//===- DifferentialRunTest.cpp - Binding a launch and its reference -------===//
//
// This file tests the bindings behind `ktflow run` and `ktflow sim` on
// kernels compiled for the sample device: runtime arguments and inputs reach
// both the simulated launch and the interpreter, by SSA name, by position and
// at literal addresses; outputs are labelled as the kernel names them; the
// values read back match a computation made here; and every binding error
// says what is wrong.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Check/LaunchBinding.h"

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Machine/Values.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cstdio>

using namespace ktflow;
using namespace ktflow::check;

namespace {

const char *const kSampleDevice =
    KTFLOW_EXAMPLES_DIR "/devices/sample_device.mlir";
const char *const kRuntimeArgKernel =
    KTFLOW_EXAMPLES_DIR "/kernels/add_runtime_arg.mlir";
/// OUT = X + Y over n f32 elements, n an i32 argument (realworld).
const char *const kScalarArgKernel =
    KTFLOW_EXAMPLES_DIR "/kernels/realworld/vector_add_dyn.mlir";

/// y = x + x on 64x64 f16, x at the start address %x and y at the literal
/// address 8192; 32 tiles of two rows.
const char *const kDoubleKernel = R"mlir(
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @double(%x: index) attributes {grid = [32]} {
    %t = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %row = arith.muli %t, %c2 : index
    %y_addr = arith.constant 8192 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #two, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #two, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
    %v = ktdp.load %tx : <2x64xindex> -> tensor<2x64xf16>
    %e = tensor.empty() : tensor<2x64xf16>
    %w = linalg.add ins(%v, %v : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) -> tensor<2x64xf16>
    ktdp.store %w, %ty : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    return
  }
}
)mlir";

std::string errorOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}

/// The values of tensor `t` of a finished launch.
std::vector<double> valuesOf(const rt::Program &program, rt::Launch &launch,
                             uint32_t t) {
  auto bytes = launch.readTensor(t);
  EXPECT_TRUE(static_cast<bool>(bytes));
  if (!bytes)
    return {};
  machine::ElemType elem = program.getBundle().tensors[t].elem;
  unsigned width = machine::elemBytes(elem);
  std::vector<double> values;
  for (size_t i = 0; i < bytes->size(); i += width)
    values.push_back(machine::loadElement(elem, bytes->data() + i));
  return values;
}

class DifferentialRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    context->printOpOnDiagnostic(false);
    loader = std::make_unique<ModuleLoader>(*context);
  }

  void TearDown() override {
    if (!temporary.empty())
      llvm::sys::fs::remove(temporary);
  }

  /// Writes `text` to a temporary file and prepares it.
  std::unique_ptr<DifferentialRun> prepareText(llvm::StringRef text) {
    int fd;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("kernel", "mlir", fd, temporary));
    llvm::raw_fd_ostream(fd, /*shouldClose=*/true) << text;
    return prepare(temporary);
  }

  /// Loads the kernel in `path` and prepares a differential run of it
  /// compiled for the sample device.
  std::unique_ptr<DifferentialRun> prepare(llvm::StringRef path) {
    module = loader->load(path);
    EXPECT_TRUE(module);
    auto run = DifferentialRun::create(*module, {});
    EXPECT_TRUE(static_cast<bool>(run)) << llvm::toString(run.takeError());
    EXPECT_TRUE(succeeded(setTarget(*module, kSampleDevice, *loader)));
    auto built = compileToBundle(*module, CompileOptions());
    EXPECT_TRUE(succeeded(built));
    compiled.emplace(std::move(*built));
    EXPECT_EQ(errorOf((*run)->load(compiled->bundle)), "");
    return std::move(*run);
  }

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<ModuleLoader> loader;
  llvm::SmallString<128> temporary;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<CompiledBundle> compiled;
};

TEST_F(DifferentialRunTest, LiteralAddressOutputIsCheckedUnderItsAddress) {
  std::unique_ptr<DifferentialRun> run = prepareText(kDoubleKernel);
  EXPECT_EQ(errorOf(run->bindArguments({})), "");
  EXPECT_EQ(errorOf(run->bindInputs({"x=seq:-8:8"}, 0)), "");
  auto stats = run->getLaunch().run();
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());

  const bundle::Bundle &b = run->getProgram().getBundle();
  ASSERT_EQ(b.tensors.size(), 2u);
  uint32_t out = b.tensors[0].role == bundle::TensorRole::Input ? 1 : 0;
  std::vector<double> y = valuesOf(run->getProgram(), run->getLaunch(), out);
  ASSERT_EQ(y.size(), 64u * 64u);
  for (size_t i = 0; i < y.size(); ++i)
    ASSERT_EQ(y[i], 2.0 * (-8 + static_cast<int>(i % 16))) << "element " << i;

  // Two 8 KiB tensors cross device memory once (the one at a literal
  // address too); one add per element.
  device::RooflineBound roofline =
      run->computeRoofline(compiled->device, compiled->deviceMemory);
  EXPECT_EQ(roofline.memory.bytes, 2u * 64 * 64 * 2);
  EXPECT_EQ(roofline.compute.operations, 64.0 * 64);
  EXPECT_TRUE(roofline.gaps.empty());

  // The bundle knows where the kernel has each tensor.
  EXPECT_EQ(b.tensors[1 - out].argument, 0u);
  EXPECT_EQ(b.tensors[1 - out].argName, "x");
  EXPECT_EQ(b.tensors[out].address, std::optional<uint64_t>(8192));
  EXPECT_EQ(run->getProgram().findTensor("x"), 1 - out);
  EXPECT_EQ(run->getProgram().findTensor("@8192"), out);
  EXPECT_FALSE(run->getProgram().findTensor("@8193").has_value());
  EXPECT_EQ(run->getProgram().findTensorAt(8192), out);
  EXPECT_EQ(run->getProgram().findTensorOfArgument(0), 1 - out);

  auto checks = run->checkOutputs();
  ASSERT_TRUE(static_cast<bool>(checks)) << llvm::toString(checks.takeError());
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_EQ((*checks)[0].tensor, out);
  EXPECT_EQ((*checks)[0].label, "@8192");
  EXPECT_TRUE((*checks)[0].result.pass) << (*checks)[0].result.summary;
}

TEST_F(DifferentialRunTest, RuntimeArgumentsBindBothExecutions) {
  std::unique_ptr<DifferentialRun> run = prepare(kRuntimeArgKernel);
  EXPECT_EQ(errorOf(run->bindArguments({})),
            "runtime argument 'M_arg' needs --arg M_arg=VALUE (a multiple of "
            "32, at most 1024)");
  EXPECT_EQ(errorOf(run->bindArguments({"M_arg"})),
            "--arg expects NAME=VALUE, got 'M_arg'");
  EXPECT_EQ(errorOf(run->bindArguments({"N=64"})),
            "--arg N=64: @add_runtime_arg has no argument 'N' (arguments: "
            "M_arg, a, b, c)");
  EXPECT_EQ(errorOf(run->bindArguments({"M_arg=sixty"})),
            "--arg M_arg=sixty: expected an integer");
  EXPECT_EQ(errorOf(run->bindArguments({"M_arg=33"})),
            "--arg M_arg=33: runtime argument 'M_arg' = 33 is not a multiple "
            "of its granularity 32");
  // By position, as the interpreter accepts too.
  EXPECT_EQ(errorOf(run->bindArguments({"0=64"})), "");
  EXPECT_EQ(errorOf(run->bindInputs({"q=zeros"}, 0)),
            "--input q=zeros: @add_runtime_arg has no argument 'q' "
            "(arguments: M_arg, a, b, c)");
  EXPECT_EQ(errorOf(run->bindInputs({"a=value:1.5", "2=seq:0:4"}, 0)), "");
  ASSERT_TRUE(static_cast<bool>(run->getLaunch().run()));

  const bundle::Bundle &b = run->getProgram().getBundle();
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    auto shape = run->getLaunch().getShape(t);
    ASSERT_TRUE(static_cast<bool>(shape));
    EXPECT_EQ(*shape, (std::vector<int64_t>{64, 64}));
  }
  // 64 rows of 64 adds, counted with M = 64; the tensors' sizes too.
  device::RooflineBound roofline =
      run->computeRoofline(compiled->device, compiled->deviceMemory);
  EXPECT_EQ(roofline.compute.operations, 64.0 * 64);
  EXPECT_EQ(roofline.memory.bytes, 3u * 64 * 64 * 2);
  EXPECT_EQ(roofline.cycles,
            std::max({roofline.memory.cycles, roofline.compute.cycles,
                      roofline.latency.cycles}));

  auto checks = run->checkOutputs();
  ASSERT_TRUE(static_cast<bool>(checks)) << llvm::toString(checks.takeError());
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_EQ((*checks)[0].label, "c");
  EXPECT_TRUE((*checks)[0].result.pass) << (*checks)[0].result.summary;
  std::vector<double> c =
      valuesOf(run->getProgram(), run->getLaunch(), (*checks)[0].tensor);
  ASSERT_EQ(c.size(), 64u * 64u);
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_EQ(c[i], 1.5 + static_cast<double>(i % 4)) << "element " << i;
}

TEST_F(DifferentialRunTest, PlainScalarArgumentsAreBoundAtLaunch) {
  // Compiled with no value for n: the i32 argument is a launch symbol.
  std::unique_ptr<DifferentialRun> run = prepare(kScalarArgKernel);
  const bundle::Bundle &b = run->getProgram().getBundle();
  ASSERT_EQ(b.runtimeArgs.size(), 1u);
  EXPECT_EQ(b.runtimeArgs[0].name, "arg3");
  EXPECT_EQ(b.runtimeArgs[0].lowerbound, INT32_MIN);
  EXPECT_EQ(b.runtimeArgs[0].upperbound, INT32_MAX);
  EXPECT_EQ(errorOf(run->bindArguments({})),
            "scalar argument 'n_elements' needs --arg n_elements=VALUE");
  EXPECT_EQ(errorOf(rt::Launch(run->getProgram())
                        .setRuntimeArg("arg3", int64_t(1) << 31)),
            "scalar argument 'n_elements' = 2147483648 is outside its range "
            "[-2147483648, 2147483647] (its type's, or that of a narrower "
            "integer the kernel casts it to; non-negative where the kernel "
            "reads it unsigned)");
  EXPECT_EQ(errorOf(run->bindArguments({"n_elements=300"})), "");
  EXPECT_EQ(errorOf(run->bindInputs({"x_ptr=seq:0:100", "y_ptr=value:0.5"}, 0)),
            "");
  ASSERT_TRUE(static_cast<bool>(run->getLaunch().run()));
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    auto shape = run->getLaunch().getShape(t);
    ASSERT_TRUE(static_cast<bool>(shape));
    EXPECT_EQ(*shape, (std::vector<int64_t>{300}));
  }
  // Two blocks of 256 additions start below n = 300 (the count is per
  // element produced, masked or not); the tensors hold n f32 each.
  device::RooflineBound roofline =
      run->computeRoofline(compiled->device, compiled->deviceMemory);
  EXPECT_EQ(roofline.compute.operations, 2.0 * 256);
  EXPECT_EQ(roofline.memory.bytes, 3u * 300 * 4);
  EXPECT_TRUE(roofline.gaps.empty());
  auto checks = run->checkOutputs();
  ASSERT_TRUE(static_cast<bool>(checks)) << llvm::toString(checks.takeError());
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_TRUE((*checks)[0].result.pass) << (*checks)[0].result.summary;
  std::vector<double> out =
      valuesOf(run->getProgram(), run->getLaunch(), (*checks)[0].tensor);
  ASSERT_EQ(out.size(), 300u);
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], static_cast<double>(i % 100) + 0.5) << "element " << i;
}

TEST_F(DifferentialRunTest, LaunchBindsAndReadsTensorsByBundleName) {
  std::unique_ptr<DifferentialRun> run = prepare(kRuntimeArgKernel);
  const rt::Program &program = run->getProgram();
  rt::Launch launch(program);
  EXPECT_EQ(errorOf(bindRuntimeArgs(launch, {"arg0"})),
            "--arg expects NAME=INTEGER, got 'arg0'");
  EXPECT_EQ(errorOf(bindRuntimeArgs(launch, {"M=64"})),
            "the kernel has no runtime argument 'M'");
  // Errors name tensors and runtime arguments as the kernel does (a, b, M_arg),
  // whichever spelling found them.
  EXPECT_EQ(errorOf(bindTensors(program, launch, {"arg1=zeros"}, 0)),
            "tensor 'a' needs runtime argument 'M_arg', which is not bound");
  EXPECT_EQ(errorOf(bindRuntimeArgs(launch, {"arg0=64"})), "");
  EXPECT_EQ(errorOf(bindTensors(program, launch, {"arg1=zeros"}, 0)),
            "input tensor 'b' needs --input b=FILE.npy|random|zeros");
  EXPECT_EQ(errorOf(bindTensors(program, launch, {"arg9=zeros"}, 0)),
            "the kernel has no tensor 'arg9' (its tensors: a, b, c)");
  EXPECT_EQ(errorOf(bindTensors(program, launch, {"arg1="}, 0)),
            "--input expects NAME=SPEC, got 'arg1='");
  EXPECT_EQ(errorOf(bindTensors(program, launch, {"arg1=value:x"}, 0)),
            "input 'arg1': invalid value in 'value:x'");
  EXPECT_EQ(errorOf(bindTensors(program, launch,
                                {"arg1=seq:1:5", "arg2=value:-1"}, 0)),
            "");
  auto output = findTensor(program, "arg3", "output");
  ASSERT_TRUE(static_cast<bool>(output));
  EXPECT_EQ(errorOf(findTensor(program, "z", "print").takeError()),
            "--print: the kernel has no tensor 'z' (its tensors: a, b, c)");
  ASSERT_TRUE(static_cast<bool>(launch.run()));

  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("launch", "npy", path));
  EXPECT_EQ(errorOf(writeTensor(program, launch, *output, path)), "");
  auto written = host::readNpyFile(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_EQ(std::vector<int64_t>(written->shape.begin(), written->shape.end()),
            (std::vector<int64_t>{64, 64}));
  for (int64_t i = 0; i < written->numElements(); ++i)
    ASSERT_EQ(written->getDouble(i), static_cast<double>(i % 4)) << i;

  // The kernel's names bind the same launch as the bundle's symbols.
  rt::Launch named(program);
  EXPECT_EQ(errorOf(bindRuntimeArgs(named, {"M_arg=64"})), "");
  EXPECT_EQ(
      errorOf(bindTensors(program, named, {"a=seq:1:5", "b=value:-1"}, 0)), "");
  auto c = findTensor(program, "c", "output");
  ASSERT_TRUE(static_cast<bool>(c));
  EXPECT_EQ(*c, *output);
  ASSERT_TRUE(static_cast<bool>(named.run()));
  EXPECT_EQ(valuesOf(program, named, *c), valuesOf(program, launch, *output));

  std::string text;
  llvm::raw_string_ostream os(text);
  // Found by its symbol arg3, printed by the kernel's name.
  EXPECT_EQ(errorOf(printTensor(os, program, launch, *output)), "");
  // Sixteen elements to a line, each as %e prints it.
  std::string expected = "c =";
  for (int i = 0; i < 64 * 64; ++i) {
    char element[32];
    std::snprintf(element, sizeof(element), " %e", static_cast<double>(i % 4));
    expected += (i % 16 == 0 ? "\n " : "") + std::string(element);
  }
  EXPECT_EQ(text, expected + "\n");
}

} // namespace
