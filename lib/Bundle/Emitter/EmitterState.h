//===- EmitterState.h - Shared state of the bundle emitter ------*- C++ -*-===//
//
// This file declares the pieces of the bundle emitter: the symbol indices
// the kernel-level emitter (Emitter.cpp) resolves, the ProgramEmitter that
// encodes one unit program (registers, loops and index arithmetic in
// ProgramEmitter.cpp, one handler per dfir op in DFIROps.cpp) and the
// MapBodyEmitter that turns a dfir.map body into a micro-program
// (MapBodyEmitter.cpp), which sees only the input registers it is given.
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

/// Fails, at `op`, when `unit` cannot compute `opClass` on `type`.
mlir::LogicalResult checkCompute(mlir::Operation *op,
                                 const machine::MachineUnit &unit,
                                 machine::OpClass opClass,
                                 machine::ElemType type);

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
  /// Per instruction, the location of the op it was emitted for.
  std::vector<mlir::LocationAttr> instLocs;

private:
  // Control flow and index arithmetic (ProgramEmitter.cpp).
  mlir::LogicalResult emitBlock(mlir::Block &block);
  /// Dispatches `op` to its handler.
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitFor(mlir::scf::ForOp op);
  mlir::LogicalResult emitConstant(mlir::arith::ConstantOp op);
  mlir::LogicalResult emitAlu(mlir::Operation *op, machine::AluOp alu);
  mlir::LogicalResult emitCmpI(mlir::arith::CmpIOp op);
  mlir::LogicalResult emitSelect(mlir::arith::SelectOp op);
  mlir::LogicalResult emitIndexCast(mlir::Operation *op);
  mlir::LogicalResult emitAddress(mlir::dfir::AddressOp op);
  mlir::LogicalResult emitRuntimeValue(mlir::dfir::RuntimeValueOp op);

  // The dfir ops that become one instruction each (DFIROps.cpp).
  mlir::LogicalResult emitDma(mlir::dfir::DmaOp op);
  mlir::LogicalResult emitRemoteDma(mlir::dfir::RemoteDmaOp op);
  /// The instruction of a dma or remote_dma between memories `src`, `dst`.
  template <typename CopyOp>
  mlir::LogicalResult emitCopy(CopyOp op, machine::Opcode opcode, uint32_t src,
                               uint32_t dst);
  mlir::LogicalResult emitFill(mlir::dfir::FillOp op);
  mlir::LogicalResult emitReadIndex(mlir::dfir::ReadIndexOp op);
  mlir::LogicalResult emitLoadOrStore(mlir::Operation *op);
  mlir::LogicalResult emitSend(mlir::dfir::SendOp op);
  mlir::LogicalResult emitRecv(mlir::dfir::RecvOp op);
  mlir::LogicalResult emitReduceOrBroadcast(mlir::Operation *op);
  mlir::LogicalResult emitSplat(mlir::dfir::SplatOp op);
  mlir::LogicalResult emitSplatArg(mlir::dfir::SplatArgOp op);
  mlir::LogicalResult emitMatmul(mlir::dfir::MatmulOp op);
  mlir::LogicalResult emitIota(mlir::dfir::IotaOp op);
  mlir::LogicalResult emitMap(mlir::dfir::MapOp op);
  mlir::LogicalResult emitSyncSend(mlir::dfir::SyncSendOp op);
  mlir::LogicalResult emitSyncRecv(mlir::dfir::SyncRecvOp op);

  // Registers, symbols and checks against the device.
  mlir::FailureOr<uint32_t> sreg(mlir::Value value);
  mlir::FailureOr<uint32_t> vreg(mlir::Value value);
  /// The index of `type` in the program's vector type table, added if new.
  mlir::FailureOr<uint32_t> vtype(mlir::Operation *op, mlir::Type type);
  uint32_t newSReg() { return program.numSRegs++; }
  uint32_t newVReg() { return program.numVRegs++; }
  machine::Inst &emitInst(machine::Opcode op) {
    instLocs.push_back(currentLoc);
    program.insts.push_back({});
    program.insts.back().op = op;
    return program.insts.back();
  }
  uint32_t setImm(int64_t value);
  mlir::FailureOr<uint32_t> memory(mlir::Operation *op, llvm::StringRef name);
  mlir::LogicalResult checkRoute(mlir::Operation *op, machine::NodeRef from,
                                 machine::NodeRef to);
  mlir::LogicalResult checkCompute(mlir::Operation *op,
                                   machine::OpClass opClass,
                                   machine::ElemType type) {
    return detail::checkCompute(op, machine.units[program.unit], opClass, type);
  }
  machine::NodeRef self() const {
    return {machine::NodeRef::Unit, program.unit};
  }

  const machine::Machine &machine;
  const KernelSymbols &symbols;
  Bundle &bundle;
  llvm::DenseMap<mlir::Value, uint32_t> sregs, vregs;
  /// The location of the op being emitted, or of its nearest located
  /// ancestor (a loop's own instructions get the loop's); null if none.
  mlir::LocationAttr currentLoc;
};

/// Lowers the scalar body of a dfir.map to a micro-program for one unit:
/// arith, math and spyreop ops become micro-ops on slots (the inputs first,
/// then one per result), each checked against what the unit computes.
class MapBodyEmitter {
public:
  explicit MapBodyEmitter(const machine::MachineUnit &unit) : unit(unit) {}

  /// The micro-program of `op`'s body, reading its inputs from the vector
  /// registers `inputRegs` (one per input, in order).
  mlir::FailureOr<machine::MapBody> emit(mlir::dfir::MapOp op,
                                         llvm::ArrayRef<uint32_t> inputRegs);

private:
  /// The micro-op of one body op, its operands resolved to slots; its
  /// result slot is left to the caller.
  mlir::FailureOr<machine::MicroOp> emitMicroOp(mlir::Operation &inner);

  const machine::MachineUnit &unit;
  /// Body values -> the slots that hold them.
  llvm::DenseMap<mlir::Value, uint32_t> slots;
};

} // namespace ktflow::bundle::detail

#endif // KTFLOW_LIB_BUNDLE_EMITTER_EMITTERSTATE_H
