//===- Runtime.cpp - Load and launch program bundles ----------------------===//
//
// This file implements the runtime: bundle loading, argument binding,
// tensor allocation (a bump allocator per memory, 128-byte aligned),
// relocation patching and launch on the simulator.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Runtime/Link.h"
#include "ktflow/Support/FloatArgument.h"
#include "ktflow/Support/RuntimeArgValue.h"
#include "ktflow/Support/ScratchpadInputName.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::rt;

/// Tensors start at 128-byte boundaries, the stick size of Spyre-like
/// devices and a multiple of every transfer granularity we ship.
static constexpr uint64_t kTensorAlignment = 128;

llvm::Expected<Program> Program::loadBytes(llvm::ArrayRef<uint8_t> bytes) {
  auto bundle = bundle::readBundle(bytes);
  if (!bundle)
    return bundle.takeError();
  Program program;
  program.bundle = std::move(*bundle);
  return program;
}

llvm::Expected<Program> Program::loadFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read '%s': %s", path.str().c_str(),
                                   buffer.getError().message().c_str());
  llvm::StringRef data = (*buffer)->getBuffer();
  auto program = loadBytes(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(data.data()), data.size()));
  if (!program)
    return llvm::createStringError(
        "%s: %s", path.str().c_str(),
        llvm::toString(program.takeError()).c_str());
  return program;
}

llvm::Error Program::checkDevice(const machine::Machine &machine) const {
  if (bundle.device != machine.name)
    return llvm::createStringError(
        "the bundle was built for device '%s', not '%s'",
        bundle.device.c_str(), machine.name.c_str());
  if (bundle.deviceFingerprint != machine.fingerprint())
    return llvm::createStringError(
        "the bundle was built for another version of device '%s' (its "
        "description has changed since)",
        machine.name.c_str());
  return llvm::Error::success();
}

std::optional<uint32_t> Program::findTensor(llvm::StringRef name) const {
  const std::vector<bundle::TensorArg> &tensors = bundle.tensors;
  uint64_t address;
  if (name.starts_with("@") && name.size() > 1 &&
      !name.drop_front().getAsInteger(10, address))
    return findTensorAt(address);
  if (auto lx = parseScratchpadInputName(name))
    return findTensorAt(lx->second, lx->first);
  for (uint32_t i = 0; i < tensors.size(); ++i)
    if (!name.empty() && tensors[i].argName == name)
      return i;
  for (uint32_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name)
      return i;
  uint32_t position;
  if (!name.getAsInteger(10, position))
    return findTensorOfArgument(position);
  return std::nullopt;
}

std::optional<uint32_t> Program::findRuntimeArg(llvm::StringRef name) const {
  const std::vector<bundle::RuntimeArg> &args = bundle.runtimeArgs;
  for (uint32_t i = 0; i < args.size(); ++i)
    if (!name.empty() && args[i].argName == name)
      return i;
  for (uint32_t i = 0; i < args.size(); ++i)
    if (args[i].name == name)
      return i;
  uint32_t position;
  if (!name.getAsInteger(10, position))
    return findRuntimeArgOfArgument(position);
  return std::nullopt;
}

std::optional<uint32_t> Program::findTensorOfArgument(uint32_t position) const {
  for (uint32_t i = 0; i < bundle.tensors.size(); ++i)
    if (bundle.tensors[i].argument == position)
      return i;
  return std::nullopt;
}

std::optional<uint32_t>
Program::findTensorAt(uint64_t address, std::optional<uint64_t> tile) const {
  for (uint32_t i = 0; i < bundle.tensors.size(); ++i)
    if (bundle.tensors[i].address == address && bundle.tensors[i].tile == tile)
      return i;
  return std::nullopt;
}

std::optional<uint32_t>
Program::findRuntimeArgOfArgument(uint32_t position) const {
  for (uint32_t i = 0; i < bundle.runtimeArgs.size(); ++i)
    if (bundle.runtimeArgs[i].argument == position)
      return i;
  return std::nullopt;
}

Launch::Launch(const Program &program)
    : program(program), argValues(program.getBundle().runtimeArgs.size()),
      initial(program.getBundle().tensors.size()),
      generated(program.getBundle().tensors.size()),
      addresses(program.getBundle().tensors.size(), 0) {}

