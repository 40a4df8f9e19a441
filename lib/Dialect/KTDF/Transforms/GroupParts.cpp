//===- GroupParts.cpp - Compute groups cut into parts ---------------------===//
//
// This file implements the compute groups of a block as ktir-to-ktdf forms
// them, and the hand-over of values between the parts
// ktdf-split-matrix-groups and ktdf-split-shape-groups cut them into: a
// value is stored into a scratchpad view of its own right after it is
// computed and loaded back before its first use in each part that reads
// it; the lowering orders each hand-over with the channels of scratchpad
// views.
//
//===----------------------------------------------------------------------===//

#include "GroupParts.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::ktdf;

bool mlir::ktdf::isGroupMember(Operation &op) {
  if (isa<PipelineOp, tensor::EmptyOp>(op) ||
      op.hasTrait<OpTrait::ConstantLike>())
    return false;
  return isa<ktdp::LoadOp, ktdp::StoreOp>(op) ||
         llvm::any_of(op.getResultTypes(),
                      [](Type t) { return isa<RankedTensorType>(t); });
}

LogicalResult mlir::ktdf::splitEachBlock(
    ModuleOp module,
    function_ref<LogicalResult(Block &, func::FuncOp, ScratchpadCursor &)>
        split) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    ScratchpadCursor cursor(func);
    SmallVector<Block *> blocks;
    func.walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      if (failed(split(*block, func, cursor)))
        return failure();
  }
  return success();
}

bool mlir::ktdf::isFill(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && llvm::none_of(generic.getDpsInputs(), [](Value v) {
           return isa<RankedTensorType>(v.getType());
         });
}

SmallVector<SmallVector<Operation *>> GroupSplitter::collectGroups() {
  llvm::EquivalenceClasses<Operation *> classes;
  SmallVector<Operation *> members;
  for (Operation &op : block) {
    if (!isGroupMember(op))
      continue;
    position[&op] = members.size();
    members.push_back(&op);
    classes.insert(&op);
    for (Operation *def : groupOperands(&op))
      classes.unionSets(def, &op);
  }
  llvm::MapVector<Operation *, SmallVector<Operation *>> groups;
  for (Operation *op : members)
    groups[classes.getLeaderValue(op)].push_back(op);
  SmallVector<SmallVector<Operation *>> result;
  for (auto &entry : groups)
    result.push_back(std::move(entry.second));
  return result;
}

SmallVector<Operation *> GroupSplitter::groupOperands(Operation *op) {
  SmallVector<Operation *> defs;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      if (Operation *def = operand.getDefiningOp();
          def && position.contains(def))
        defs.push_back(def);
  return defs;
}

size_t GroupSplitter::lastOf(Operation *member) {
  size_t end = 0;
  for (auto m = parts.findLeader(member); m != parts.member_end(); ++m)
    end = std::max(end, position[*m]);
  return end;
}

void GroupSplitter::copyForParts(Operation *op, ArrayRef<Operation *> leaders) {
  for (Operation *leader : leaders.drop_front()) {
    OpBuilder b(op);
    Operation *copy = b.clone(*op);
    for (Operation *user : llvm::to_vector(op->getUsers()))
      if (parts.contains(user) && parts.getLeaderValue(user) == leader)
        user->replaceUsesOfWith(op->getResult(0), copy->getResult(0));
  }
}

void GroupSplitter::handOver() {
  llvm::DenseMap<Operation *, Value> tiles;
  llvm::DenseMap<std::pair<Operation *, Operation *>, Value> loaded;
  llvm::sort(crossing, [&](auto a, auto b) {
    return position[a.second] < position[b.second];
  });
  for (auto [def, user] : crossing) {
    Value value = def->getResult(0);
    auto type = cast<RankedTensorType>(value.getType());
    Value &tile = tiles[def];
    if (!tile) {
      tile = createScratchpadTile(func, cursor, type, def->getLoc(),
                                  kHandoverViewAttrName);
      // ktdf-map-memory-spaces has run: the view names its memory.
      ktdp::getAccessTileView(tile)->setAttr(
          "ktdf.memory", StringAttr::get(def->getContext(), localKind));
      OpBuilder b(def->getContext());
      b.setInsertionPointAfter(def);
      ktdp::StoreOp::create(b, def->getLoc(), value, tile);
    }
    // The first crossing user of a part loads for the rest.
    Value &copy = loaded[{def, parts.getLeaderValue(user)}];
    if (!copy) {
      OpBuilder b(user);
      copy = ktdp::LoadOp::create(b, def->getLoc(), type, tile);
    }
    user->replaceUsesOfWith(value, copy);
  }
}
