//===- LaunchBinding.cpp - Bind and read a launch by tensor names ---------===//
//
// This file implements the bindings of `ktflow sim`: runtime arguments and
// input tensors from command-line assignments, and the tensors of a finished
// launch written as `.npy` files or printed, and its timeline.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/LaunchBinding.h"

#include "ktflow/Check/Check.h"
#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/HostTensor/GeneratedInputs.h"
#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Machine/Values.h"
#include "ktflow/Support/OutputFile.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;
using namespace ktflow;

Error check::bindRuntimeArgs(rt::Launch &launch,
                             ArrayRef<std::string> assignments) {
  for (StringRef spec : assignments) {
    auto [name, value] = spec.split('=');
    if (!spec.contains('='))
      return createStringError("--arg expects NAME=INTEGER, got '" + spec +
                               "'");
    if (Error e = launch.bindRuntimeArg(name, value))
      return e;
  }
  return Error::success();
}

Expected<uint32_t> check::findTensor(const rt::Program &program, StringRef name,
                                     StringRef flag) {
  if (std::optional<uint32_t> t = program.findTensor(name))
    return *t;
  std::string prefix = flag.empty() ? "" : ("--" + flag + ": ").str();
  std::string known;
  for (const bundle::TensorArg &tensor : program.getBundle().tensors)
    known += (known.empty() ? "" : ", ") + bundle::getKernelName(tensor);
  return createStringError(prefix + "the kernel has no tensor '" + name +
                           "' (its tensors: " + known + ")");
}

/// Gives tensor `t` a large generated input as contents the simulator makes
/// page by page when the kernel first touches them (a 655 M-element KV pool
/// a kernel gathers a few pages of costs those pages, not gigabytes of host
/// tensor); the bits are those makeTensor would give. False when `t` is
/// small or its spec is data or the default, which makeTensor binds.
static Expected<bool> bindLazily(rt::Launch &launch, uint32_t t, StringRef what,
                                 machine::ElemType elem,
                                 ArrayRef<int64_t> shape, uint64_t seed,
                                 host::InputIdentity who) {
  if (!check::DifferentialRun::generatesLazily(shape))
    return false;
  Expected<host::InputSpec> spec = host::InputSpec::parse(what);
  if (!spec)
    return spec.takeError();
  using Kind = host::InputSpec::Kind;
  std::optional<host::DType> dtype = check::toInterpDType(elem);
  if (spec->kind == Kind::Data || spec->kind == Kind::Default || !dtype)
    return false;
  unsigned width = machine::elemBytes(elem);
  launch.setTensorContents(
      t,
      [spec = std::move(*spec), stream = host::inputStream(seed, who),
       dtype = *dtype, width](uint64_t offset, uint64_t count, uint8_t *out) {
        host::initialBytes(spec, stream, static_cast<int64_t>(offset / width),
                           static_cast<int64_t>(count / width), dtype, out);
      });
  return true;
}

Error check::bindTensors(const rt::Program &program, rt::Launch &launch,
                         ArrayRef<std::string> assignments, uint64_t seed) {
  const bundle::Bundle &b = program.getBundle();
  std::vector<bool> given(b.tensors.size(), false);
  for (StringRef spec : assignments) {
    auto [name, what] = spec.split('=');
    auto t = findTensor(program, name, "");
    if (!t)
      return t.takeError();
    if (what.empty())
      return createStringError("--input expects NAME=SPEC, got '" + spec + "'");
    auto shape = launch.getShape(*t);
    if (!shape)
      return shape.takeError();
    machine::ElemType elem = b.tensors[*t].elem;
    // Each tensor from its own stream, that of its kernel argument (or
    // literal address): the values `ktflow interp --seed` draws for it.
    host::InputIdentity who = inputIdentity(b.tensors[*t]);
    Expected<bool> lazy = bindLazily(launch, *t, what, elem, *shape, seed, who);
    if (!lazy)
      return createStringError("input '" + name +
                               "': " + toString(lazy.takeError()));
    given[*t] = true;
    if (*lazy)
      continue;
    auto tensor = makeTensor(what, elem, *shape, seed, who);
    if (!tensor)
      return createStringError("input '" + name +
                               "': " + toString(tensor.takeError()));
    if (Error e = launch.setTensor(*t, toBytes(*tensor, elem)))
      return e;
  }
  for (size_t t = 0; t < b.tensors.size(); ++t)
    if (!given[t] && b.tensors[t].role != bundle::TensorRole::Output) {
      std::string name = bundle::getKernelName(b.tensors[t]);
      return createStringError("input tensor '" + name + "' needs --input " +
                               name + "=FILE.npy|random|zeros");
    }
  return Error::success();
}

Error check::writeTensor(const rt::Program &program, const rt::Launch &launch,
                         uint32_t tensor, StringRef path) {
  auto bytes = launch.readTensor(tensor);
  if (!bytes)
    return bytes.takeError();
  auto shape = launch.getShape(tensor);
  if (!shape)
    return shape.takeError();
  return host::writeNpyFile(
      path,
      fromBytes(*bytes, program.getBundle().tensors[tensor].elem, *shape));
}

Error check::printTensor(raw_ostream &os, const rt::Program &program,
                         const rt::Launch &launch, uint32_t tensor) {
  auto bytes = launch.readTensor(tensor);
  if (!bytes)
    return bytes.takeError();
  const bundle::TensorArg &arg = program.getBundle().tensors[tensor];
  machine::ElemType elem = arg.elem;
  unsigned width = machine::elemBytes(elem);
  os << bundle::getKernelName(arg) << " =";
  for (size_t i = 0; i < bytes->size() / width; ++i) {
    if (i % 16 == 0)
      os << "\n ";
    os << " " << machine::loadElement(elem, bytes->data() + i * width);
  }
  os << "\n";
  return Error::success();
}

void check::printLaunch(raw_ostream &os, const rt::Program &program,
                        const rt::Launch &launch, const sim::SimStats &stats,
                        StringRef note) {
  const bundle::Bundle &b = program.getBundle();
  os << "kernel " << b.kernel << " on " << b.device << note << "\n";
  sim::printStats(os, b.machine, launch.getExecutable(), stats);
}

Error check::writeTrace(StringRef path, const rt::Program &program,
                        const rt::Launch &launch, const sim::SimStats &stats,
                        ArrayRef<sim::TraceEvent> trace) {
  return writeOutputFile(
      path,
      [&](raw_ostream &os) {
        sim::writeChromeTrace(os, program.getBundle().machine,
                              launch.getExecutable(), stats, trace);
      },
      sys::fs::OF_Text);
}