llvm::Error Launch::setRuntimeArg(llvm::StringRef name, int64_t value) {
  auto index = program.findRuntimeArg(name);
  if (!index)
    return llvm::createStringError("the kernel has no runtime argument '%s'",
                                   name.str().c_str());
  return setRuntimeArg(*index, value);
}

/// The APFloat semantics of a float runtime argument's type.
static const llvm::fltSemantics &semanticsOf(machine::ElemType type) {
  switch (type) {
  case machine::ElemType::f16:
    return llvm::APFloat::IEEEhalf();
  case machine::ElemType::bf16:
    return llvm::APFloat::BFloat();
  default:
    return llvm::APFloat::IEEEsingle();
  }
}

llvm::Error Launch::setFloatRuntimeArg(uint32_t index, double value) {
  const bundle::RuntimeArg &arg = program.getBundle().runtimeArgs[index];
  std::optional<machine::ElemType> type = bundle::getFloatType(arg);
  if (!type)
    return llvm::createStringError("scalar argument '%s' is an integer",
                                   bundle::getKernelName(arg).c_str());
  llvm::APFloat rounded(value);
  bool lost = false;
  rounded.convert(semanticsOf(*type), llvm::APFloat::rmNearestTiesToEven,
                  &lost);
  rounded.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
  // Stored as the double's bits: what the splat instructions that read the
  // argument hold as their immediate (bundle-format.md, relocations).
  double exact = rounded.convertToDouble();
  int64_t bits;
  std::memcpy(&bits, &exact, sizeof(bits));
  argValues[index] = bits;
  linked = false;
  return llvm::Error::success();
}

llvm::Error Launch::bindRuntimeArg(llvm::StringRef name, llvm::StringRef text) {
  auto index = program.findRuntimeArg(name);
  if (!index)
    return llvm::createStringError("the kernel has no runtime argument '%s'",
                                   name.str().c_str());
  return bindRuntimeArg(*index, text);
}

llvm::Error Launch::bindRuntimeArg(uint32_t index, llvm::StringRef text) {
  const bundle::RuntimeArg &arg = program.getBundle().runtimeArgs[index];
  std::string name = bundle::getKernelName(arg);
  if (std::optional<machine::ElemType> type = bundle::getFloatType(arg)) {
    std::optional<double> value = parseFloatArgument(text, semanticsOf(*type));
    if (!value)
      return llvm::createStringError(
          "'%s' expects a number (or the bits of an %s as 0x...), got '%s'",
          name.c_str(), machine::elemTypeName(*type).str().c_str(),
          text.str().c_str());
    return setFloatRuntimeArg(index, *value);
  }
  int64_t value;
  if (text.getAsInteger(10, value))
    return llvm::createStringError("'%s' expects an integer, got '%s'",
                                   name.c_str(), text.str().c_str());
  return setRuntimeArg(index, value);
}

llvm::Error Launch::setRuntimeArg(uint32_t index, int64_t value) {
  const bundle::RuntimeArg &arg = program.getBundle().runtimeArgs[index];
  std::string name = bundle::getKernelName(arg);
  if (arg.floatType)
    return llvm::createStringError(
        "scalar argument '%s' is a float; bind it with a number", name.c_str());
  // A runtime_arg is a positive size; a plain scalar argument may take any
  // value of its type, or of the narrower integer type the kernel casts it
  // to, non-negative if it reads it unsigned (getLaunchArgumentBounds).
  if (arg.lowerbound == 1) {
    if (llvm::Error error =
            checkRuntimeArgValue(name, value, arg.granularity, arg.upperbound))
      return error;
  } else if (value < arg.lowerbound || value > arg.upperbound) {
    return llvm::createStringError(
        "scalar argument '%s' = %lld is outside its range [%lld, %lld] (its "
        "type's, or that of a narrower integer the kernel casts it to; "
        "non-negative where the kernel reads it unsigned)",
        name.c_str(), (long long)value, (long long)arg.lowerbound,
        (long long)arg.upperbound);
  }
  argValues[index] = value;
  linked = false;
  return llvm::Error::success();
}

