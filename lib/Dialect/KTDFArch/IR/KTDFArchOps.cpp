//===- KTDFArchOps.cpp - ktdf_arch operations -----------------------------===//
//
// This file implements the custom syntax of the ktdf_arch operations (bare
// `memory` / `exec_unit` type keywords, untyped `share(...)` and `yield`
// operands) and the verifiers of single nodes, datapaths, groups, pattern
// blocks and target declarations. Whole-device checks are in
// DeviceVerifier.cpp.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/PDL/IR/PDLOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::ktdf_arch;

//===----------------------------------------------------------------------===//
// Node-handle syntax
//===----------------------------------------------------------------------===//

/// `memory` or `exec_unit`; the generic `!ktdf_arch.memory` spelling is also
/// accepted so that generic-form IR reads back.
static ParseResult parseNodeType(OpAsmParser &parser, Type &type) {
  MLIRContext *context = parser.getContext();
  if (succeeded(parser.parseOptionalKeyword("memory"))) {
    type = MemoryType::get(context);
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("exec_unit"))) {
    type = ExecUnitType::get(context);
    return success();
  }
  return parser.parseType(type);
}

static void printNodeType(OpAsmPrinter &printer, Type type) {
  if (isa<MemoryType>(type))
    printer << "memory";
  else if (isa<ExecUnitType>(type))
    printer << "exec_unit";
  else
    printer << type;
}

static void printNodeType(OpAsmPrinter &printer, Operation *, Type type) {
  printNodeType(printer, type);
}

/// `share(...)` and `yield` name nodes without their types, so each operand
/// is resolved as whichever node type its definition has. The probe for the
/// wrong type fails with a diagnostic that is not the user's concern and is
/// dropped.
static ParseResult
resolveNodeOperands(OpAsmParser &parser,
                    ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                    SmallVectorImpl<Value> &values) {
  MLIRContext *context = parser.getContext();
  Type candidates[] = {MemoryType::get(context), ExecUnitType::get(context)};
  for (const OpAsmParser::UnresolvedOperand &operand : operands) {
    bool resolved = false;
    for (Type type : candidates) {
      ScopedDiagnosticHandler silence(context,
                                      [](Diagnostic &) { return success(); });
      if (succeeded(parser.resolveOperand(operand, type, values))) {
        resolved = true;
        break;
      }
    }
    if (!resolved)
      return parser.emitError(operand.location)
             << "'%" << operand.name << "' is not a memory or exec_unit node";
  }
  return success();
}

Operation *mlir::ktdf_arch::resolveNode(Value handle) {
  // Groups nest to a bounded depth, but a malformed yield could form a cycle
  // in unverified IR; the bound keeps this total.
  for (int depth = 0; handle && depth < 1024; ++depth) {
    Operation *def = handle.getDefiningOp();
    if (!def)
      return nullptr;
    if (isa<MemoryOp, ExecUnitOp>(def))
      return def;
    auto group = dyn_cast<GroupOp>(def);
    if (!group || group.getBody().empty())
      return nullptr;
    auto yield = dyn_cast<YieldOp>(group.getBody().front().getTerminator());
    if (!yield || yield.getNodes().size() != 1)
      return nullptr;
    handle = yield.getNodes().front();
  }
  return nullptr;
}

ArrayRef<StringRef> mlir::ktdf_arch::getCheckpointNames() {
  static const StringRef names[] = {"pre_mapping", "pre_scheduling",
                                    "post_scheduling", "post_lowering"};
  return names;
}

StringRef DeviceOp::getDefaultDialect() { return "ktdf_arch"; }
StringRef GroupOp::getDefaultDialect() { return "ktdf_arch"; }
StringRef PatternsOp::getDefaultDialect() { return "ktdf_arch"; }

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// Names node results after their kind (`%L1`, `%SFU`) in printed IR.
static void setNodeResultName(Value result, DictionaryAttr spec,
                              OpAsmSetValueNameFn setNameFn) {
  if (auto kind = dyn_cast_if_present<StringAttr>(spec.get(kKindKey));
      kind && !kind.empty())
    setNameFn(result, kind.getValue());
}

void MemoryOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNodeResultName(getResult(), getSpec(), setNameFn);
}

void ExecUnitOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNodeResultName(getResult(), getSpec(), setNameFn);
}

void GroupOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (Value result = getResult(); result && getSpecAttr())
    setNodeResultName(result, getSpecAttr(), setNameFn);
}

LogicalResult MemoryOp::verify() {
  return readMemorySpec(getSpec(), [&] { return emitOpError(); });
}

LogicalResult ExecUnitOp::verify() {
  return readUnitSpec(getSpec(), [&] { return emitOpError(); });
}

LogicalResult DatapathOp::verify() {
  if (failed(readDatapathSpec(getSpecAttr(), [&] { return emitOpError(); })))
    return failure();
  Operation *src = resolveNode(getSrc());
  Operation *dst = resolveNode(getDst());
  if (!src || !dst)
    return emitOpError("connects a group that does not yield a node");
  if (src == dst)
    return emitOpError("connects a node to itself");
  return success();
}

//===----------------------------------------------------------------------===//
// GroupOp
//===----------------------------------------------------------------------===//

// Syntax: `group` dict? `share` `(` operands `)` region (`->` node-type)?
//         (`attributes` dict)?
ParseResult GroupOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute spec;
  OptionalParseResult hasSpec = parser.parseOptionalAttribute(spec);
  if (hasSpec.has_value()) {
    if (failed(*hasSpec))
      return failure();
    auto dict = dyn_cast<DictionaryAttr>(spec);
    if (!dict)
      return parser.emitError(parser.getCurrentLocation())
             << "expected a dictionary before 'share', got " << spec;
    result.addAttribute(getSpecAttrName(result.name), dict);
  }

  SmallVector<OpAsmParser::UnresolvedOperand> shared;
  if (parser.parseKeyword("share") ||
      parser.parseOperandList(shared, OpAsmParser::Delimiter::Paren) ||
      resolveNodeOperands(parser, shared, result.operands))
    return failure();

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  GroupOp::ensureTerminator(*body, parser.getBuilder(), result.location);

  if (succeeded(parser.parseOptionalArrow())) {
    Type type;
    if (parseNodeType(parser, type))
      return failure();
    result.addTypes(type);
  }
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void GroupOp::print(OpAsmPrinter &printer) {
  if (DictionaryAttr spec = getSpecAttr(); spec && !spec.empty()) {
    printer << ' ';
    printer.printAttribute(spec);
  }
  printer << " share(" << getShared() << ") ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/getResult() != nullptr);
  if (Value result = getResult()) {
    printer << " -> ";
    printNodeType(printer, result.getType());
  }
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getSpecAttrName()});
}

