//===- RunReuseTest.cpp - What one interpreter run leaves the next --------===//
//
// This file tests what `ktflow run --check`'s interpreter runs share: the
// memory pages a run gives back, which the next run on the thread takes
// with the bytes the first left in them (PagedMemory.cpp), and the input
// data every run reads, whose rounding to its element type is skipped
// only where it changes nothing (InputData::roundsToItself). The kernel
// copies X to Y; the expected values are computed here.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::InputSpec;
using ktflow::host::Tensor;

namespace {

/// Copies X to Y, 128x128 `type` each: two 64 KiB pages of doubles each.
std::string copyKernel(const std::string &type) {
  std::string set = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= "
                    "0, -d1 + 127 >= 0)>";
  std::string view = "sizes: [128, 128], strides: [128, 1] {coordinate_set "
                     "= " +
                     set +
                     ", memory_space = #ktdp.memory_space<global>} : "
                     "memref<128x128x" +
                     type + ">";
  std::string tile = "{access_tile_set = " + set +
                     ", access_tile_order = affine_map<(d0, d1) -> (d0, "
                     "d1)>} : memref<128x128x" +
                     type + "> -> !ktdp.access_tile<128x128xindex>";
  return R"(
module {
  func.func @k(%x: index, %y: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, )" +
         view + R"(
    %Y = ktdp.construct_memory_view %y, )" +
         view + R"(
    %tx = ktdp.construct_access_tile %X[0, 0] )" +
         tile + R"(
    %ty = ktdp.construct_access_tile %Y[0, 0] )" +
         tile + R"(
    %v = ktdp.load %tx : !ktdp.access_tile<128x128xindex> -> tensor<128x128x)" +
         type + R"(>
    ktdp.store %v, %ty : tensor<128x128x)" +
         type + R"(>, !ktdp.access_tile<128x128xindex>
    return
  }
}
)";
}

InputSpec spec(llvm::StringRef text) {
  llvm::Expected<InputSpec> parsed = InputSpec::parse(text);
  EXPECT_TRUE(static_cast<bool>(parsed));
  return parsed ? *parsed : InputSpec();
}

TEST(RunReuse, PagesOfAnEarlierRunAreFilledAgain) {
  // The first run leaves 7s in X's and Y's pages; the second run's X,
  // zeros, takes those pages and must read 0 everywhere.
  for (const char *x : {"value:7", "zeros"}) {
    auto run = KernelRun::fromText(copyKernel("f32"));
    ASSERT_TRUE(run->ok()) << run->errors;
    run->input("x", spec(x));
    ASSERT_TRUE(run->run()) << run->errors;
    std::vector<double> ref(128 * 128, x == std::string("zeros") ? 0.0 : 7.0);
    expectClose(run->output("y"), ref, Tolerance::exact(), x);
  }
}

TEST(RunReuse, SharedDataThatF16DoesNotHoldIsRounded) {
  // An f16 tensor whose values were not rounded to f16 (set directly, not
  // through setDouble): the runs read them rounded.
  Tensor x = Tensor::zeros(DType::F16, {128, 128});
  std::vector<double> ref(x.floats.size());
  for (size_t i = 0; i < x.floats.size(); ++i) {
    x.floats[i] = 0.1 * static_cast<double>(i % 97) - 4.0;
    ref[i] = f16(x.floats[i]);
  }
  InputSpec shared = InputSpec::fromTensor(x);
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto run = KernelRun::fromText(copyKernel("f16"));
    ASSERT_TRUE(run->ok()) << run->errors;
    run->input("x", shared);
    ASSERT_TRUE(run->run()) << run->errors;
    expectClose(run->output("y"), ref, Tolerance::exact(), "Y");
  }
}

} // namespace
