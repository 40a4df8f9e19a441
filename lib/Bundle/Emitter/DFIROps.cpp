//===- DFIROps.cpp - dfir ops of a unit program to instructions -----------===//
//
// This file holds the ProgramEmitter's handlers for the dfir ops that each
// become one instruction: transfers (dma, fill, load, store, remote_dma,
// the index reads that gate a gather's or scatter's addresses)
// after checking that the unit reaches their memories (a remote_dma's
// destination through the interconnect, in another core), FIFO send and
// receive, sync tokens, and vector compute (map, reduce, broadcast, splat,
// matmul) after checking that the unit computes it on its element type. A
// map's body is encoded by the MapBodyEmitter.
//
//===----------------------------------------------------------------------===//

#include "EmitterState.h"

#include "ktflow/Device/ChargedType.h"
#include "ktflow/Support/ElementBytes.h"

#include <cstring>
#include <type_traits>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;
using machine::Opcode;

/// The machine's fold of a dfir.reduce kind.
static machine::ReduceKind machineReduceKind(dfir::ReduceKind kind) {
  using K = machine::ReduceKind;
  switch (kind) {
  case dfir::ReduceKind::add:
    return K::Add;
  case dfir::ReduceKind::mul:
    return K::Mul;
  case dfir::ReduceKind::max:
    return K::Max;
  case dfir::ReduceKind::min:
    return K::Min;
  case dfir::ReduceKind::maxnum:
    return K::MaxNum;
  case dfir::ReduceKind::minnum:
    return K::MinNum;
  case dfir::ReduceKind::maxafternan:
    return K::MaxAfterNaN;
  case dfir::ReduceKind::minafternan:
    return K::MinAfterNaN;
  }
  llvm_unreachable("unknown dfir.reduce kind");
}

static machine::NodeRef memoryNode(uint32_t memory) {
  return machine::NodeRef{machine::NodeRef::Memory, memory};
}

LogicalResult ProgramEmitter::emitDma(dfir::DmaOp dma) {
  Operation *op = dma;
  auto src = memory(op, dma.getSrcMemory()),
       dst = memory(op, dma.getDstMemory());
  if (failed(src) || failed(dst) ||
      failed(checkRoute(op, memoryNode(*src), self())) ||
      failed(checkRoute(op, self(), memoryNode(*dst))))
    return failure();
  return emitCopy(dma, Opcode::Dma, *src, *dst);
}

LogicalResult ProgramEmitter::emitRemoteDma(dfir::RemoteDmaOp dma) {
  Operation *op = dma;
  auto src = memory(op, dma.getSrcMemory()),
       dst = memory(op, dma.getDstMemory());
  if (failed(src) || failed(dst) ||
      failed(checkRoute(op, memoryNode(*src), self())))
    return failure();
  const machine::MachineInterconnect &ic = machine.interconnect;
  if (ic.topology == machine::MachineInterconnect::None ||
      !(ic.linkBandwidth > 0))
    return op->emitError("device '")
           << machine.name
           << "' has no interconnect between cores to carry a remote dma";
  int32_t from = machine.units[program.unit].core,
          to = machine.memories[*dst].core;
  if (from < 0)
    return op->emitError("unit '")
           << machine.units[program.unit].name
           << "' is not in a core: only a core's units send over the "
              "interconnect";
  if (to < 0 || to == from)
    return op->emitError("a remote dma writes a memory of another core than "
                         "the unit's (core ")
           << from << "); '" << dma.getDstMemory() << "' is "
           << (to < 0 ? std::string("in no core")
                      : "in core " + std::to_string(to));
  return emitCopy(dma, Opcode::RemoteDma, *src, *dst);
}

template <typename CopyOp>
LogicalResult ProgramEmitter::emitCopy(CopyOp copy, Opcode opcode, uint32_t src,
                                       uint32_t dst) {
  auto a = sreg(copy.getSrc()), b = sreg(copy.getDst()),
       n = sreg(copy.getSize());
  if (failed(a) || failed(b) || failed(n))
    return failure();
  uint32_t rows = machine::kNoReg, ss = machine::kNoReg, ds = machine::kNoReg;
  if (copy.getRows()) {
    auto r = sreg(copy.getRows()), s1 = sreg(copy.getSrcStride()),
         s2 = sreg(copy.getDstStride());
    if (failed(r) || failed(s1) || failed(s2))
      return failure();
    rows = *r, ss = *s1, ds = *s2;
  }
  // Planes of rows (a dfir.dma's second level of strides).
  uint32_t planes = machine::kNoReg, ps = 0, pd = 0;
  if constexpr (std::is_same_v<CopyOp, dfir::DmaOp>) {
    if (copy.getPlanes()) {
      auto p = sreg(copy.getPlanes()), s1 = sreg(copy.getSrcPlaneStride()),
           s2 = sreg(copy.getDstPlaneStride());
      if (failed(p) || failed(s1) || failed(s2))
        return failure();
      planes = *p, ps = *s1, pd = *s2;
    }
  }
  machine::Inst &i = emitInst(opcode);
  i.a = src, i.b = *a, i.c = dst, i.d = *b, i.e = *n;
  i.f = rows, i.g = ss, i.h = ds;
  if (planes != machine::kNoReg) {
    i.sub = machine::kDmaPlanes;
    i.i = planes, i.j = ps, i.k = pd;
  }
  return success();
}

