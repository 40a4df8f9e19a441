//===- ReferenceCacheTest.cpp - Interpreter results shared by runs --------===//
//
// This file tests the cache of `ktflow run --reference-cache`: reorder
// bounds read back from it are those computed without it (the all-reduce
// feeding a product by weights of both signs, whose bound needs the
// non-negative runs), and an entry is found only under the key it was
// stored with: another kernel, other inputs or other interpreter options
// miss, and so does an entry that cannot be read whole.
//
//===----------------------------------------------------------------------===//

#include "CheckTesting.h"

#include "ktflow/Check/ReferenceCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::check;
using namespace ktflow::check::checktest;
using host::DType;
using host::Tensor;

namespace {

constexpr int64_t kTiles = 3;

class ReferenceCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ktflow-cache", root));
    ASSERT_NO_FATAL_FAILURE(parseKernel(
        allReduceKernel(kTiles, 2, 2, ", %w: index", kProduct, "%d"), context,
        module));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root); }

  /// The reference's bindings with X and W (W's first element `w00`).
  ReferenceBindings bind(double w00) const {
    Tensor x = Tensor::zeros(DType::F16, {kTiles, 2});
    Tensor w = Tensor::zeros(DType::F16, {2, 2});
    const double xs[] = {1, 1, 0x1p-11, -0x1p-12, 0x1p-11, -0x1p-12};
    const double ws[] = {w00, 1, -1, 1};
    for (int64_t i = 0; i < 6; ++i)
      x.setDouble(i, xs[i]);
    for (int64_t i = 0; i < 4; ++i)
      w.setDouble(i, ws[i]);
    ReferenceBindings bindings;
    bindings.inputs.push_back({"x", host::InputSpec::fromTensor(x)});
    bindings.inputs.push_back({"w", host::InputSpec::fromTensor(w)});
    return bindings;
  }

  /// The reference's Y under `bindings`.
  std::vector<Tensor> reference(const ReferenceBindings &bindings) const {
    interp::Interpreter run(*module);
    EXPECT_FALSE(static_cast<bool>(run.selectFunction()));
    for (const auto &[name, spec] : bindings.inputs)
      EXPECT_FALSE(static_cast<bool>(run.setInput(name, spec)));
    EXPECT_TRUE(mlir::succeeded(run.run()));
    auto y = run.getTensor("y");
    EXPECT_TRUE(static_cast<bool>(y));
    return {std::move(*y)};
  }

  /// Y's reorder bounds, with `cache` if given; `counts` adds up the runs.
  std::vector<std::vector<double>> bounds(const ReferenceBindings &bindings,
                                          const ReferenceCache *cache,
                                          CheckCounts &counts) const {
    auto computed = computeReorderBounds(
        *module, {}, bindings, {"y"}, reference(bindings), {}, cache, &counts);
    EXPECT_TRUE(static_cast<bool>(computed))
        << llvm::toString(computed.takeError());
    return *computed;
  }

  ReferenceCache cacheOf(const ReferenceBindings &bindings,
                         const interp::InterpreterOptions &options = {}) const {
    return ReferenceCache(root, *module, options, bindings, {"y"});
  }

  llvm::SmallString<128> root;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(ReferenceCacheTest, BoundsReadBackAreTheComputedOnes) {
  ReferenceBindings bindings = bind(1);
  CheckCounts uncached, cold, warm;
  std::vector<std::vector<double>> expected =
      bounds(bindings, nullptr, uncached);
  // The all-reduce displaced both ways, each with the weights made
  // non-negative, and the undisplaced non-negative run; the matmul both
  // ways.
  EXPECT_EQ(uncached.interpreterRuns, 7u);
  ASSERT_GT(expected[0][0], 0.0);

  ReferenceCache cache = cacheOf(bindings);
  EXPECT_EQ(bounds(bindings, &cache, cold), expected);
  EXPECT_EQ(cold.interpreterRuns, 7u);
  EXPECT_EQ(cold.cachedResults, 0u);
  // Another cache object of the same key: another `ktflow run`.
  ReferenceCache again = cacheOf(bindings);
  EXPECT_EQ(bounds(bindings, &again, warm), expected);
  EXPECT_EQ(warm.interpreterRuns, 0u);
  EXPECT_EQ(warm.cachedResults, 2u);
}

