//===- EmitterState.h - Shared state of the bundle emitter ------*- C++ -*-===//
//
// This file declares the state the kernel-level emitter (Emitter.cpp)
// shares with the program emitter (ProgramEmitter.cpp) and the map-body
// emitter (MapEmitter.cpp): symbol indices, the machine, and per-program
// register allocation.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_BUNDLE_EMITTER_EMITTERSTATE_H
#define KTFLOW_LIB_BUNDLE_EMITTER_EMITTERSTATE_H

#include "ktflow/Bundle/Emitter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace ktflow::bundle::detail {

/// Converts an MLIR scalar type; nullopt if the simulator has no such type.
std::optional<machine::ElemType> toElemType(mlir::Type type);

struct KernelSymbols {
  llvm::StringMap<uint32_t> tensors, runtimeArgs, fifos, syncs;
  llvm::StringMap<uint64_t> bufferOffsets;
};

/// Emits one unit program.
class ProgramEmitter {
public:
  ProgramEmitter(const machine::Machine &machine, const KernelSymbols &symbols,
                 Bundle &bundle, uint32_t unit)
      : machine(machine), symbols(symbols), bundle(bundle) {
    program.unit = unit;
  }

  mlir::LogicalResult emit(mlir::dfir::UnitOp op);
  /// Relocation sites, as (instruction index, kind, symbol).
  std::vector<std::tuple<uint32_t, SymbolKind, uint32_t>> relocations;
  machine::UnitProgram program;

  // Used by the map emitter.
  mlir::FailureOr<uint32_t> vreg(mlir::Value value);
  mlir::FailureOr<uint32_t> vtype(mlir::Operation *op, mlir::Type type);
  mlir::LogicalResult checkCompute(mlir::Operation *op,
                                   machine::OpClass opClass,
                                   machine::ElemType type);

private:
  mlir::LogicalResult emitBlock(mlir::Block &block);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitFor(mlir::scf::ForOp op);
  mlir::LogicalResult emitMap(mlir::dfir::MapOp op);
  mlir::FailureOr<uint32_t> sreg(mlir::Value value);
  uint32_t newSReg() { return program.numSRegs++; }
  uint32_t newVReg() { return program.numVRegs++; }
  machine::Inst &emitInst(machine::Opcode op) {
    program.insts.push_back({});
    program.insts.back().op = op;
    return program.insts.back();
  }
  uint32_t setImm(int64_t value);
  mlir::FailureOr<uint32_t> memory(mlir::Operation *op, llvm::StringRef name);
  mlir::LogicalResult checkRoute(mlir::Operation *op, machine::NodeRef from,
                                 machine::NodeRef to);

  const machine::Machine &machine;
  const KernelSymbols &symbols;
  Bundle &bundle;
  llvm::DenseMap<mlir::Value, uint32_t> sregs, vregs;
};

} // namespace ktflow::bundle::detail

#endif // KTFLOW_LIB_BUNDLE_EMITTER_EMITTERSTATE_H
