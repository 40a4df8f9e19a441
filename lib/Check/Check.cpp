//===- Check.cpp - Inputs and checks of a simulated run -------------------===//
//
// This file implements the input generators and the tolerance check of
// `ktflow run` (the reorder bounds are ReorderBounds.cpp's).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/Check.h"

#include "ktflow/HostTensor/ElementType.h"
#include "ktflow/HostTensor/GeneratedInputs.h"
#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Machine/Values.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;

std::optional<host::DType> ktflow::check::toInterpDType(machine::ElemType t) {
  using D = host::DType;
  switch (t) {
  case machine::ElemType::i1:
    return D::I1;
  case machine::ElemType::i8:
    return D::I8;
  case machine::ElemType::i16:
    return D::I16;
  case machine::ElemType::i32:
    return D::I32;
  case machine::ElemType::i64:
    return D::I64;
  case machine::ElemType::f16:
    return D::F16;
  case machine::ElemType::bf16:
    return D::BF16;
  case machine::ElemType::f32:
    return D::F32;
  case machine::ElemType::f64:
    return D::F64;
  }
  return std::nullopt;
}

Error ktflow::check::checkHostTensorSize(ArrayRef<int64_t> shape) {
  // Refuse a tensor that cannot fit half the machine's memory rather than
  // fail to allocate it (a view whose stride became 2^32 declared 2^38
  // elements; found by the mutation campaign, issue 17).
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  int64_t maxElements = pages > 0 && pageSize > 0
                            ? int64_t(pages) * pageSize / 2 / 8
                            : int64_t(1) << 30;
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d > 0 && elements > maxElements / d)
      return createStringError(
          "a tensor of shape %s has more elements than half the machine's "
          "memory holds (%lld, 8 bytes each)",
          llvm::join(llvm::map_range(
                         shape, [](int64_t n) { return std::to_string(n); }),
                     "x")
              .c_str(),
          (long long)maxElements);
    elements *= std::max<int64_t>(d, 0);
  }
  return Error::success();
}

host::InputIdentity
ktflow::check::inputIdentity(const bundle::TensorArg &tensor) {
  if (tensor.argument != bundle::kNoArg)
    return host::InputIdentity::argument(tensor.argument);
  // A literal-address tensor (of device memory or of a tile's scratchpad)
  // has its element address; one of neither is the tensor of its name.
  return host::InputIdentity::address(
      static_cast<int64_t>(tensor.address.value_or(0)));
}

Expected<host::Tensor> ktflow::check::makeTensor(StringRef text,
                                                 machine::ElemType elem,
                                                 ArrayRef<int64_t> shape,
                                                 uint64_t seed,
                                                 host::InputIdentity who) {
  // The interpreter's parser, so every command takes the same specs.
  Expected<host::InputSpec> spec = host::InputSpec::parse(text);
  if (!spec)
    return spec.takeError();
  return makeTensor(*spec, text, elem, shape, seed, who);
}

Expected<host::Tensor>
ktflow::check::makeTensor(const host::InputSpec &spec, StringRef text,
                          machine::ElemType elem, ArrayRef<int64_t> shape,
                          uint64_t seed, host::InputIdentity who) {
  std::optional<host::DType> dtype = toInterpDType(elem);
  if (!dtype)
    return createStringError("unsupported element type");
  if (Error e = checkHostTensorSize(shape))
    return std::move(e);
  using Kind = host::InputSpec::Kind;
  switch (spec.kind) {
  case Kind::Default:
  case Kind::Zeros:
  case Kind::Uniform:
  case Kind::Normal:
  case Kind::Value:
  case Kind::Range:
  case Kind::Sequence:
    // The generator every command shares: the interpreter draws the same
    // values for this tensor and seed.
    return host::generateTensor(spec, host::inputStream(seed, who), *dtype,
                                shape);
  case Kind::Data:
    break;
  }
  const host::Tensor *file = &spec.data->tensor();
  if (ArrayRef<int64_t>(file->shape) != shape)
    return createStringError("%s holds shape %s, the tensor is %s",
                             text.str().c_str(),
                             host::formatShape(file->shape).c_str(),
                             host::formatShape(shape).c_str());
  // No .npy dtype holds bf16 or df16: a float32 file feeds such a view,
  // rounded once, as the interpreter takes it (docs/interpreter.md §1).
  if (file->dtype == host::DType::F32 &&
      (*dtype == host::DType::BF16 || *dtype == host::DType::DF16)) {
    host::Tensor t = host::Tensor::zeros(*dtype, shape);
    t.floats = file->floats;
    host::roundArray(*dtype, t.floats.data(), t.floats.size());
    return t;
  }
  if (file->dtype != *dtype)
    return createStringError("%s holds %s elements, the tensor has %s",
                             text.str().c_str(),
                             host::npyDescr(file->dtype).str().c_str(),
                             machine::elemTypeName(elem).str().c_str());
  return *file;
}

