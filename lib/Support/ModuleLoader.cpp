//===- ModuleLoader.cpp - Read MLIR files with located errors -------------===//

#include "ktflow/Support/ModuleLoader.h"
#include "ktflow/Support/ArgumentNames.h"
#include "ktflow/Support/CrashRecovery.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;

std::string ktflow::resolvePathNextTo(Location loc, llvm::StringRef path) {
  if (llvm::sys::path::is_absolute(path))
    return path.str();
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!fileLoc)
    return path.str();
  llvm::SmallString<256> resolved(
      llvm::sys::path::parent_path(fileLoc.getFilename().getValue()));
  llvm::sys::path::append(resolved, path);
  return std::string(resolved);
}

ktflow::ModuleLoader::ModuleLoader(MLIRContext &context)
    : ModuleLoader(context, llvm::errs()) {}

ktflow::ModuleLoader::ModuleLoader(MLIRContext &context,
                                   llvm::raw_ostream &errors)
    : context(context), errors(errors), handler(sourceMgr, &context, errors) {
  trackPassesForCrashReports(context);
}

OwningOpRef<ModuleOp> ktflow::ModuleLoader::load(llvm::StringRef path) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &message);
  if (!file) {
    llvm::WithColor::error(errors, "ktflow") << message << "\n";
    return nullptr;
  }
  return loadBuffer(std::move(file), path);
}

OwningOpRef<ModuleOp>
ktflow::ModuleLoader::loadText(llvm::StringRef text,
                               llvm::StringRef bufferName) {
  return loadBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName),
                    bufferName);
}

/// The offset of the first `array<index` in `text` outside comments and
/// strings. MLIR 22's parser crashes on a dense array of `index` (it asks
/// the type for a bit width it does not have), so the loader refuses one
/// before parsing (found by the mutation campaign, issue 17).
static std::optional<size_t> findIndexDenseArray(llvm::StringRef text) {
  auto isIdentifierChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  };
  auto skipSpace = [&](size_t at) {
    while (at < text.size() && llvm::isSpace(text[at]))
      ++at;
    return at;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        return std::nullopt;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (text.substr(i).starts_with("array") &&
               (i == 0 || !isIdentifierChar(text[i - 1]))) {
      size_t at = skipSpace(i + 5);
      if (at >= text.size() || text[at] != '<')
        continue;
      at = skipSpace(at + 1);
      if (text.substr(at).starts_with("index") &&
          (at + 5 == text.size() || !isIdentifierChar(text[at + 5])))
        return at;
    }
  }
  return std::nullopt;
}

/// Refuses, at the op, what makes an upstream verifier of MLIR 22 crash
/// instead of reporting an error (found by the mutation campaign, issue
/// 17): an empty reassociation group of an expand_shape or collapse_shape
/// (getSymbolLessAffineMaps reads the group's first expression), and a
/// dimension listed twice in linalg.broadcast's `dimensions` (its verifier
/// then pairs an init dimension with an input dimension past the input's
/// rank). Attributes are looked at generically: the verifier has not
/// checked their kinds yet.
static LogicalResult refuseUpstreamVerifierCrashes(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name.ends_with(".expand_shape") || name.ends_with(".collapse_shape")) {
      auto groups = op->getAttrOfType<ArrayAttr>("reassociation");
      for (auto [i, group] : llvm::enumerate(groups ? groups.getValue()
                                                    : ArrayRef<Attribute>())) {
        auto indices = dyn_cast<ArrayAttr>(group);
        if (indices && indices.empty()) {
          op->emitOpError() << "reassociation group " << i << " is empty";
          return WalkResult::interrupt();
        }
      }
    }
    if (name == "linalg.broadcast") {
      auto dims = op->getAttrOfType<DenseI64ArrayAttr>("dimensions");
      llvm::SmallDenseSet<int64_t> seen;
      for (int64_t d : dims ? dims.asArrayRef() : ArrayRef<int64_t>())
        if (!seen.insert(d).second) {
          op->emitOpError()
              << "dimension " << d << " appears twice in 'dimensions'";
          return WalkResult::interrupt();
        }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void ktflow::locateImplicitOps(Operation *root) {
  root->walk<WalkOrder::PreOrder>([](Operation *op) {
    if (!isa<UnknownLoc>(op->getLoc()))
      return;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      if (!isa<UnknownLoc>(parent->getLoc())) {
        op->setLoc(parent->getLoc());
        return;
      }
  });
}

OwningOpRef<ModuleOp>
ktflow::ModuleLoader::loadBuffer(std::unique_ptr<llvm::MemoryBuffer> file,
                                 llvm::StringRef subject) {
  // Editors on some platforms save a UTF-8 byte-order mark, which MLIR's
  // lexer does not skip; drop it so such files parse like any other.
  if (file->getBuffer().starts_with("\xEF\xBB\xBF"))
    file = llvm::MemoryBuffer::getMemBufferCopy(
        file->getBuffer().drop_front(3), file->getBufferIdentifier());
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  auto &fileManager =
      fileManagers.emplace_back(std::make_unique<llvm::SourceMgr>());
  fileManager->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  const llvm::MemoryBuffer &source = *fileManager->getMemoryBuffer(1);
  if (std::optional<size_t> at = findIndexDenseArray(source.getBuffer())) {
    auto [line, column] = fileManager->getLineAndColumn(
        llvm::SMLoc::getFromPointer(source.getBufferStart() + *at), 1);
    emitError(FileLineColLoc::get(&context, source.getBufferIdentifier(), line,
                                  column))
        << "dense arrays of 'index' are not supported; use i64";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module;
  {
    CrashPhase phase("parse", subject);
    // Lets a crash after a parse error count as that error
    // (CrashRecovery.h).
    ScopedDiagnosticHandler noteErrors(&context, [](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        CrashPhase::noteErrorReported();
      return failure(); // Printed by `handler`.
    });
    ParserConfig config(&context, /*verifyAfterParse=*/false);
    module = parseSourceFile<ModuleOp>(*fileManager, config);
  }
  if (!module)
    return nullptr;
  nameArguments(*module, fileManager->getMemoryBuffer(1)->getBuffer());
  locateImplicitOps(*module);
  CrashPhase phase("verify", subject);
  if (failed(refuseUpstreamVerifierCrashes(*module)) || failed(verify(*module)))
    return nullptr;
  return module;
}
