//===- AttrsAndTypesTest.cpp - ktdp attributes and types from C++ ---------===//
//
// This file tests what only C++ callers can reach: the type verifiers that
// the parser never lets through (negative tile extents, a missing groups
// set), and the normalisation of both memory-space families to
// {global, ct_local(k)}.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::ktdp;

namespace {

class AttrsAndTypesTest : public ::testing::Test {
protected:
  AttrsAndTypesTest() { context.loadDialect<KTDPDialect>(); }

  /// Calls `fn(emitError)` and returns the message it emitted, if any.
  template <typename Fn> std::string diagnosticOf(Fn fn) {
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    auto emit = [&] { return emitError(UnknownLoc::get(&context)); };
    fn(function_ref<InFlightDiagnostic()>(emit));
    return message;
  }

  MLIRContext context;
};

TEST_F(AttrsAndTypesTest, AccessTileExtents) {
  Type index = IndexType::get(&context);
  std::string message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(
        AccessTileType::getChecked(emitError, ArrayRef<int64_t>{4, -3}, index));
  });
  EXPECT_EQ(message, "tile dimension size must be dynamic or >= 0");

  message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(AccessTileType::getChecked(emitError, ArrayRef<int64_t>{4},
                                            Type(Float16Type::get(&context))));
  });
  EXPECT_EQ(message, "tile element type must be 'index', but got: 'f16'");

  auto tile = AccessTileType::get(&context, {ShapedType::kDynamic, 0, 64});
  EXPECT_TRUE(tile.getElementType().isIndex());
  EXPECT_EQ(tile.getShape(), (ArrayRef<int64_t>{ShapedType::kDynamic, 0, 64}));
  auto clone = llvm::cast<AccessTileType>(
      tile.cloneWith(ArrayRef<int64_t>{2, 3}, tile.getElementType()));
  EXPECT_EQ(clone.getShape(), (ArrayRef<int64_t>{2, 3}));
}

TEST_F(AttrsAndTypesTest, TileFutureGroups) {
  auto partial = RankedTensorType::get({1, 64}, Float32Type::get(&context));
  std::string message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(TileFutureType::getChecked(emitError, &context,
                                            ArrayRef<RankedTensorType>{partial},
                                            IntegerSetAttr()));
  });
  EXPECT_EQ(message, "tile_future requires a `groups` integer set");

  Builder b(&context);
  IntegerSet oneGroup = IntegerSet::get(1, 0, {b.getAffineDimExpr(0)},
                                        /*eqFlags=*/{true});
  message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(TileFutureType::getChecked(emitError, &context,
                                            ArrayRef<RankedTensorType>{},
                                            IntegerSetAttr::get(oneGroup)));
  });
  EXPECT_EQ(message, "tile_future must carry at least one partial type");
  EXPECT_TRUE(TileFutureType::get(&context, {partial, partial},
                                  IntegerSetAttr::get(oneGroup)));
}

TEST_F(AttrsAndTypesTest, RuntimeArgVerifier) {
  std::string message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(RuntimeArgType::getChecked(
        emitError, &context, Type(IndexType::get(&context)),
        std::optional<int64_t>(0), std::optional<int64_t>()));
  });
  EXPECT_EQ(message, "runtime_arg granularity must be positive, but got: 0");
  auto arg =
      RuntimeArgType::get(&context, Type(IntegerType::get(&context, 32)),
                          std::optional<int64_t>(8), std::optional<int64_t>());
  EXPECT_EQ(arg.getGranularity(), 8);
  EXPECT_FALSE(arg.getUpperbound().has_value());
}

TEST_F(AttrsAndTypesTest, NormalizeSpyreMemorySpace) {
  auto norm = [&](SpyreMemoryType type, int64_t core) {
    return normalizeMemorySpace(
        SpyreMemorySpaceAttr::get(&context, type, core));
  };
  std::optional<NormalizedMemorySpace> hbm = norm(SpyreMemoryType::HBM, -1);
  ASSERT_TRUE(hbm);
  EXPECT_EQ(hbm->kind, MemoryKind::global);
  EXPECT_FALSE(hbm->computeTileId.has_value());

  std::optional<NormalizedMemorySpace> unspecified =
      norm(SpyreMemoryType::unspecified, -1);
  ASSERT_TRUE(unspecified);
  EXPECT_EQ(unspecified->kind, MemoryKind::global);

  std::optional<NormalizedMemorySpace> lx = norm(SpyreMemoryType::LX, 7);
  ASSERT_TRUE(lx);
  EXPECT_EQ(lx->kind, MemoryKind::ct_local);
  EXPECT_EQ(lx->computeTileId, 7);

  std::optional<NormalizedMemorySpace> l0 = norm(SpyreMemoryType::L0, 0);
  ASSERT_TRUE(l0);
  EXPECT_EQ(l0->kind, MemoryKind::ct_local);
  EXPECT_EQ(l0->computeTileId, 0);

  std::optional<NormalizedMemorySpace> lxAnyCore =
      norm(SpyreMemoryType::LX, -1);
  ASSERT_TRUE(lxAnyCore);
  EXPECT_EQ(lxAnyCore->kind, MemoryKind::ct_local);
  EXPECT_FALSE(lxAnyCore->computeTileId.has_value());
}

TEST_F(AttrsAndTypesTest, NormalizeMemorySpace) {
  std::optional<NormalizedMemorySpace> global = normalizeMemorySpace(
      MemorySpaceAttr::get(&context, MemoryKind::global, -1));
  ASSERT_TRUE(global);
  EXPECT_EQ(global->kind, MemoryKind::global);
  EXPECT_FALSE(global->computeTileId.has_value());

  std::optional<NormalizedMemorySpace> local = normalizeMemorySpace(
      MemorySpaceAttr::get(&context, MemoryKind::ct_local, 3));
  ASSERT_TRUE(local);
  EXPECT_EQ(local->kind, MemoryKind::ct_local);
  EXPECT_EQ(local->computeTileId, 3);

  // The two families agree: LX core k and ct_local ct_id k are the same
  // memory.
  std::optional<NormalizedMemorySpace> lx = normalizeMemorySpace(
      SpyreMemorySpaceAttr::get(&context, SpyreMemoryType::LX, 3));
  ASSERT_TRUE(lx);
  EXPECT_EQ(lx->kind, local->kind);
  EXPECT_EQ(lx->computeTileId, local->computeTileId);

  // Anything else is not a ktdp memory space.
  Builder b(&context);
  EXPECT_FALSE(normalizeMemorySpace(b.getI64IntegerAttr(1)));
  EXPECT_FALSE(normalizeMemorySpace(b.getStringAttr("L1")));
  EXPECT_FALSE(normalizeMemorySpace(Attribute()));
}

TEST_F(AttrsAndTypesTest, MemorySpaceVerifiers) {
  std::string message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(MemorySpaceAttr::getChecked(emitError, &context,
                                             MemoryKind::global, int64_t{2}));
  });
  EXPECT_EQ(message, "ct_id is only valid for the ct_local memory space, but "
                     "got memory space 'global' with ct_id = 2");
  message = diagnosticOf([&](auto emitError) {
    EXPECT_FALSE(SpyreMemorySpaceAttr::getChecked(
        emitError, &context, SpyreMemoryType::L0, int64_t{-5}));
  });
  EXPECT_EQ(message, "core affinity must be non-negative, but got: -5");
}

} // namespace
