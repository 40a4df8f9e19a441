//===- TileFunction.cpp - A KTIR kernel as a function of one tile ---------===//
//
// This file rewrites a kernel into `ktflow_tile` (TileFunction.h): the
// signature, the tile ids, runtime_arg values, and the argument each memory
// view's address comes from. Loads and stores of access tiles become loop
// nests in AccessLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "TileFunction.h"
#include "AccessLowering.h"
#include "LiteralMemory.h"
#include "SpecialViews.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace ktflow::jit;
using ktflow::interp::ArgumentInfo;
using ktflow::interp::ArgumentKind;

/// Collects the entry-block arguments `v` is computed from, through ops
/// without regions, loop induction variables (from their bounds) and
/// loop-carried values (from their initial and yielded values).
static LogicalResult collectSourceArguments(Value v, Block *entry,
                                            llvm::SetVector<unsigned> &args,
                                            DenseSet<Value> &seen,
                                            std::string &why) {
  if (!seen.insert(v).second)
    return success();
  auto recurse = [&](Value w) {
    return collectSourceArguments(w, entry, args, seen, why);
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == entry) {
      args.insert(arg.getArgNumber());
      return success();
    }
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
      if (arg == loop.getInductionVar())
        return success(succeeded(recurse(loop.getLowerBound())) &&
                       succeeded(recurse(loop.getStep())));
      unsigned i = arg.getArgNumber() - 1;
      return success(succeeded(recurse(loop.getInitArgs()[i])) &&
                     succeeded(recurse(loop.getYieldedValues()[i])));
    }
    why = "a view address comes from an argument of '" +
          arg.getOwner()->getParentOp()->getName().getStringRef().str() + "'";
    return failure();
  }
  Operation *def = v.getDefiningOp();
  if (def->getNumRegions()) {
    why = "a view address is a result of '" +
          def->getName().getStringRef().str() + "'";
    return failure();
  }
  for (Value operand : def->getOperands())
    if (failed(recurse(operand)))
      return failure();
  return success();
}

