//===- ArgumentNames.cpp - The names a source gives arguments -------------===//
//
// This file reads an argument's `%name` from the source text at the
// argument's location and keeps it in a NameLoc.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/ArgumentNames.h"

#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// The `%name` at (line, column), both 1-based, of `source`, or "".
static llvm::StringRef nameAt(llvm::StringRef source, unsigned line,
                              unsigned column) {
  llvm::StringRef text = source;
  for (unsigned l = 1; l < line && !text.empty(); ++l) {
    size_t newline = text.find('\n');
    text = newline == llvm::StringRef::npos ? llvm::StringRef()
                                            : text.drop_front(newline + 1);
  }
  if (column < 1 || column > text.size())
    return "";
  text = text.drop_front(column - 1);
  if (!text.consume_front("%"))
    return "";
  size_t length = 0;
  while (length < text.size() &&
         (llvm::isAlnum(text[length]) || text[length] == '_' ||
          text[length] == '$' || text[length] == '.' || text[length] == '-'))
    ++length;
  return text.take_front(length);
}

std::string ktflow::getArgumentName(BlockArgument arg, llvm::StringRef source) {
  Location loc = arg.getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return nameAt(source, file.getLine(), file.getColumn()).str();
  return "";
}

void ktflow::nameArguments(Operation *root, llvm::StringRef source) {
  root->walk([&](FunctionOpInterface function) {
    if (function.isExternal())
      return;
    for (BlockArgument arg : function.getArguments()) {
      auto file = dyn_cast<FileLineColLoc>(arg.getLoc());
      if (!file)
        continue;
      llvm::StringRef name = nameAt(source, file.getLine(), file.getColumn());
      if (!name.empty())
        arg.setLoc(
            NameLoc::get(StringAttr::get(root->getContext(), name), file));
    }
  });
}
