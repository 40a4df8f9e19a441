//===- ArgumentNamesTest.cpp - Argument names kept from the source --------===//
//
// This file tests that the names a source gives function arguments are read
// at the arguments' locations, kept in NameLocs that survive cloning, and
// left out where a location points at no `%name`.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/ArgumentNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// Names with every character an SSA name may hold, arguments over two
// lines, and a declaration (no body, nothing to name).
const char *const kSource = R"mlir(
func.func private @declared(index)
func.func @k(%M_arg: index, %x.1$-y: index,
             %0: i32) {
  return
}
)mlir";

std::vector<std::string> namesOf(func::FuncOp function,
                                 llvm::StringRef source = "") {
  std::vector<std::string> names;
  for (BlockArgument arg : function.getArguments())
    names.push_back(ktflow::getArgumentName(arg, source));
  return names;
}

TEST(ArgumentNamesTest, NamesComeFromTheSourceAndStayInTheLocation) {
  MLIRContext context;
  context.loadDialect<func::FuncDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kSource, &context, "k.mlir");
  ASSERT_TRUE(module);
  auto k = module->lookupSymbol<func::FuncOp>("k");
  std::vector<std::string> expected = {"M_arg", "x.1$-y", "0"};
  // Before naming: only the source text knows them.
  EXPECT_EQ(namesOf(k), (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(namesOf(k, kSource), expected);

  ktflow::nameArguments(*module, kSource);
  EXPECT_EQ(namesOf(k), expected);
  EXPECT_TRUE(isa<NameLoc>(k.getArgument(1).getLoc()));
  // The file location stays inside, for diagnostics.
  auto file = dyn_cast<FileLineColLoc>(
      cast<NameLoc>(k.getArgument(2).getLoc()).getChildLoc());
  ASSERT_TRUE(file);
  EXPECT_EQ(file.getLine(), 4u);
  EXPECT_EQ(file.getColumn(), 14u);

  OwningOpRef<ModuleOp> copy = module->clone();
  EXPECT_EQ(namesOf(copy->lookupSymbol<func::FuncOp>("k")), expected);
}

TEST(ArgumentNamesTest, LocationsAtNoNameGiveNone) {
  MLIRContext context;
  context.loadDialect<func::FuncDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kSource, &context, "k.mlir");
  ASSERT_TRUE(module);
  auto k = module->lookupSymbol<func::FuncOp>("k");
  // Another text: the locations point at no `%`.
  std::string shifted = "\n\n\n\n\n\n";
  ktflow::nameArguments(*module, shifted);
  EXPECT_EQ(namesOf(k), (std::vector<std::string>{"", "", ""}));
  EXPECT_TRUE(isa<FileLineColLoc>(k.getArgument(0).getLoc()));
  k.getArgument(0).setLoc(UnknownLoc::get(&context));
  EXPECT_EQ(ktflow::getArgumentName(k.getArgument(0), kSource), "");
}

} // namespace
