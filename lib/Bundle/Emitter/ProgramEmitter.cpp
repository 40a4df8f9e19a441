//===- ProgramEmitter.cpp - Unit programs to instructions -----------------===//
//
// This file lowers one `dfir.unit` body to the executable instruction form:
// index arithmetic to scalar registers and ALU instructions, `scf.for` to
// counted loops (iter_args become registers copied in and out), symbols to
// set_imm instructions (relocation sites for tensor addresses and runtime
// arguments). emitOp hands every other op to its handler: the dfir ops
// (DFIROps.cpp) become their instruction after a check against the device
// (routes, supported element types).
//
//===----------------------------------------------------------------------===//

#include "EmitterState.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;
using machine::Opcode;

uint32_t ProgramEmitter::setImm(int64_t value) {
  uint32_t r = newSReg();
  machine::Inst &i = emitInst(Opcode::SetImm);
  i.a = r;
  i.imm = value;
  return r;
}

FailureOr<uint32_t> ProgramEmitter::sreg(Value value) {
  auto it = sregs.find(value);
  if (it != sregs.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  return (def ? def->emitError("value is not an index computed in this "
                               "unit program")
              : emitError(value.getLoc(), "unsupported block argument"));
}

FailureOr<uint32_t> ProgramEmitter::vreg(Value value) {
  auto it = vregs.find(value);
  if (it != vregs.end())
    return it->second;
  return emitError(value.getLoc(), "vector value not produced in this unit "
                                   "program");
}

FailureOr<uint32_t> ProgramEmitter::vtype(Operation *op, Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.isScalable())
    return op->emitError("expected a fixed-size vector, got ") << type;
  auto elem = toElemType(vector.getElementType());
  if (!elem)
    return op->emitError("element type ")
           << vector.getElementType() << " is not supported";
  machine::VectorType t;
  t.elem = *elem;
  for (int64_t d : vector.getShape())
    t.shape.push_back(static_cast<uint32_t>(d));
  if (t.numElements() > (1u << 20) || t.shape.size() > 4)
    return op->emitError("vector ") << type << " is too large";
  for (size_t i = 0; i < program.vtypes.size(); ++i)
    if (program.vtypes[i] == t)
      return static_cast<uint32_t>(i);
  program.vtypes.push_back(t);
  return static_cast<uint32_t>(program.vtypes.size() - 1);
}

FailureOr<uint32_t> ProgramEmitter::memory(Operation *op, StringRef name) {
  if (auto m = machine.findMemory(name))
    return *m;
  return op->emitError("device '")
         << machine.name << "' has no memory '" << name << "'";
}

LogicalResult ProgramEmitter::checkRoute(Operation *op, machine::NodeRef from,
                                         machine::NodeRef to) {
  if (machine.route(from, to))
    return success();
  return op->emitError("no datapath route from '")
         << machine.nodeName(from) << "' to '" << machine.nodeName(to)
         << "' on device '" << machine.name << "'";
}

static std::optional<machine::AluOp> aluOpOf(Operation *op) {
  using A = machine::AluOp;
  return llvm::TypeSwitch<Operation *, std::optional<A>>(op)
      .Case([](arith::AddIOp) { return A::Add; })
      .Case([](arith::SubIOp) { return A::Sub; })
      .Case([](arith::MulIOp) { return A::Mul; })
      .Case([](arith::DivSIOp) { return A::DivS; })
      .Case([](arith::DivUIOp) { return A::DivU; })
      .Case([](arith::RemSIOp) { return A::RemS; })
      .Case([](arith::RemUIOp) { return A::RemU; })
      .Case([](arith::CeilDivSIOp) { return A::CeilDivS; })
      .Case([](arith::CeilDivUIOp) { return A::CeilDivU; })
      .Case([](arith::FloorDivSIOp) { return A::FloorDivS; })
      .Case([](arith::MinSIOp) { return A::MinS; })
      .Case([](arith::MinUIOp) { return A::MinU; })
      .Case([](arith::MaxSIOp) { return A::MaxS; })
      .Case([](arith::MaxUIOp) { return A::MaxU; })
      .Case([](arith::AndIOp) { return A::And; })
      .Case([](arith::OrIOp) { return A::Or; })
      .Case([](arith::XOrIOp) { return A::Xor; })
      .Case([](arith::ShLIOp) { return A::Shl; })
      .Case([](arith::ShRSIOp) { return A::ShrS; })
      .Case([](arith::ShRUIOp) { return A::ShrU; })
      .Default([](Operation *) { return std::nullopt; });
}

LogicalResult ProgramEmitter::emit(dfir::UnitOp op) {
  // As the module loader locates ops (locateImplicitOps): an op without a
  // location takes its nearest located ancestor's, so a kernel compiled to
  // a bundle and one emitted from its DataflowIR (printed with debug info)
  // get the same table.
  for (Operation *at = op; at && !currentLoc; at = at->getParentOp())
    if (!isa<UnknownLoc>(at->getLoc()))
      currentLoc = at->getLoc();
  if (failed(emitBlock(op.getBody().front())))
    return failure();
  emitInst(Opcode::Halt);
  return success();
}

