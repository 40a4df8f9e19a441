//===- ExpectedOutputs.cpp - Compare a run with the user's own files ------===//
//
// This file implements `ktflow run --expected NAME=FILE.npy`: the simulated
// tensor compared with an answer the user computed elsewhere (PyTorch,
// numpy), within a relative and an absolute tolerance whose defaults are
// torch.testing.assert_close's, so a kernel written next to a PyTorch model
// is checked the way its authors check the model.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Driver/KernelRun.h"

#include "ktflow/Check/LaunchBinding.h"
#include "ktflow/HostTensor/Npy.h"

#include <cmath>

using namespace llvm;
using namespace ktflow;

std::pair<double, double> ktflow::getDefaultTolerance(machine::ElemType elem) {
  switch (elem) {
  case machine::ElemType::f16:
    return {1e-3, 1e-5};
  case machine::ElemType::bf16:
    return {1.6e-2, 1e-5};
  case machine::ElemType::f32:
    return {1.3e-6, 1e-5};
  case machine::ElemType::f64:
    return {1e-7, 1e-7};
  default:
    return {0, 0};
  }
}

/// Compares tensor `name` with the `.npy` file at `path`.
static Expected<check::OutputCheck> compareWithFile(check::DifferentialRun &run,
                                                    StringRef name,
                                                    StringRef path, double rtol,
                                                    double atol) {
  const rt::Program &program = run.getProgram();
  Expected<uint32_t> tensor = check::findTensor(program, name, "expected");
  if (!tensor)
    return tensor.takeError();
  Expected<host::Tensor> want = host::readNpyFile(path);
  if (!want)
    return want.takeError();
  auto bytes = run.getLaunch().readTensor(*tensor);
  if (!bytes)
    return bytes.takeError();
  auto shape = run.getLaunch().getShape(*tensor);
  if (!shape)
    return shape.takeError();
  machine::ElemType elem = program.getBundle().tensors[*tensor].elem;
  auto [defaultRtol, defaultAtol] = getDefaultTolerance(elem);
  rtol = rtol < 0 ? defaultRtol : rtol;
  atol = atol < 0 ? defaultAtol : atol;
  std::vector<double> bound(want->numElements());
  if (ArrayRef<int64_t>(want->shape) == ArrayRef<int64_t>(*shape))
    for (size_t i = 0; i < bound.size(); ++i)
      bound[i] = atol + rtol * std::fabs(want->getDouble(i));
  check::OutputCheck result;
  result.tensor = *tensor;
  result.label = (bundle::getKernelName(program.getBundle().tensors[*tensor]) +
                  " (" + path + ")")
                     .str();
  result.result = check::compareOutput(*want, *bytes, elem, *shape, bound);
  return result;
}

Error KernelRun::compareExpected(ArrayRef<std::string> files, double rtol,
                                 double atol) {
  std::vector<check::OutputCheck> results;
  for (StringRef spec : files) {
    auto [name, path] = spec.split('=');
    if (name.empty() || path.empty())
      return createStringError("--expected expects NAME=FILE.npy, got '" +
                               spec + "'");
    Expected<check::OutputCheck> result =
        compareWithFile(*run, name, path, rtol, atol);
    if (!result)
      return result.takeError();
    results.push_back(std::move(*result));
  }
  expected = std::move(results);
  return Error::success();
}