llvm::Expected<std::vector<int64_t>> Launch::getShape(uint32_t tensor) const {
  const bundle::TensorArg &t = program.getBundle().tensors[tensor];
  std::vector<int64_t> shape;
  for (const bundle::TensorDim &d : t.dims) {
    if (d.runtimeArg == bundle::kNoArg) {
      shape.push_back(d.size);
      continue;
    }
    const std::optional<int64_t> &v = argValues[d.runtimeArg];
    if (!v)
      return llvm::createStringError(
          "tensor '%s' needs runtime argument '%s', which is not bound",
          bundle::getKernelName(t).c_str(),
          bundle::getKernelName(program.getBundle().runtimeArgs[d.runtimeArg])
              .c_str());
    int64_t extent;
    if (__builtin_mul_overflow(*v, d.scale, &extent))
      return llvm::createStringError("tensor '%s' is too large",
                                     tensorName(tensor).c_str());
    if (extent < 0)
      return llvm::createStringError(
          "tensor '%s' would have %lld elements along a dimension (runtime "
          "argument '%s')",
          bundle::getKernelName(t).c_str(), (long long)extent,
          bundle::getKernelName(program.getBundle().runtimeArgs[d.runtimeArg])
              .c_str());
    shape.push_back(extent);
  }
  return shape;
}

llvm::Expected<uint64_t> Launch::getByteSize(uint32_t tensor) const {
  auto shape = getShape(tensor);
  if (!shape)
    return shape.takeError();
  uint64_t bytes = machine::elemBytes(program.getBundle().tensors[tensor].elem);
  for (int64_t d : *shape)
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
      return llvm::createStringError("tensor '%s' is too large",
                                     tensorName(tensor).c_str());
  return bytes;
}

llvm::Error Launch::setTensor(uint32_t tensor, llvm::ArrayRef<uint8_t> bytes) {
  auto size = getByteSize(tensor);
  if (!size)
    return size.takeError();
  if (bytes.size() != *size)
    return llvm::createStringError("tensor '%s' holds %llu bytes; %zu given",
                                   tensorName(tensor).c_str(),
                                   (unsigned long long)*size, bytes.size());
  initial[tensor].assign(bytes.begin(), bytes.end());
  generated[tensor] = nullptr;
  return llvm::Error::success();
}

void Launch::setTensorContents(uint32_t tensor,
                               sim::MemoryImage::Contents contents) {
  initial[tensor].clear();
  generated[tensor] = std::move(contents);
}

llvm::Error Launch::link() {
  if (linked)
    return llvm::Error::success();
  const bundle::Bundle &b = program.getBundle();
  for (size_t i = 0; i < b.runtimeArgs.size(); ++i)
    if (!argValues[i])
      return llvm::createStringError(
          "runtime argument '%s' is not bound",
          bundle::getKernelName(b.runtimeArgs[i]).c_str());
  placedEnd.assign(b.machine.memories.size(), 0);
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    auto size = getByteSize(t);
    if (!size)
      return size.takeError();
    if (b.tensors[t].tile) {
      if (llvm::Error e = placeInScratchpad(t, *size))
        return e;
      continue;
    }
    uint32_t mem = b.tensors[t].memory;
    const machine::MachineMemory &m = b.machine.memories[mem];
    uint64_t addr = placedEnd[mem];
    if (addr > m.size || *size > m.size - addr)
      return llvm::createStringError(
          "tensor '%s' (%llu bytes) does not fit in %s (%llu bytes)",
          bundle::getKernelName(b.tensors[t]).c_str(),
          (unsigned long long)*size, m.name.c_str(),
          (unsigned long long)m.size);
    addresses[t] = addr;
    placedEnd[mem] = (addr + *size + kTensorAlignment - 1) / kTensorAlignment *
                     kTensorAlignment;
  }
  auto exe =
      linkBundle(b, [&](bundle::SymbolKind kind, uint32_t symbol) -> int64_t {
        if (kind == bundle::SymbolKind::TensorAddress)
          return static_cast<int64_t>(addresses[symbol]);
        if (kind == bundle::SymbolKind::RuntimeArg)
          return *argValues[symbol];
        // An integer argument a splat reads as a float: the double the
        // splat rounds once to its element type.
        double value = static_cast<double>(*argValues[symbol]);
        int64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        return bits;
      });
  if (!exe)
    return exe.takeError();
  executable = std::move(*exe);
  linked = true;
  return llvm::Error::success();
}