LogicalResult ProgramEmitter::emitFill(dfir::FillOp fill) {
  Operation *op = fill;
  auto dst = memory(op, fill.getMemory());
  if (failed(dst) || failed(checkRoute(op, self(), memoryNode(*dst))))
    return failure();
  auto addr = sreg(fill.getAddr()), n = sreg(fill.getSize());
  if (failed(addr) || failed(n))
    return failure();
  uint32_t rows = machine::kNoReg, stride = machine::kNoReg;
  if (fill.getRows()) {
    auto r = sreg(fill.getRows()), s = sreg(fill.getStride());
    if (failed(r) || failed(s))
      return failure();
    rows = *r, stride = *s;
  }
  machine::Inst &i = emitInst(Opcode::Fill);
  i.a = *dst, i.b = *addr, i.c = *n, i.d = rows, i.e = stride;
  return success();
}

LogicalResult ProgramEmitter::emitReadIndex(dfir::ReadIndexOp read) {
  Operation *op = read;
  auto mem = memory(op, read.getMemory());
  if (failed(mem) || failed(checkRoute(op, memoryNode(*mem), self())))
    return failure();
  auto addr = sreg(read.getAddr()), bound = sreg(read.getBound());
  if (failed(addr) || failed(bound))
    return failure();
  uint32_t r = newSReg();
  machine::Inst &i = emitInst(Opcode::ReadIndex);
  i.a = r, i.b = *mem, i.c = *addr, i.d = *bound;
  i.sub = static_cast<uint8_t>(ktflow::bytesPerElement(read.getElemType()));
  sregs[read.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitLoadOrStore(Operation *op) {
  bool isLoad = isa<dfir::LoadOp>(op);
  auto fifoName = op->getAttrOfType<FlatSymbolRefAttr>("fifo").getValue();
  auto memName = op->getAttrOfType<StringAttr>("memory").getValue();
  auto mem = memory(op, memName);
  if (failed(mem))
    return failure();
  if (failed(isLoad ? checkRoute(op, memoryNode(*mem), self())
                    : checkRoute(op, self(), memoryNode(*mem))))
    return failure();
  auto addr = sreg(op->getOperand(0)), size = sreg(op->getOperand(1));
  if (failed(addr) || failed(size))
    return failure();
  // A load or store of rows: the rows and their stride (sub 1).
  FailureOr<uint32_t> rows = failure(), stride = failure();
  bool hasRows = op->getNumOperands() == 4;
  if (hasRows) {
    rows = sreg(op->getOperand(2)), stride = sreg(op->getOperand(3));
    if (failed(rows) || failed(stride))
      return failure();
  }
  machine::Inst &i = emitInst(isLoad ? Opcode::Load : Opcode::Store);
  i.a = symbols.fifos.lookup(fifoName), i.b = *mem, i.c = *addr, i.d = *size;
  if (hasRows)
    i.sub = machine::kTransferRows, i.e = *rows, i.f = *stride;
  return success();
}

LogicalResult ProgramEmitter::emitSend(dfir::SendOp send) {
  auto v = vreg(send.getValue());
  if (failed(v))
    return failure();
  machine::Inst &i = emitInst(Opcode::Send);
  i.a = symbols.fifos.lookup(send.getFifo()), i.b = *v;
  return success();
}

LogicalResult ProgramEmitter::emitRecv(dfir::RecvOp recv) {
  auto t = vtype(recv, recv.getType());
  if (failed(t))
    return failure();
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(Opcode::Recv);
  i.a = r, i.b = symbols.fifos.lookup(recv.getFifo()), i.c = *t;
  vregs[recv.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitReduceOrBroadcast(Operation *op) {
  bool isReduce = isa<dfir::ReduceOp>(op);
  auto in = vreg(op->getOperand(0));
  auto t = vtype(op, op->getResult(0).getType());
  if (failed(in) || failed(t))
    return failure();
  // A broadcast moves its values: charged at the type the unit holds
  // them in (ChargedType.h).
  machine::ElemType elem = program.vtypes[*t].elem;
  if (failed(isReduce ? checkCompute(op, machine::OpClass::Reduction, elem)
                      : checkCompute(op, machine::OpClass::Elementwise,
                                     device::heldType(
                                         elem, machine.units[program.unit]))))
    return failure();
  // A fold from an initial accumulator reads it (register d).
  auto reduce = dyn_cast<dfir::ReduceOp>(op);
  FailureOr<uint32_t> init = 0;
  if (reduce && reduce.getInit())
    init = vreg(reduce.getInit());
  if (failed(init))
    return failure();
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(isReduce ? Opcode::Reduce : Opcode::Broadcast);
  if (reduce) {
    machine::ReduceKind kind = machineReduceKind(reduce.getKind());
    i.sub = static_cast<uint8_t>(kind);
    if (reduce.getInit() && !machine::reduceHasInit(kind))
      i.sub |= machine::kReduceFromInit;
  }
  i.a = r, i.b = *in, i.c = *t, i.d = *init;
  vregs[op->getResult(0)] = r;
  return success();
}

LogicalResult ProgramEmitter::emitSplat(dfir::SplatOp splat) {
  auto t = vtype(splat, splat.getType());
  if (failed(t))
    return failure();
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(Opcode::Splat);
  double value = splat.getValue().convertToDouble();
  std::memcpy(&i.imm, &value, sizeof(double));
  i.a = r, i.c = *t;
  vregs[splat.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitIota(dfir::IotaOp iota) {
  auto base = sreg(iota.getBase());
  auto t = vtype(iota, iota.getType());
  if (failed(base) || failed(t))
    return failure();
  if (failed(checkCompute(iota, machine::OpClass::Elementwise,
                          program.vtypes[*t].elem)))
    return failure();
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(Opcode::Iota);
  i.a = r, i.b = *base, i.c = *t;
  if (std::optional<int64_t> d = iota.getDimension())
    i.sub = static_cast<uint8_t>(*d + 1);
  vregs[iota.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitSplatArg(dfir::SplatArgOp splat) {
  auto t = vtype(splat, splat.getType());
  if (failed(t))
    return failure();
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(Opcode::Splat);
  i.a = r, i.c = *t;
  // The immediate is the double the runtime rounds the argument to; an
  // integer argument's value converted to a double, which the splat rounds
  // to its element type.
  auto decl = SymbolTable::lookupNearestSymbolFrom<dfir::RuntimeArgOp>(
      splat, splat.getSymbolAttr());
  SymbolKind kind = decl && !decl.getFloatType() ? SymbolKind::RuntimeArgAsFloat
                                                 : SymbolKind::RuntimeArg;
  relocations.emplace_back(program.insts.size() - 1, kind,
                           symbols.runtimeArgs.lookup(splat.getSymbol()));
  vregs[splat.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitMatmul(dfir::MatmulOp mm) {
  Operation *op = mm;
  auto a = vreg(mm.getLhs()), b = vreg(mm.getRhs()), c = vreg(mm.getAcc());
  auto t = vtype(op, mm.getType());
  auto lhsType = vtype(op, mm.getLhs().getType());
  if (failed(a) || failed(b) || failed(c) || failed(t) || failed(lhsType) ||
      failed(checkCompute(op, machine::OpClass::Matrix,
                          program.vtypes[*lhsType].elem)))
    return failure();
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(Opcode::Matmul);
  i.a = r, i.b = *a, i.c = *b, i.d = *c, i.e = *t;
  vregs[mm.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitMap(dfir::MapOp op) {
  auto t = vtype(op, op.getType());
  if (failed(t))
    return failure();
  SmallVector<uint32_t> inputRegs;
  for (auto [input, arg] :
       llvm::zip(op.getInputs(), op.getBody().front().getArguments())) {
    auto r = vreg(input);
    if (failed(r))
      return failure();
    inputRegs.push_back(*r);
  }
  FailureOr<machine::MapBody> body =
      MapBodyEmitter(machine.units[program.unit]).emit(op, inputRegs);
  if (failed(body))
    return failure();
  program.maps.push_back(std::move(*body));
  uint32_t r = newVReg();
  machine::Inst &i = emitInst(Opcode::Map);
  i.a = r, i.b = program.maps.size() - 1, i.c = *t;
  if (std::optional<uint64_t> acc = op.getAccumulator()) {
    if (*acc >= 255)
      return op.emitError("an accumulator must be one of the first 255 "
                          "inputs");
    i.sub = static_cast<uint8_t>(*acc + 1);
  }
  vregs[op.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitSyncSend(dfir::SyncSendOp s) {
  emitInst(Opcode::SyncSend).a = symbols.syncs.lookup(s.getSync());
  return success();
}

LogicalResult ProgramEmitter::emitSyncRecv(dfir::SyncRecvOp s) {
  emitInst(Opcode::SyncRecv).a = symbols.syncs.lookup(s.getSync());
  return success();
}