/// tensor.empty is zero-filled in the interpreter (docs/interpreter.md §5);
/// upstream leaves it undefined. Every empty tensor whose contents some op
/// reads (anything but the init of a linalg op that only writes it) gets a
/// linalg.fill of zeros.
static void zeroFillEmptyTensors(func::FuncOp fn) {
  SmallVector<tensor::EmptyOp> empties;
  fn.walk([&](tensor::EmptyOp empty) { empties.push_back(empty); });
  for (tensor::EmptyOp empty : empties) {
    bool read = llvm::any_of(empty->getUses(), [](OpOperand &use) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
      return !linalgOp || !linalgOp.isDpsInit(&use) ||
             linalgOp.payloadUsesValueFromOperand(&use);
    });
    if (!read)
      continue;
    OpBuilder b(empty->getContext());
    b.setInsertionPointAfter(empty);
    Type element = empty.getType().getElementType();
    Value zero = arith::ConstantOp::create(b, empty.getLoc(), element,
                                           b.getZeroAttr(element));
    auto fill =
        linalg::FillOp::create(b, empty.getLoc(), zero, empty.getResult());
    empty.getResult().replaceAllUsesExcept(fill.result(), fill);
  }
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Rewrites the views of `fn`: each gets the buffer of the one tensor
/// argument its address comes from, and its address relative to that
/// tensor's start.
static LogicalResult
lowerViews(func::FuncOp fn, ArrayRef<ArgumentInfo> args, ArrayRef<int> bufferOf,
           ValueRange buffers, const Scratchpads &scratchpads,
           const TileFunctionLayout &layout,
           const DenseMap<Operation *, unsigned> &literalBufferOf,
           DenseMap<Value, ViewLowering> &views, std::vector<Type> &bufferTypes,
           std::vector<GrownView> &grownAtStart, std::string &why) {
  Block *entry = &fn.getBody().front();
  WalkResult walk = fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (view.getMemorySpaceInterface().getMemoryKind() !=
        ktdp::MemoryKind::global) {
      if (failed(lowerScratchpadView(view, scratchpads, views, why)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    OpBuilder b(view->getContext());
    b.setInsertionPointAfter(view);
    Location loc = view.getLoc();
    // The buffer and the address its element 0 is at.
    unsigned buffer;
    Value start;
    auto literal = literalBufferOf.find(view);
    if (literal != literalBufferOf.end()) {
      buffer = literal->second;
      start = indexConstant(b, loc, layout.literalRegions.at(buffer).address);
    } else {
      llvm::SetVector<unsigned> sources;
      DenseSet<Value> seen;
      if (failed(collectSourceArguments(view.getOffset(), entry, sources, seen,
                                        why)))
        return WalkResult::interrupt();
      SmallVector<unsigned> tensors;
      for (unsigned arg : sources)
        if (arg < args.size() && args[arg].kind == ArgumentKind::Tensor)
          tensors.push_back(arg);
      if (tensors.size() != 1) {
        why = tensors.empty()
                  ? "views at computed literal addresses are not lowered yet"
                  : "a view address comes from several tensor arguments";
        return WalkResult::interrupt();
      }
      buffer = bufferOf[tensors.front()];
      start = fn.getArgument(tensors.front());
    }
    Type element = cast<MemRefType>(view.getType()).getElementType();
    Type &known = bufferTypes[buffer];
    if (known && known != element) {
      why = "a tensor argument is viewed with two element types";
      return WalkResult::interrupt();
    }
    known = element;
    FailureOr<SmallVector<int64_t>> lower =
        constantLowerBounds(view.getCoordinateSet());
    if (failed(lower)) {
      why = "a view's coordinate_set has a lower bound that depends on its "
            "sizes";
      return WalkResult::interrupt();
    }
    ViewLowering lowering;
    lowering.buffer = buffer;
    lowering.bufferValue = buffers[buffer];
    lowering.relativeOffset =
        arith::SubIOp::create(b, loc, view.getOffset(), start);
    auto materialize = [&](OpFoldResult ofr) -> Value {
      if (auto v = dyn_cast<Value>(ofr))
        return v;
      return indexConstant(b, loc, *getConstantIntValue(ofr));
    };
    for (OpFoldResult size : view.getMixedSizes()) {
      lowering.sizes.push_back(materialize(size));
      if (isa<Value>(size))
        lowering.setSymbols.push_back(cast<Value>(size));
    }
    for (OpFoldResult stride : view.getMixedStrides())
      lowering.strides.push_back(materialize(stride));
    lowering.set = view.getCoordinateSet();
    lowering.lower = *lower;
    if (lowering.setSymbols.size() != lowering.set.getNumSymbols()) {
      why = "a view's coordinate_set symbols do not match its dynamic sizes";
      return WalkResult::interrupt();
    }
    // A literal region holds its views from the start.
    if (literal == literalBufferOf.end() && view.getOffset() != start) {
      if (failed(reportComputedView(b, loc, lowering, why)))
        return WalkResult::interrupt();
      if (std::optional<ktflow::ViewFootprint> footprint =
              entryFootprint(view, entry, start))
        grownAtStart.push_back({lowering.buffer, *footprint});
    }
    views[view.getResult()] = std::move(lowering);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Distributed views, after the views they are made of (parts that are
  // distributed views themselves contribute their parts, in order).
  walk = fn.walk([&](ktdp::ConstructDistributedMemoryViewOp distributed) {
    ViewLowering lowering;
    for (Value input : distributed.getMemrefs()) {
      auto it = views.find(input);
      if (it == views.end()) {
        why = "a distributed view of something that is not a memory view";
        return WalkResult::interrupt();
      }
      if (it->second.parts.empty())
        lowering.parts.push_back(it->second);
      else
        lowering.parts.insert(lowering.parts.end(), it->second.parts.begin(),
                              it->second.parts.end());
    }
    if (lowering.parts.empty() ||
        llvm::any_of(lowering.parts, [&](const ViewLowering &part) {
          return part.buffer != lowering.parts.front().buffer;
        })) {
      why = "a distributed view whose parts are in different tensors";
      return WalkResult::interrupt();
    }
    lowering.buffer = lowering.parts.front().buffer;
    lowering.bufferValue = lowering.parts.front().bufferValue;
    lowering.sizes = lowering.parts.front().sizes;
    views[distributed.getResult()] = std::move(lowering);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<TileFunctionLayout>
ktflow::jit::buildTileFunction(ModuleOp module, StringRef kernelName,
                               ArrayRef<ArgumentInfo> args, int64_t numTiles,
                               bool interleaved, std::string &why) {
  auto fn = module.lookupSymbol<func::FuncOp>(kernelName);
  if (!fn || fn.isExternal()) {
    why = "the kernel has no body";
    return failure();
  }
  // The other functions are inlined already; a device description the file
  // may hold (ktdf_arch.device, ktdf_arch.target) has no LLVM translation.
  for (Operation &other :
       llvm::make_early_inc_range(module.getBody()->getOperations()))
    if (&other != fn.getOperation())
      other.erase();
  if (fn.getNumResults()) {
    why = "the kernel returns values";
    return failure();
  }
  why = findUnsupportedConstruct(fn);
  if (!why.empty())
    return failure();
  zeroFillEmptyTensors(fn);

  MLIRContext *ctx = module.getContext();
  TileFunctionLayout layout;
  // First, so that the accesses of produce bodies are lowered with the
  // others.
  if (failed(lowerInterTileOps(fn, numTiles, layout.interTile, why)))
    return failure();
  SmallVector<int> bufferOf(args.size(), -1);
  for (const ArgumentInfo &info : args)
    if (info.kind == ArgumentKind::Tensor) {
      bufferOf[info.position] = layout.bufferArgs.size();
      layout.bufferArgs.push_back(info.position);
    }
  DenseMap<Operation *, unsigned> literalBufferOf;
  if (failed(assignLiteralRegions(fn, layout, literalBufferOf, why)))
    return failure();
  // Scratchpads: one element type for all their views (the interpreter's
  // scratchpads are typed; views of two types could collide).
  Type scratchpadElement;
  WalkResult scratchpadViews = fn.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (view.getMemorySpaceInterface().getMemoryKind() ==
        ktdp::MemoryKind::global)
      return WalkResult::advance();
    Type element = cast<MemRefType>(view.getType()).getElementType();
    if (scratchpadElement && scratchpadElement != element) {
      why = "scratchpad views of two element types";
      return WalkResult::interrupt();
    }
    scratchpadElement = element;
    return WalkResult::advance();
  });
  if (scratchpadViews.wasInterrupted())
    return failure();
  Scratchpads scratchpads;
  if (scratchpadElement) {
    if (!scratchpadElement.isIntOrIndexOrFloat() ||
        scratchpadElement.isIndex()) {
      why = "scratchpad views of element type index";
      return failure();
    }
    scratchpads.capacity = interp::InterpreterOptions().scratchpadBytes /
                           ktflow::bytesPerElement(scratchpadElement);
    scratchpads.numTiles = numTiles;
    if (numTiles >
        kMaxScratchpadBytes / interp::InterpreterOptions().scratchpadBytes) {
      why = "scratchpads of " + std::to_string(numTiles) + " tiles";
      return failure();
    }
    scratchpads.buffer = layout.bufferArgs.size();
    layout.scratchpadBuffer = scratchpads.buffer;
    layout.scratchpadElements = scratchpads.capacity * numTiles;
    layout.bufferArgs.push_back(kScratchpadArgument);
  }
  layout.bufferElementTypes.assign(layout.bufferArgs.size(), Type());

  // The new signature: buffers, the kernel's arguments, x, y, z, status.
  Block *entry = &fn.getBody().front();
  Location loc = fn.getLoc();
  IndexType index = IndexType::get(ctx);
  unsigned numBuffers = layout.bufferArgs.size();
  SmallVector<Value> buffers;
  for (unsigned b = 0; b < numBuffers; ++b)
    buffers.push_back(entry->insertArgument(
        b, MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8)),
        loc));
  SmallVector<Value> tileIds;
  for (int k = 0; k < 3; ++k)
    tileIds.push_back(entry->addArgument(index, loc));
  Value status = entry->addArgument(
      MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 64)), loc);
  // Kernel arguments now start after the buffers.
  auto kernelArg = [&](unsigned position) {
    return entry->getArgument(numBuffers + position);
  };
  for (unsigned i = 0; i < args.size(); ++i) {
    BlockArgument arg = kernelArg(i);
    if (auto runtimeArg = dyn_cast<ktdp::RuntimeArgType>(arg.getType()))
      arg.setType(runtimeArg.getUnderlyingType());
    layout.argTypes.push_back(arg.getType());
  }

  // runtime_arg_extract: the value is the argument, the rest constants.
  OpBuilder b(ctx);
  SmallVector<Operation *> dead;
  WalkResult extracts = fn.walk([&](ktdp::RuntimeArgExtractOp extract) {
    b.setInsertionPoint(extract);
    auto type = cast<ktdp::RuntimeArgType>(extract.getInput().getType());
    Value replacement = extract.getInput();
    if (extract.getKind() != ktdp::RuntimeArgExtractKind::value) {
      std::optional<int64_t> v =
          extract.getKind() == ktdp::RuntimeArgExtractKind::granularity
              ? type.getGranularity()
              : type.getUpperbound();
      if (!v) {
        why = "a runtime_arg_extract of a field the type does not give";
        return WalkResult::interrupt();
      }
      replacement =
          arith::ConstantOp::create(b, extract.getLoc(), extract.getType(),
                                    b.getIntegerAttr(extract.getType(), *v));
    }
    extract.replaceAllUsesWith(replacement);
    dead.push_back(extract);
    return WalkResult::advance();
  });
  if (extracts.wasInterrupted())
    return failure();
  // Tile ids: the leading coordinates, x first.
  fn.walk([&](ktdp::GetComputeTileIdOp ids) {
    for (auto [k, id] : llvm::enumerate(ids.getIds()))
      id.replaceAllUsesWith(tileIds[k]);
    dead.push_back(ids);
  });
  DenseMap<Value, ViewLowering> views;
  std::vector<Type> bufferTypes(numBuffers);
  if (scratchpadElement) {
    scratchpads.bufferValue = buffers[scratchpads.buffer];
    scratchpads.status = status;
    bufferTypes[scratchpads.buffer] = scratchpadElement;
    // The linear id, x fastest.
    OpBuilder atEntry = OpBuilder::atBlockBegin(entry);
    SmallVector<int64_t> grid;
    if (auto gridAttr = fn->getAttrOfType<ArrayAttr>("grid"))
      for (Attribute extent : gridAttr)
        if (auto integer = dyn_cast<IntegerAttr>(extent))
          grid.push_back(integer.getInt());
    int64_t nx = grid.size() > 0 ? grid[0] : 1;
    int64_t ny = grid.size() > 1 ? grid[1] : 1;
    Value yz = arith::AddIOp::create(
        atEntry, loc, tileIds[1],
        arith::MulIOp::create(atEntry, loc, tileIds[2],
                              indexConstant(atEntry, loc, ny)));
    scratchpads.tileId = arith::AddIOp::create(
        atEntry, loc, tileIds[0],
        arith::MulIOp::create(atEntry, loc, yz,
                              indexConstant(atEntry, loc, nx)));
  }
  {
    // lowerViews traces addresses to entry-block argument numbers, which
    // the buffers shifted: describe the entry block's arguments.
    SmallVector<ArgumentInfo> shifted;
    for (unsigned b2 = 0; b2 < numBuffers; ++b2) {
      ArgumentInfo info;
      info.kind = ArgumentKind::Scalar;
      shifted.push_back(info);
    }
    shifted.append(args.begin(), args.end());
    SmallVector<int> shiftedBufferOf(numBuffers, -1);
    shiftedBufferOf.append(bufferOf.begin(), bufferOf.end());
    if (failed(lowerViews(fn, shifted, shiftedBufferOf, buffers, scratchpads,
                          layout, literalBufferOf, views, bufferTypes,
                          layout.grownAtStart, why)))
      return failure();
  }
  // Each buffer gets the element type of its views (i8 when it has none).
  for (unsigned i = 0; i < numBuffers; ++i) {
    Type element = bufferTypes[i] ? bufferTypes[i] : IntegerType::get(ctx, 8);
    layout.bufferElementTypes[i] = element;
    cast<BlockArgument>(buffers[i])
        .setType(MemRefType::get({ShapedType::kDynamic}, element));
  }
  // Buffers that no store writes: the caller may pass their inputs without
  // a copy.
  layout.bufferStored.assign(numBuffers, false);
  fn.walk([&](ktdp::StoreOp store) {
    auto tile =
        store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto it = tile ? views.find(tile.getBase()) : views.end();
    if (it == views.end())
      layout.bufferStored.assign(numBuffers, true);
    else
      layout.bufferStored[it->second.buffer] = true;
  });
  if (failed(lowerAccesses(fn, views, status, interleaved, why)))
    return failure();
  lowerIntrinsics(fn);
  for (Operation *op : dead)
    op->erase();

  // Erase the ktdp ops now unused, innermost first.
  SmallVector<Operation *> ktdpOps;
  fn.walk([&](Operation *op) {
    if (isa<ktdp::ConstructMemoryViewOp, ktdp::ConstructDistributedMemoryViewOp,
            ktdp::ConstructAccessTileOp, ktdp::ConstructIndirectAccessTileOp>(
            op))
      ktdpOps.push_back(op);
  });
  for (Operation *op : llvm::reverse(ktdpOps)) {
    if (!op->use_empty()) {
      why = "a memory view or access tile is used by an op that is not a "
            "load or store";
      return failure();
    }
    op->erase();
  }
  fn->setAttrs(ArrayRef<NamedAttribute>{});
  fn.setSymNameAttr(StringAttr::get(ctx, kTileFunctionName));
  fn.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, entry->getArgumentTypes(), {})));
  fn.setVisibility(SymbolTable::Visibility::Public);
  return layout;
}