TEST_F(ReferenceCacheTest, OtherInputsMiss) {
  ReferenceBindings one = bind(1), two = bind(2);
  CheckCounts counts, uncached;
  ReferenceCache first = cacheOf(one);
  bounds(one, &first, counts);
  ReferenceCache second = cacheOf(two);
  counts = {};
  EXPECT_EQ(bounds(two, &second, counts), bounds(two, nullptr, uncached));
  EXPECT_EQ(counts.interpreterRuns, 7u);
  EXPECT_EQ(counts.cachedResults, 0u);
}

TEST_F(ReferenceCacheTest, AnEntryIsFoundUnderItsOwnKeyOnly) {
  ReferenceBindings bindings = bind(1);
  std::vector<Tensor> y = reference(bindings);
  cacheOf(bindings).store("reference", y);
  std::optional<std::vector<Tensor>> hit =
      cacheOf(bindings).lookup("reference");
  ASSERT_TRUE(hit);
  ASSERT_EQ(hit->size(), 1u);
  EXPECT_EQ((*hit)[0].dtype, y[0].dtype);
  EXPECT_EQ((*hit)[0].shape, y[0].shape);
  EXPECT_EQ((*hit)[0].floats, y[0].floats);

  EXPECT_FALSE(cacheOf(bindings).lookup("reduction 0"));
  EXPECT_FALSE(cacheOf(bind(2)).lookup("reference"));
  interp::InterpreterOptions strict;
  strict.numerics = interp::NumericsPolicy::Strict;
  EXPECT_FALSE(cacheOf(bindings, strict).lookup("reference"));
  interp::InterpreterOptions budget;
  budget.maxElementOps = 1000;
  EXPECT_FALSE(cacheOf(bindings, budget).lookup("reference"));
  ReferenceBindings named = bindings;
  named.function = "all_reduce";
  EXPECT_FALSE(cacheOf(named).lookup("reference"));
  // Another kernel: C stored instead of C . W.
  std::unique_ptr<mlir::MLIRContext> otherContext;
  mlir::OwningOpRef<mlir::ModuleOp> other;
  ASSERT_NO_FATAL_FAILURE(
      parseKernel(allReduceKernel(kTiles, 2, 2, ", %w: index", kProduct, "%c"),
                  otherContext, other));
  EXPECT_FALSE(
      ReferenceCache(root, *other, {}, bindings, {"y"}).lookup("reference"));
}

TEST_F(ReferenceCacheTest, AnEntryNotReadWholeMisses) {
  ReferenceBindings bindings = bind(1);
  cacheOf(bindings).store("reference", reference(bindings));
  std::error_code ec;
  llvm::sys::fs::directory_iterator entry(root, ec);
  ASSERT_FALSE(ec);
  std::string path = entry->path();
  auto rewrite = [&](llvm::function_ref<void(std::string &)> change) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(buffer);
    std::string bytes = (*buffer)->getBuffer().str();
    change(bytes);
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << bytes;
  };
  // Its last byte cut off.
  ASSERT_NO_FATAL_FAILURE(
      rewrite([](std::string &bytes) { bytes.pop_back(); }));
  EXPECT_FALSE(cacheOf(bindings).lookup("reference"));

  // One bit of an element flipped: the checksum no longer matches.
  cacheOf(bindings).store("reference", reference(bindings));
  ASSERT_TRUE(cacheOf(bindings).lookup("reference"));
  ASSERT_NO_FATAL_FAILURE(
      rewrite([](std::string &bytes) { bytes[bytes.size() - 12] ^= 1; }));
  EXPECT_FALSE(cacheOf(bindings).lookup("reference"));
}

} // namespace