LogicalResult GroupOp::verify() {
  FailureOr<GroupSpec> spec =
      readGroupSpec(getSpecAttr(), [&] { return emitOpError(); });
  if (failed(spec))
    return failure();

  llvm::SmallDenseSet<Value> seen;
  for (Value node : getShared())
    if (!seen.insert(node).second)
      return emitOpError("shares the same node twice");

  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getNodes().size() != getNumResults())
    return emitOpError() << "yields " << yield.getNodes().size()
                         << " node(s) but has " << getNumResults()
                         << " result(s); a group that stands for a unit "
                            "ends with 'yield %unit' and '-> exec_unit'";
  if (Value result = getResult()) {
    Value yielded = yield.getNodes().front();
    if (yielded.getType() != result.getType())
      return emitOpError() << "yields a " << yielded.getType()
                           << " but is typed " << result.getType();
    if (yielded.getParentRegion() != &getBody())
      return emitOpError("must yield a node defined in its own body");
    if (spec->instances > 1)
      return emitOpError("with a result stands for one node and cannot have "
                         "ktdf_arch.instances > 1");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

ParseResult YieldOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> nodes;
  if (parser.parseOperandList(nodes) ||
      resolveNodeOperands(parser, nodes, result.operands))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void YieldOp::print(OpAsmPrinter &printer) {
  if (!getNodes().empty())
    printer << ' ' << getNodes();
  printer.printOptionalAttrDict((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// PatternsOp
//===----------------------------------------------------------------------===//

LogicalResult PatternsOp::verify() {
  if (getCheckpoints().empty())
    return emitOpError("must name at least one checkpoint");
  llvm::SmallDenseSet<StringRef> seen;
  for (StringRef name : getCheckpoints().getAsValueRange<StringAttr>()) {
    if (!llvm::is_contained(getCheckpointNames(), name)) {
      InFlightDiagnostic diag = emitOpError()
                                << "unknown checkpoint '" << name
                                << "'; expected one of";
      llvm::interleave(
          getCheckpointNames(), [&](StringRef known) { diag << " " << known; },
          [&] { diag << ","; });
      return diag;
    }
    if (!seen.insert(name).second)
      return emitOpError() << "lists checkpoint '" << name << "' twice";
  }
  for (Operation &op : getBody().front())
    if (!isa<pdl::PatternOp>(op))
      return op.emitOpError("is not a 'pdl.pattern'; a patterns block holds "
                            "only PDL patterns");
  return success();
}

//===----------------------------------------------------------------------===//
// TargetOp
//===----------------------------------------------------------------------===//

/// The KTIR memory-space kind a memory_map key names: a ktdp memory space of
/// either spelling, or the string "global" / "ct_local".
static std::optional<ktdp::MemoryKind> getMemoryKindOfKey(Attribute key) {
  if (auto str = dyn_cast<StringAttr>(key)) {
    if (str == "global")
      return ktdp::MemoryKind::global;
    if (str == "ct_local")
      return ktdp::MemoryKind::ct_local;
    return std::nullopt;
  }
  std::optional<ktdp::NormalizedMemorySpace> space =
      ktdp::normalizeMemorySpace(key);
  if (!space || space->computeTileId)
    return std::nullopt;
  return space->kind;
}

LogicalResult TargetOp::verify() {
  if (std::optional<StringRef> path = getPath(); path && path->empty())
    return emitOpError("has an empty 'from' path");
  llvm::SmallDenseSet<unsigned> kinds;
  MapAttr map = getMemoryMap();
  for (auto [key, value] : llvm::zip(map.getKeys(), map.getValues())) {
    std::optional<ktdp::MemoryKind> kind = getMemoryKindOfKey(key);
    if (!kind)
      return emitOpError() << "memory_map key " << key
                           << " is not a KTIR memory space (global or "
                              "ct_local, without a compute tile id)";
    if (!isa<StringAttr>(value))
      return emitOpError() << "memory_map must map " << key
                           << " to a device memory kind (a string), got "
                           << value;
    if (!kinds.insert(static_cast<unsigned>(*kind)).second)
      return emitOpError() << "memory_map maps "
                           << ktdp::stringifyMemoryKind(*kind) << " twice";
  }
  return success();
}

LogicalResult
TargetOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // An imported device is checked when the file is loaded.
  if (getPath())
    return success();
  auto device = symbolTable.lookupNearestSymbolFrom<DeviceOp>(
      *this, getDeviceAttr());
  if (!device)
    return emitOpError() << "names no ktdf_arch.device " << getDeviceAttr()
                         << " in this module; add 'from \"<file>\"' to "
                            "import one";
  return verifyDevice(device);
}

LogicalResult TargetOp::verifyDevice(DeviceOp device) {
  llvm::StringSet<> memoryKinds;
  device.walk([&](MemoryOp memory) {
    if (auto kind = dyn_cast_if_present<StringAttr>(
            memory.getSpec().get(kKindKey)))
      memoryKinds.insert(kind.getValue());
  });
  for (Attribute value : getMemoryMap().getValues())
    if (auto kind = dyn_cast<StringAttr>(value);
        kind && !memoryKinds.contains(kind.getValue()))
      return emitOpError() << "memory_map names memory kind " << kind
                           << ", which device @" << device.getSymName()
                           << " does not define";
  return success();
}

std::optional<StringRef> TargetOp::getDeviceMemoryKind(StringRef ktirSpace) {
  MapAttr map = getMemoryMap();
  for (auto [key, value] : llvm::zip(map.getKeys(), map.getValues())) {
    std::optional<ktdp::MemoryKind> kind = getMemoryKindOfKey(key);
    auto memoryKind = dyn_cast<StringAttr>(value);
    if (kind && memoryKind && ktdp::stringifyMemoryKind(*kind) == ktirSpace)
      return memoryKind.getValue();
  }
  return std::nullopt;
}

#define GET_OP_CLASSES
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchOps.cpp.inc"