LogicalResult ProgramEmitter::emitBlock(Block &block) {
  // Terminators (scf.yield) are handled by the op that owns the block.
  LocationAttr owner = currentLoc;
  for (Operation &op : block) {
    currentLoc =
        isa<UnknownLoc>(op.getLoc()) ? owner : LocationAttr(op.getLoc());
    if (!op.hasTrait<OpTrait::IsTerminator>() && failed(emitOp(&op)))
      return failure();
  }
  currentLoc = owner;
  return success();
}

LogicalResult ProgramEmitter::emitFor(scf::ForOp op) {
  // The scheduler signs or refuses unsigned loops; only hand-written
  // DataflowIR has one here.
  if (op.getUnsignedCmp())
    return op.emitError("scf.for unsigned is not supported: the machine's "
                        "loops compare their bounds signed");
  auto lb = sreg(op.getLowerBound()), ub = sreg(op.getUpperBound()),
       step = sreg(op.getStep());
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  // iter_args live in registers of their own, copied in before the loop and
  // from the yield at the end of each iteration.
  SmallVector<std::pair<bool, uint32_t>> carried;
  for (auto [init, arg] : llvm::zip(op.getInitArgs(), op.getRegionIterArgs())) {
    bool isVector = isa<VectorType>(init.getType());
    auto src = isVector ? vreg(init) : sreg(init);
    if (failed(src))
      return failure();
    uint32_t reg = isVector ? newVReg() : newSReg();
    machine::Inst &mov = emitInst(isVector ? Opcode::MovV : Opcode::MovS);
    mov.a = reg, mov.b = *src;
    (isVector ? vregs : sregs)[arg] = reg;
    carried.push_back({isVector, reg});
  }
  uint32_t iv = newSReg();
  sregs[op.getInductionVar()] = iv;
  uint32_t begin = program.insts.size();
  machine::Inst &head = emitInst(Opcode::LoopBegin);
  head.a = iv, head.b = *lb, head.c = *ub, head.d = *step;
  if (auto distance =
          dfir::DFIRDialect::SkewedAttrHelper(op->getContext()).getAttr(op)) {
    int64_t d = distance.getInt();
    if (d < 1 || d > machine::kLoopSkewedMax)
      return op->emitError("dfir.skewed distance out of range");
    head.sub = static_cast<uint8_t>(d);
  }
  if (failed(emitBlock(*op.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  SmallVector<uint32_t> temps;
  for (auto [value, slot] : llvm::zip(yield.getOperands(), carried)) {
    auto src = slot.first ? vreg(value) : sreg(value);
    if (failed(src))
      return failure();
    uint32_t tmp = slot.first ? newVReg() : newSReg();
    machine::Inst &mov = emitInst(slot.first ? Opcode::MovV : Opcode::MovS);
    mov.a = tmp, mov.b = *src;
    temps.push_back(tmp);
  }
  for (auto [tmp, slot] : llvm::zip(temps, carried)) {
    machine::Inst &mov = emitInst(slot.first ? Opcode::MovV : Opcode::MovS);
    mov.a = slot.second, mov.b = tmp;
  }
  uint32_t end = program.insts.size();
  machine::Inst &tail = emitInst(Opcode::LoopEnd);
  tail.a = iv, tail.c = *ub, tail.d = *step, tail.e = begin;
  program.insts[begin].e = end;
  for (auto [result, slot] : llvm::zip(op.getResults(), carried))
    (slot.first ? vregs : sregs)[result] = slot.second;
  return success();
}

LogicalResult ProgramEmitter::emitOp(Operation *op) {
  if (auto alu = aluOpOf(op))
    return emitAlu(op, *alu);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp c) { return emitConstant(c); })
      .Case([&](arith::CmpIOp cmp) { return emitCmpI(cmp); })
      .Case([&](arith::SelectOp sel) { return emitSelect(sel); })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp>(
          [&](auto cast) { return emitIndexCast(cast.getOperation()); })
      .Case([&](dfir::AddressOp addr) { return emitAddress(addr); })
      .Case([&](dfir::RuntimeValueOp value) { return emitRuntimeValue(value); })
      .Case([&](scf::ForOp loop) { return emitFor(loop); })
      .Case([&](dfir::MapOp map) { return emitMap(map); })
      .Case([&](dfir::DmaOp dma) { return emitDma(dma); })
      .Case([&](dfir::RemoteDmaOp dma) { return emitRemoteDma(dma); })
      .Case([&](dfir::FillOp fill) { return emitFill(fill); })
      .Case([&](dfir::ReadIndexOp read) { return emitReadIndex(read); })
      .Case<dfir::LoadOp, dfir::StoreOp>([&](auto transfer) {
        return emitLoadOrStore(transfer.getOperation());
      })
      .Case([&](dfir::SendOp send) { return emitSend(send); })
      .Case([&](dfir::RecvOp recv) { return emitRecv(recv); })
      .Case<dfir::ReduceOp, dfir::BroadcastOp>([&](auto vectorOp) {
        return emitReduceOrBroadcast(vectorOp.getOperation());
      })
      .Case([&](dfir::SplatOp splat) { return emitSplat(splat); })
      .Case([&](dfir::SplatArgOp splat) { return emitSplatArg(splat); })
      .Case([&](dfir::MatmulOp mm) { return emitMatmul(mm); })
      .Case([&](dfir::IotaOp iota) { return emitIota(iota); })
      .Case([&](dfir::SyncSendOp s) { return emitSyncSend(s); })
      .Case([&](dfir::SyncRecvOp s) { return emitSyncRecv(s); })
      .Default([](Operation *op) {
        return op->emitError("operation '")
               << op->getName() << "' is not supported in a unit program";
      });
}

LogicalResult ProgramEmitter::emitConstant(arith::ConstantOp c) {
  auto value = dyn_cast<IntegerAttr>(c.getValue());
  if (!value)
    return c.emitError("only integer and index constants are supported "
                       "outside a dfir.map body");
  // A comparison leaves 0 or 1 in a register, so an i1 `true` must be 1, not
  // the -1 sign extension gives: `xori %cmp, %true` negates only then.
  const llvm::APInt &bits = value.getValue();
  sregs[c.getResult()] =
      setImm(bits.getBitWidth() == 1 ? static_cast<int64_t>(bits.getZExtValue())
                                     : bits.getSExtValue());
  return success();
}

LogicalResult ProgramEmitter::emitAlu(Operation *op, machine::AluOp alu) {
  auto a = sreg(op->getOperand(0)), b = sreg(op->getOperand(1));
  if (failed(a) || failed(b))
    return failure();
  uint32_t r = newSReg();
  machine::Inst &i = emitInst(Opcode::Alu);
  i.sub = static_cast<uint8_t>(alu);
  i.a = r, i.b = *a, i.c = *b;
  sregs[op->getResult(0)] = r;
  return success();
}

LogicalResult ProgramEmitter::emitCmpI(arith::CmpIOp cmp) {
  using P = arith::CmpIPredicate;
  using A = machine::AluOp;
  static const std::pair<P, A> table[] = {
      {P::eq, A::Eq},   {P::ne, A::Ne},   {P::slt, A::Slt}, {P::sle, A::Sle},
      {P::sgt, A::Sgt}, {P::sge, A::Sge}, {P::ult, A::Ult}, {P::ule, A::Ule},
      {P::ugt, A::Ugt}, {P::uge, A::Uge}};
  auto a = sreg(cmp.getLhs()), b = sreg(cmp.getRhs());
  if (failed(a) || failed(b))
    return failure();
  uint32_t r = newSReg();
  machine::Inst &i = emitInst(Opcode::Alu);
  for (auto [pred, alu] : table)
    if (pred == cmp.getPredicate())
      i.sub = static_cast<uint8_t>(alu);
  i.a = r, i.b = *a, i.c = *b;
  sregs[cmp.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitSelect(arith::SelectOp sel) {
  if (isa<VectorType>(sel.getType()))
    return sel.emitError("vector select is only supported inside a "
                         "dfir.map body");
  auto c = sreg(sel.getCondition()), t = sreg(sel.getTrueValue()),
       f = sreg(sel.getFalseValue());
  if (failed(c) || failed(t) || failed(f))
    return failure();
  uint32_t r = newSReg();
  machine::Inst &i = emitInst(Opcode::SelectS);
  i.a = r, i.b = *c, i.c = *t, i.d = *f;
  sregs[sel.getResult()] = r;
  return success();
}

LogicalResult ProgramEmitter::emitIndexCast(Operation *op) {
  // Index and integer scalars share the 64-bit registers.
  auto a = sreg(op->getOperand(0));
  if (failed(a))
    return failure();
  sregs[op->getResult(0)] = *a;
  return success();
}

LogicalResult ProgramEmitter::emitAddress(dfir::AddressOp addr) {
  StringRef name = addr.getSymbol();
  if (symbols.tensors.count(name)) {
    sregs[addr.getResult()] = setImm(0);
    relocations.emplace_back(program.insts.size() - 1,
                             SymbolKind::TensorAddress,
                             symbols.tensors.lookup(name));
  } else {
    sregs[addr.getResult()] = setImm(symbols.bufferOffsets.lookup(name));
  }
  return success();
}

LogicalResult ProgramEmitter::emitRuntimeValue(dfir::RuntimeValueOp value) {
  sregs[value.getResult()] = setImm(0);
  relocations.emplace_back(program.insts.size() - 1, SymbolKind::RuntimeArg,
                           symbols.runtimeArgs.lookup(value.getSymbol()));
  return success();
}