llvm::Error Launch::placeInScratchpad(uint32_t t, uint64_t size) {
  const bundle::Bundle &b = program.getBundle();
  const bundle::TensorArg &tensor = b.tensors[t];
  const machine::MachineMemory &m = b.machine.memories[tensor.memory];
  std::string name = tensorName(t);
  uint64_t addr;
  if (m.core < 0 || static_cast<uint64_t>(m.core) != *tensor.tile)
    return llvm::createStringError(
        "corrupt bundle: tensor '%s' is in %s, not in the scratchpad of core "
        "%llu",
        name.c_str(), m.name.c_str(), (unsigned long long)*tensor.tile);
  if (__builtin_mul_overflow(
          *tensor.address, uint64_t(machine::elemBytes(tensor.elem)), &addr) ||
      addr > m.size || size > m.size - addr)
    return llvm::createStringError(
        "tensor '%s' (%llu bytes at its literal address) does not fit in %s "
        "(%llu bytes)",
        name.c_str(), (unsigned long long)size, m.name.c_str(),
        (unsigned long long)m.size);
  // The kernel's buffers live beside its scratchpad views: only the region
  // of those views (`local_*`, which holds them) may contain the tensor.
  for (const bundle::Buffer &buffer : b.buffers)
    if (buffer.memory == tensor.memory && buffer.offset < addr + size &&
        addr < buffer.offset + buffer.size &&
        !llvm::StringRef(buffer.name).starts_with("local_"))
      return llvm::createStringError(
          "tensor '%s' (bytes [%llu, %llu) of %s) overlaps buffer '%s' "
          "(bytes [%llu, %llu))",
          name.c_str(), (unsigned long long)addr,
          (unsigned long long)(addr + size), m.name.c_str(),
          buffer.name.c_str(), (unsigned long long)buffer.offset,
          (unsigned long long)(buffer.offset + buffer.size));
  for (uint32_t other = 0; other < t; ++other) {
    if (!b.tensors[other].tile || b.tensors[other].memory != tensor.memory)
      continue;
    auto otherSize = getByteSize(other);
    if (!otherSize)
      return otherSize.takeError();
    if (addresses[other] < addr + size && addr < addresses[other] + *otherSize)
      return llvm::createStringError("tensor '%s' overlaps tensor '%s' in %s",
                                     name.c_str(), tensorName(other).c_str(),
                                     m.name.c_str());
  }
  addresses[t] = addr;
  return llvm::Error::success();
}

llvm::Expected<sim::SimStats> Launch::run(const sim::SimOptions &options,
                                          std::vector<sim::TraceEvent> *trace) {
  if (ran)
    return llvm::createStringError("a launch runs only once");
  ran = true;
  if (llvm::Error e = link())
    return std::move(e);
  const bundle::Bundle &b = program.getBundle();
  memory = std::make_unique<sim::MemoryImage>(b.machine);
  // A device memory is addressable up to the end of the last tensor placed
  // in it: an access past every tensor is a compiler bug, not data.
  for (size_t mem = 0; mem < placedEnd.size(); ++mem)
    if (b.machine.memories[mem].core < 0)
      memory->setAddressableLimit(mem, placedEnd[mem]);
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    if (generated[t]) {
      auto size = getByteSize(t);
      if (!size)
        return size.takeError();
      memory->setInitialContents(b.tensors[t].memory, addresses[t], *size,
                                 generated[t]);
      continue;
    }
    if (initial[t].empty())
      continue;
    if (memory->write(b.tensors[t].memory, addresses[t], initial[t].size(),
                      initial[t].data()) != sim::MemoryImage::Access::Ok)
      return llvm::createStringError("cannot place tensor '%s'",
                                     tensorName(t).c_str());
  }
  return sim::simulate(b.machine, executable, *memory, options, trace);
}

llvm::Expected<std::vector<uint8_t>> Launch::readTensor(uint32_t tensor) const {
  if (!memory)
    return llvm::createStringError("the launch has not run");
  auto size = getByteSize(tensor);
  if (!size)
    return size.takeError();
  std::vector<uint8_t> bytes(*size);
  if (memory->read(program.getBundle().tensors[tensor].memory,
                   addresses[tensor], *size,
                   bytes.data()) != sim::MemoryImage::Access::Ok)
    return llvm::createStringError("tensor '%s' is not readable",
                                   tensorName(tensor).c_str());
  return bytes;
}