std::vector<uint8_t> ktflow::check::toBytes(const host::Tensor &tensor,
                                            machine::ElemType elem) {
  unsigned width = machine::elemBytes(elem);
  std::vector<uint8_t> bytes(tensor.numElements() * width);
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (machine::isFloat(elem)) {
      machine::storeElement(elem, tensor.getDouble(i),
                            bytes.data() + i * width);
    } else {
      int64_t v = tensor.getInt(i);
      std::memcpy(bytes.data() + i * width, &v, width);
    }
  }
  return bytes;
}

/// Element `i` of integer type `elem` in `bytes`, exactly.
static int64_t loadInt(ArrayRef<uint8_t> bytes, machine::ElemType elem,
                       int64_t i) {
  unsigned width = machine::elemBytes(elem);
  uint64_t raw = 0;
  std::memcpy(&raw, bytes.data() + i * width, width);
  return host::wrapInt(static_cast<int64_t>(raw), *toInterpDType(elem));
}

host::Tensor ktflow::check::fromBytes(ArrayRef<uint8_t> bytes,
                                      machine::ElemType elem,
                                      ArrayRef<int64_t> shape) {
  host::Tensor t = host::Tensor::zeros(*toInterpDType(elem), shape);
  unsigned width = machine::elemBytes(elem);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    if (machine::isFloat(elem))
      t.setDouble(i, machine::loadElement(elem, bytes.data() + i * width));
    else
      t.ints[i] = loadInt(bytes, elem, i);
  }
  return t;
}

CheckResult ktflow::check::compareOutput(const host::Tensor &expected,
                                         ArrayRef<uint8_t> bytes,
                                         machine::ElemType elem,
                                         ArrayRef<int64_t> shape,
                                         ArrayRef<double> bound) {
  CheckResult result;
  if (ArrayRef<int64_t>(expected.shape) != shape) {
    result.summary =
        formatv("shape {0} differs from the reference's {1}",
                host::formatShape(shape), host::formatShape(expected.shape));
    return result;
  }
  unsigned width = machine::elemBytes(elem);
  // Integers compare as integers: a double holds only 53 of an i64's bits.
  bool isInt = !machine::isFloat(elem);
  int64_t bad = 0, n = expected.numElements(), first = -1;
  double maxError = 0, firstTolerance = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool ok;
    double tolerance = 0;
    if (isInt) {
      int64_t got = loadInt(bytes, elem, i), want = expected.getInt(i);
      ok = got == want;
      uint64_t distance =
          got > want ? static_cast<uint64_t>(got) - static_cast<uint64_t>(want)
                     : static_cast<uint64_t>(want) - static_cast<uint64_t>(got);
      maxError = std::max(maxError, static_cast<double>(distance));
    } else {
      double got = machine::loadElement(elem, bytes.data() + i * width);
      double want = expected.getDouble(i);
      tolerance = (i < static_cast<int64_t>(bound.size()) ? bound[i] : 0) +
                  host::unitInLastPlace(want, *toInterpDType(elem));
      if (std::isnan(want) || std::isnan(got))
        ok = std::isnan(want) && std::isnan(got);
      else if (std::isinf(want) || std::isinf(got))
        ok = got == want;
      else {
        double error = std::fabs(got - want);
        maxError = std::max(maxError, error);
        ok = error <= tolerance;
      }
    }
    if (!ok && bad++ == 0) {
      first = i;
      firstTolerance = tolerance;
    }
  }
  result.pass = bad == 0;
  result.summary =
      formatv("{0} {1}, max abs error {2:e3}", host::formatShape(shape),
              machine::elemTypeName(elem), maxError);
  if (bad) {
    std::string got, want;
    if (isInt) {
      got = std::to_string(loadInt(bytes, elem, first));
      want = std::to_string(expected.getInt(first));
    } else {
      got = formatv("{0}",
                    machine::loadElement(elem, bytes.data() + first * width));
      want = formatv("{0}", expected.getDouble(first));
    }
    result.summary += formatv(", {0} of {1} elements out of tolerance "
                              "(first at {2}: {3} vs {4}, tolerance {5:e3})",
                              bad, n, first, got, want, firstTolerance);
  }
  return result;
}
