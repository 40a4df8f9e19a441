//===- Module.cpp - The `ktflow._ktflow` Python extension -----------------===//
//
// This file binds what the `ktflow` command's subcommands do (the libraries
// under lib/, never the command itself) as the functions the pure-Python
// package `ktflow` (python/ktflow/__init__.py) wraps: check, interp,
// compile, inspect, run and the device summary. Reports cross as the JSON
// text the command's `--json` prints (ktflow/Driver/Reports.h), so both
// share one schema; tensors cross as numpy arrays in their native bits.
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/DeviceSummary.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Driver/CheckKernels.h"
#include "ktflow/Driver/KernelRun.h"
#include "ktflow/Driver/Reports.h"
#include "ktflow/HostTensor/NativeTensor.h"
#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Interpreter/Bindings.h"
#include "ktflow/Support/ExitStatus.h"
#include "ktflow/Support/Version.h"

#include "llvm/Support/FormatVariadic.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace ktflow;
using namespace ktflow::python;

namespace {

/// A tensor input from Python: a spec's text, or an array's elements.
struct TensorInput {
  std::string name;
  std::optional<host::NativeTensor> data;
  std::string spec;
};

/// The element type of a numpy array's dtype, or an error naming `name`.
host::DType toDType(const py::dtype &dtype, const std::string &name) {
  char kind = dtype.kind();
  ssize_t size = dtype.itemsize();
  if (dtype.byteorder() == '>')
    throw py::value_error("input '" + name +
                          "': big-endian arrays are not supported");
  if (kind == 'b' && size == 1)
    return host::DType::I1;
  if (kind == 'i' && size == 1)
    return host::DType::I8;
  if (kind == 'i' && size == 2)
    return host::DType::I16;
  if (kind == 'i' && size == 4)
    return host::DType::I32;
  if (kind == 'i' && size == 8)
    return host::DType::I64;
  if (kind == 'f' && size == 2)
    return host::DType::F16;
  if (kind == 'f' && size == 4)
    return host::DType::F32;
  if (kind == 'f' && size == 8)
    return host::DType::F64;
  throw py::value_error("input '" + name + "': arrays of dtype " +
                        py::str(dtype).cast<std::string>() +
                        " are not supported (bool, int8, int16, int32, int64, "
                        "float16, float32 or float64)");
}

/// The inputs Python gave: (name, array or spec string) pairs. Arrays are
/// copied, C-contiguous, in their own element type (the tensor's must
/// match, as for a .npy file).
std::vector<TensorInput> toInputs(const py::list &items) {
  std::vector<TensorInput> inputs;
  for (py::handle item : items) {
    auto pair = item.cast<py::tuple>();
    TensorInput input;
    input.name = pair[0].cast<std::string>();
    if (py::isinstance<py::str>(pair[1])) {
      input.spec = pair[1].cast<std::string>();
    } else {
      auto array = py::array::ensure(pair[1], py::array::c_style);
      if (!array)
        throw py::type_error("input '" + input.name +
                             "': expected an array or a spec string");
      host::DType dtype = toDType(array.dtype(), input.name);
      std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
      host::NativeTensor native(dtype, shape, /*zeroed=*/false);
      std::memcpy(native.data(), array.data(), native.numBytes());
      input.data = std::move(native);
      input.spec = "the array";
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

/// `tensor` as a numpy array of the type a .npy file holds it in (bf16 and
/// df16 as float32, index as int64: exact).
py::array toArray(host::Tensor tensor) {
  tensor.dtype = host::npyStorageType(tensor.dtype);
  host::NativeTensor native = host::NativeTensor::fromTensor(tensor);
  std::vector<ssize_t> shape(tensor.shape.begin(), tensor.shape.end());
  return py::array(py::dtype(host::npyDescr(tensor.dtype).str()), shape,
                   native.data());
}

py::dict toDict(std::vector<std::pair<std::string, host::Tensor>> tensors) {
  py::dict arrays;
  for (auto &[name, tensor] : tensors)
    arrays[py::str(name)] = toArray(std::move(tensor));
  return arrays;
}

std::string toText(llvm::json::Object report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeReport(os, std::move(report));
  return text;
}

interp::NumericsPolicy toNumerics(const std::string &numerics) {
  if (numerics == "accumulate")
    return interp::NumericsPolicy::Accumulate;
  if (numerics == "strict")
    return interp::NumericsPolicy::Strict;
  throw py::value_error("numerics must be 'accumulate' or 'strict', not '" +
                        numerics + "'");
}

std::string checkKernel(const Source &source) {
  std::string report;
  runOffThread([&] {
    Session session;
    auto module = session.load(source);
    auto kernels = checkKernels(*module, source.name);
    if (!kernels)
      session.fail(kernels.takeError());
    report = toText(checkReport(source.name, *kernels));
  });
  return report;
}

py::dict interpret(const Source &source, const std::string &function,
                   const std::vector<std::string> &args, const py::list &items,
                   uint64_t seed, const std::string &numerics,
                   uint64_t maxElementOps, double maxSeconds) {
  std::vector<TensorInput> inputs = toInputs(items);
  interp::InterpreterOptions options;
  options.seed = seed;
  options.numerics = toNumerics(numerics);
  options.maxElementOps = maxElementOps;
  options.maxSeconds = maxSeconds;
  std::vector<std::pair<std::string, host::Tensor>> outputs;
  runOffThread([&] {
    Session session;
    auto module = session.load(source);
    interp::Interpreter interpreter(*module, options);
    if (llvm::Error e = interpreter.selectFunction(function))
      session.fail(std::move(e));
    std::vector<std::string> specs;
    for (const TensorInput &input : inputs)
      if (!input.data)
        specs.push_back(input.name + "=" + input.spec);
    if (llvm::Error e = interp::bindArguments(interpreter, args, specs))
      session.fail(std::move(e));
    for (TensorInput &input : inputs)
      if (input.data)
        if (llvm::Error e = interpreter.setInput(
                input.name, host::InputSpec::fromNative(std::move(*input.data))))
          session.fail(llvm::createStringError("input '" + input.name +
                                               "': " + toString(std::move(e))));
    if (mlir::failed(interpreter.run()))
      session.fail(reportedError());
    for (interp::OutputTensor &output : interpreter.getOutputs())
      outputs.push_back({output.name, std::move(output.tensor)});
  });
  return toDict(std::move(outputs));
}

py::bytes compileKernel(const Source &source, const std::string &device,
                        const std::string &function, bool optimize) {
  std::vector<uint8_t> bytes;
  runOffThread([&] {
    Session session;
    auto module = session.load(source);
    if (!device.empty() &&
        mlir::failed(setTarget(*module, device, session.getLoader())))
      session.fail(reportedError());
    CompileOptions options;
    options.optimize = optimize;
    options.function = function;
    auto compiled = compileToBundle(*module, options, source.name);
    if (mlir::failed(compiled))
      session.fail(reportedError());
    bytes = bundle::writeBundle(compiled->bundle);
  });
  return py::bytes(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

/// The bundle's JSON metadata and its printed form.
std::pair<std::string, std::string> inspectBundle(const std::string &bytes) {
  auto decoded = bundle::readBundle(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  if (!decoded)
    throw Failure{"ktflow: error: " + toString(decoded.takeError()), {}, 1};
  std::string text;
  llvm::raw_string_ostream os(text);
  bundle::printBundle(os, *decoded);
  return {toText(inspectReport("", *decoded)), text};
}

std::pair<std::string, py::dict>
runKernel(const Source &source, const std::string &device,
          const std::string &function, bool optimize,
          const std::vector<std::string> &args, const py::list &items,
          uint64_t seed, bool check,
          const std::vector<std::string> &expected, double rtol, double atol,
          const std::string &trace,
          const std::string &numerics, uint64_t maxInstructions,
          uint64_t maxElementOps, double maxSeconds) {
  KernelRunOptions options;
  options.devicePath = device;
  options.compile.function = function;
  options.compile.optimize = optimize;
  options.arguments = args;
  for (TensorInput &input : toInputs(items)) {
    if (!input.data) {
      options.inputs.push_back(input.name + "=" + input.spec);
      continue;
    }
    options.inputData.push_back(
        {input.name, input.spec,
         host::InputSpec::fromNative(std::move(*input.data))});
  }
  options.seed = seed;
  options.interpreter.numerics = toNumerics(numerics);
  options.interpreter.maxElementOps = maxElementOps;
  options.interpreter.maxSeconds = maxSeconds;
  options.simulator.maxInstructions = maxInstructions;
  options.simulator.maxSeconds = maxSeconds;
  options.simulator.recordTrace = !trace.empty();
  // As `ktflow run --check`: a checked run also checks for races.
  options.simulator.checkRaces = check;
  options.subject = source.name;
  std::string report;
  std::vector<std::pair<std::string, host::Tensor>> outputs;
  runOffThread([&] {
    Session session;
    auto module = session.load(source);
    auto run = KernelRun::simulate(*module, session.getLoader(), options);
    if (!run)
      session.fail(run.takeError());
    if (!trace.empty())
      if (llvm::Error e = run->run->writeTrace(trace, run->stats))
        session.fail(std::move(e));
    if (check)
      if (llvm::Error e = run->check())
        session.fail(std::move(e));
    if (!expected.empty())
      if (llvm::Error e = run->compareExpected(expected, rtol, atol))
        session.fail(std::move(e));
    auto read = run->readOutputs();
    if (!read)
      session.fail(read.takeError());
    outputs = std::move(*read);
    report = toText(runReport(*run));
  });
  return {report, toDict(std::move(outputs))};
}

/// The device's summary as `ktflow arch-info` prints it: JSON and text.
std::pair<std::string, std::string> summarizeDevice(const Source &source,
                                                    const std::string &name) {
  std::string json, text;
  runOffThread([&] {
    Session session;
    auto module = session.load(source);
    auto target = device::resolveDeviceOrTarget(*module, name);
    if (mlir::failed(target))
      session.fail(reportedError());
    auto model = device::DeviceModel::build(target->device);
    if (mlir::failed(model))
      session.fail(reportedError());
    device::DeviceSummary summary(*model);
    llvm::raw_string_ostream jsonStream(json), textStream(text);
    device::printDeviceSummaryJson(summary, jsonStream);
    device::printDeviceSummary(summary, textStream);
  });
  return {json, text};
}

py::object toPython(const LocatedDiagnostic &d) {
  py::list notes;
  for (const LocatedDiagnostic &note : d.notes)
    notes.append(toPython(note));
  return py::module_::import("ktflow._errors")
      .attr("Diagnostic")(d.severity, d.file.empty() ? py::object(py::none())
                                                     : py::str(d.file),
                          d.line, d.column, d.message, py::tuple(notes));
}

} // namespace

PYBIND11_MODULE(_ktflow, m) {
  m.doc() = "Native bindings of the ktflow package (use `import ktflow`).";
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown)
        std::rethrow_exception(thrown);
    } catch (const Failure &failure) {
      py::list diagnostics;
      for (const LocatedDiagnostic &d : failure.diagnostics)
        diagnostics.append(toPython(d));
      py::object error =
          py::module_::import("ktflow._errors").attr("Error");
      py::object instance =
          error(failure.message, py::tuple(diagnostics), failure.status);
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
  py::class_<Source>(m, "Source")
      .def(py::init([](bool isText, std::string value, std::string name) {
        return Source{isText, std::move(value), std::move(name)};
      }));
  m.attr("REPORT_SCHEMA_VERSION") = kReportSchemaVersion;
  m.def("version", &getVersion);
  m.def("git_hash", &getGitHash);
  m.def("check", &checkKernel);
  m.def("interp", &interpret);
  m.def("compile", &compileKernel);
  m.def("inspect", [](py::bytes bytes) { return inspectBundle(bytes); });
  m.def("run", &runKernel);
  m.def("device_summary", &summarizeDevice);
}
