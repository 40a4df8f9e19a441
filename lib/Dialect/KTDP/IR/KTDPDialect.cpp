//===- KTDPDialect.cpp - ktdp dialect registration ------------------------===//
//
// This file registers the ktdp dialect's attributes, types and operations,
// the bytecode encoding of !ktdp.tile_future, and what MLIR's inliner needs
// to inline calls of helper functions that build views and move tiles.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Bytecode/BytecodeImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::ktdp;

#include "ktflow/Dialect/KTDP/IR/KTDPDialect.cpp.inc"

namespace {
/// Encodes !ktdp.tile_future structurally. Its textual form nests an integer
/// set in a dialect type, and MLIR's lexer cannot re-read a set with `>=`
/// inside a pretty dialect type (the `>` closes the type), so the textual
/// fallback of bytecode would not round-trip. The other ktdp types and
/// attributes use the textual fallback.
struct KTDPBytecodeInterface : public BytecodeDialectInterface {
  KTDPBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  enum TypeCode : uint64_t { kTileFuture = 0 };

  Type readType(DialectBytecodeReader &reader) const override {
    uint64_t code;
    if (failed(reader.readVarInt(code)))
      return {};
    if (code != kTileFuture) {
      reader.emitError() << "unknown ktdp type code " << code;
      return {};
    }
    SmallVector<RankedTensorType> partials;
    IntegerSetAttr groups;
    if (failed(reader.readTypes(partials)) ||
        failed(reader.readAttribute(groups)))
      return {};
    return TileFutureType::getChecked(
        [&] { return reader.emitError(); }, reader.getContext(),
        ArrayRef<RankedTensorType>(partials), groups);
  }

  LogicalResult writeType(Type type,
                          DialectBytecodeWriter &writer) const override {
    auto future = llvm::dyn_cast<TileFutureType>(type);
    if (!future)
      return failure();
    writer.writeVarInt(kTileFuture);
    writer.writeTypes(future.getPartialTypes());
    writer.writeAttribute(future.getGroups());
    return success();
  }
};
/// Every ktdp op may be inlined: a function without a grid runs on its
/// caller's tiles (the interpreter's semantics), so its views, tiles,
/// transfers and tile ids mean the same in the caller's body. The ops with
/// regions (inter-tile produce and reduce) end in their own terminators.
struct KTDPInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void KTDPDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Dialect/KTDP/IR/KTDPOps.cpp.inc"
      >();
  addInterfaces<KTDPBytecodeInterface, KTDPInlinerInterface>();
}
