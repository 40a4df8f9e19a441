//===- LaunchArgumentsTest.cpp - Addresses and launch scalars -------------===//
//
// Tests ktflow/Analysis/LaunchArguments.h and DerivedValues.h: an integer
// argument is a launch scalar unless a memory view starts at a value
// computed from it, also when the view is built at a computed address
// (argument + offset) or inside a function the kernel calls, before the
// call is inlined (the interpreter analyses modules as written); where a
// view at a computed address starts (getViewAddress).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

class LaunchArgumentsTest : public ::testing::Test {
protected:
  LaunchArgumentsTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  func::FuncOp parse(StringRef source, StringRef kernel) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return module->lookupSymbol<func::FuncOp>(kernel);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

constexpr StringLiteral kCalls = R"mlir(
#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @fill_row(%p: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %V = ktdp.construct_memory_view %p, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %t = ktdp.construct_access_tile %V[%c0] {access_tile_set = #v, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %z = arith.constant dense<0.0> : tensor<64xf16>
  scf.for %i = %c0 to %n step %c1 {
    ktdp.store %z, %t : tensor<64xf16>, <64xindex>
  }
  return
}
func.func @k(%x: index, %y: index, %n: index, %unused: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %off = arith.muli %pid, %c64 : index
  %ya = arith.addi %y, %off : index
  %Y = ktdp.construct_memory_view %ya, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  func.call @fill_row(%x, %n) : (index, index) -> ()
  return
}
)mlir";

TEST_F(LaunchArgumentsTest, AddressesThroughCallsAndComputedOffsets) {
  func::FuncOp k = parse(kCalls, "k");
  ASSERT_TRUE(k);
  // %x is an address only inside the callee: following the call finds it.
  EXPECT_FALSE(ktflow::isLaunchScalar(k.getArgument(0)));
  EXPECT_TRUE(ktflow::reachesViewOffset(k.getArgument(0)));
  // %y + pid * 64 is the start of a view.
  EXPECT_FALSE(ktflow::isLaunchScalar(k.getArgument(1)));
  // %n bounds a loop in the callee: a scalar bound at launch.
  EXPECT_TRUE(ktflow::isLaunchScalar(k.getArgument(2)));
  EXPECT_FALSE(ktflow::reachesViewOffset(k.getArgument(2)));
  // Unused: neither.
  EXPECT_FALSE(ktflow::isLaunchScalar(k.getArgument(3)));
  // The view at %y + pid * 64 is in %y's tensor, pid * 64 elements in.
  ktdp::ConstructMemoryViewOp view;
  k.walk([&](ktdp::ConstructMemoryViewOp v) { view = v; });
  std::optional<ktflow::ViewAddress> address =
      ktflow::getViewAddress(view.getOffset());
  ASSERT_TRUE(address);
  EXPECT_EQ(address->argument, k.getArgument(1));
  EXPECT_TRUE(address->displacement.getDefiningOp<arith::MulIOp>());
  // The argument itself is its own start; a product of it is no address.
  EXPECT_FALSE(ktflow::getViewAddress(k.getArgument(1))->displacement);
  EXPECT_FALSE(ktflow::getViewAddress(address->displacement));
  // The closure crosses into the callee's argument.
  func::FuncOp callee = module->lookupSymbol<func::FuncOp>("fill_row");
  EXPECT_TRUE(
      ktflow::derivedValues(k.getArgument(0)).contains(callee.getArgument(0)));
}

} // namespace
