//===- LaunchArgumentsTest.cpp - Addresses and launch scalars -------------===//
//
// Tests ktflow/Analysis/LaunchArguments.h and DerivedValues.h: an integer
// argument is a launch scalar unless a memory view starts at a value
// computed from it, also when the view is built at a computed address
// (argument + offset) or inside a function the kernel calls, before the
// call is inlined (the interpreter analyses modules as written); where a
// view at a computed address starts (getViewAddress); a size scaled into a
// view offset (`ptr + n * 64`) stays a launch scalar, and an argument that
// is both a base and a scaled size is refused (verifyAddressRoles); an
// argument clamped by an unsigned minimum or maximum is an address.
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

constexpr StringLiteral kScaledSize = R"mlir(
#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @k(%x: index, %n_i32: i32, %y: index, %m: index) {
  %c64 = arith.constant 64 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  %y1 = affine.apply affine_map<(d0)[s0] -> (d0 + s0 * 64)>(%y)[%m]
  %X0 = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y1 = ktdp.construct_memory_view %y1, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
func.func @both(%x: index, %n: index) {
  %c64 = arith.constant 64 : index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  %X = ktdp.construct_memory_view %x1, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %N = ktdp.construct_memory_view %n, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
func.func @clamped(%x: index, %y: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %off = arith.muli %pid, %c64 : index
  %xa = arith.addi %x, %off : index
  %xl = arith.addi %x, %c128 : index
  %xc = arith.minui %xa, %xl : index
  %yb = arith.subi %y, %c64 : index
  %yc = arith.maxui %yb, %y : index
  %X = ktdp.construct_memory_view %xc, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y = ktdp.construct_memory_view %yc, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
)mlir";

TEST_F(LaunchArgumentsTest, ScaledSizesAreNotAddresses) {
  func::FuncOp k = parse(kScaledSize, "k");
  ASSERT_TRUE(k);
  // %x is the base of %x + n * 64 (and of its own view); %n only enters
  // it multiplied, as is %m in the affine map where %y has coefficient 1.
  EXPECT_TRUE(ktflow::reachesViewOffset(k.getArgument(0)));
  EXPECT_EQ(ktflow::getViewsBasedAt(k.getArgument(0)).size(), 2u);
  EXPECT_FALSE(ktflow::reachesViewOffset(k.getArgument(1)));
  EXPECT_TRUE(ktflow::isLaunchScalar(k.getArgument(1)));
  EXPECT_TRUE(ktflow::reachesViewOffset(k.getArgument(2)));
  EXPECT_TRUE(ktflow::isLaunchScalar(k.getArgument(3)));
  // The view at %x + n * 64 is in %x's tensor, n * 64 elements in.
  std::optional<ktflow::ViewAddress> address;
  for (Operation *user : k.getArgument(0).getUsers())
    if (isa<arith::AddIOp>(user))
      address = ktflow::getViewAddress(user->getResult(0));
  ASSERT_TRUE(address);
  EXPECT_EQ(address->argument, k.getArgument(0));
  EXPECT_TRUE(address->displacement.getDefiningOp<arith::MulIOp>());
  EXPECT_TRUE(succeeded(ktflow::verifyAddressRoles(k)));
}

TEST_F(LaunchArgumentsTest, BaseAndScaledSizeConflict) {
  func::FuncOp both = parse(kScaledSize, "both");
  ASSERT_TRUE(both);
  // %n starts view %N and is scaled into the offset of %X: refused, at %X
  // with a note at %N.
  SmallVector<std::string> messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    messages.push_back(diag.str());
    for (Diagnostic &note : diag.getNotes())
      messages.push_back(note.str());
    return success();
  });
  EXPECT_TRUE(failed(ktflow::verifyAddressRoles(both)));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages[0].find("kernel argument #1 enters this view's offset "
                             "scaled"),
            std::string::npos);
  EXPECT_TRUE(llvm::any_of(messages, [](const std::string &m) {
    return m.find("the view that starts at kernel argument #1") !=
           std::string::npos;
  }));
}

TEST_F(LaunchArgumentsTest, UnsignedClampsKeepTheBase) {
  func::FuncOp k = parse(kScaledSize, "clamped");
  ASSERT_TRUE(k);
  // A tile's start clamped to the last tile, minui(x + 64 pid, x + 128),
  // and maxui(y - 64, y): an unsigned minimum or maximum is one of its
  // operands, like a signed one or a select, whichever it picks (y - 64
  // may wrap below 0 and read huge, the maximum then being y - 64).
  // Either way the view starts in the argument's tensor: an address.
  for (unsigned i = 0; i < 2; ++i) {
    EXPECT_FALSE(ktflow::isLaunchScalar(k.getArgument(i))) << "argument " << i;
    EXPECT_EQ(ktflow::getViewsBasedAt(k.getArgument(i)).size(), 1u)
        << "argument " << i;
  }
  EXPECT_TRUE(succeeded(ktflow::verifyAddressRoles(k)));
}

} // namespace
