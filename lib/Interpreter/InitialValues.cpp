//===- InitialValues.cpp - A tensor's values before any store -------------===//
//
// This file implements the Interpreter API the compiled tier starts from:
// the values a run would give an argument's region or a literal-address
// region before the kernel's first store (its .npy data, zeros, or the
// generated stream of the interpreter's seeded regions), as one native
// tensor, or as a generator of any element range.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ktflow::interp;

namespace ktflow::interp {

/// The most bytes of generated values a tensor reserves address space for
/// (twice: GeneratedPages.h), an eighth of x86-64's user address space.
constexpr int64_t kMaxGeneratedBytes = int64_t(1) << 44;

/// Grows `region` by the footprints of views built on it.
static llvm::Error addFootprints(MemRegion &region,
                                 ArrayRef<ViewFootprint> footprints) {
  for (const ViewFootprint &footprint : footprints) {
    std::string message;
    if (!region.extent.add(footprint, message))
      return makeError(message);
  }
  return llvm::Error::success();
}

/// `spec`, whose .npy data a float32 file may hold for bf16 or df16 views,
/// as data of the views' element type: rounded once, as the interpreter's
/// regions read such a file (docs/interpreter.md §1).
static InputSpec asDataOfViews(InputSpec spec, DType dtype) {
  if (spec.kind != InputSpec::Kind::Data || spec.data->dtype() != DType::F32 ||
      (dtype != DType::BF16 && dtype != DType::DF16))
    return spec;
  host::Tensor rounded = spec.data->tensor();
  rounded.dtype = dtype;
  host::roundArray(dtype, rounded.floats.data(), rounded.floats.size());
  return InputSpec::fromTensor(std::move(rounded));
}

/// The native copy of `region` before any store. Zeros and .npy data are
/// allocated whole, unlike the interpreter's lazily backed pages: refuse
/// them past the memory ceiling (or past the address space, where the byte
/// count would overflow) instead of failing to allocate them. Generated
/// values are generated page by page as the kernel touches them, as in the
/// interpreter, and only the pages touched count against the ceiling
/// (`pages`): a view may declare gigabytes of which a kernel reads a few
/// tiles (a paged KV pool, or a 64 x 2^32 view of the mutation campaign).
static llvm::Expected<host::NativeTensor>
initialNativeWithinLimits(const MemRegion &region, DType dtype,
                          const InterpreterOptions &options,
                          std::shared_ptr<host::PageBudget> pages) {
  int64_t ceiling = memoryCeiling(options);
  int64_t width = host::byteSize(dtype);
  bool generated = region.init.kind != InputSpec::Kind::Zeros &&
                   region.init.kind != InputSpec::Kind::Data;
  if (generated) {
    if (region.length < 0 || region.length > kMaxGeneratedBytes / width)
      return makeError(
          llvm::formatv("the views of '{0}' span {1} elements of generated "
                        "values, more than the {2} bytes of address space "
                        "the compiled tier reserves for a tensor",
                        region.name, region.length, kMaxGeneratedBytes)
              .str());
    if (!pages)
      pages = std::make_shared<host::PageBudget>(ceiling);
    llvm::Expected<host::NativeTensor> initial =
        region.initialNative(std::move(pages));
    if (!initial)
      return makeError("'" + region.name +
                       "': " + llvm::toString(initial.takeError()));
    return initial;
  }
  if (region.length < 0 || region.length > ceiling / width)
    return makeError(llvm::formatv("the views of '{0}' span {1} elements, "
                                   "more than the memory ceiling of {2} bytes",
                                   region.name, region.length, ceiling)
                         .str());
  return region.initialNative(std::move(pages));
}

} // namespace ktflow::interp

llvm::Expected<ktflow::host::NativeTensor>
Interpreter::getInitialNative(unsigned position, DType dtype, bool readOnly,
                              ArrayRef<ViewFootprint> grownBy,
                              std::shared_ptr<host::PageBudget> pages) const {
  if (position >= impl->args.size() ||
      impl->args[position].kind != ArgumentKind::Tensor)
    return makeError("argument " + std::to_string(position) +
                     " is not a tensor argument");
  InputSpec spec = asDataOfViews(getInputSpec(position), dtype);
  if (spec.kind == InputSpec::Kind::Data) {
    if (spec.data->dtype() != dtype)
      return makeError("the .npy data of '" + impl->argName(position) +
                       "' holds " + dtypeName(spec.data->dtype()) +
                       ", its views " + dtypeName(dtype));
    return readOnly ? spec.data->native().share() : spec.data->native().clone();
  }
  // The region a run would create, before any store: its initial values
  // in the reported shape.
  MemRegion region;
  region.name = impl->argName(position);
  region.argIndex = static_cast<int>(position);
  region.base = (int64_t(position) + 1) << kArgumentWindowBits;
  region.seed = impl->options.seed;
  region.storeOnly =
      impl->args[position].stored && !impl->args[position].loaded;
  region.dtype = dtype;
  region.init = std::move(spec);
  resolveDefaultSpec(region.init, region.storeOnly);
  if (failed(addDeclaredFootprints(
          impl->fn, position,
          [&](unsigned i) -> std::optional<int64_t> {
            const std::optional<Scalar> &s = impl->scalars[i];
            if (!s || isFloat(s->dtype))
              return std::nullopt;
            return signedValue(s->i, s->dtype);
          },
          region.extent)))
    return makeError("a view declares memory before '" + region.name + "'");
  if (llvm::Error error = addFootprints(region, grownBy))
    return std::move(error);
  region.length = region.extent.get().numElements;
  return initialNativeWithinLimits(region, dtype, impl->options,
                                   std::move(pages));
}

llvm::Expected<ktflow::host::NativeTensor> Interpreter::getInitialLiteralNative(
    int64_t address, DType dtype, ArrayRef<ViewFootprint> footprints,
    std::shared_ptr<host::PageBudget> pages) const {
  // The region MemorySpace::bindLiteral creates for the views.
  MemRegion region;
  region.name = "@" + std::to_string(address);
  region.base = address;
  region.seed = impl->options.seed;
  region.dtype = dtype;
  region.init = asDataOfViews(getLiteralInputSpec(address), dtype);
  if (region.init.kind == InputSpec::Kind::Default)
    region.init = InputSpec::zeros();
  if (llvm::Error error = addFootprints(region, footprints))
    return std::move(error);
  region.length = region.extent.get().numElements;
  if (const std::shared_ptr<const host::InputData> &data = region.init.data) {
    if (data->dtype() != dtype)
      return makeError("the .npy data of '" + region.name + "' holds " +
                       dtypeName(data->dtype()) + ", its views " +
                       dtypeName(dtype));
    region.shape.assign(data->shape().begin(), data->shape().end());
    region.length = std::max(region.length, data->numElements());
  }
  return initialNativeWithinLimits(region, dtype, impl->options,
                                   std::move(pages));
}

llvm::Expected<Interpreter::InitialValues>
Interpreter::getInitialValues(unsigned position, DType dtype) const {
  if (position >= impl->args.size() ||
      impl->args[position].kind != ArgumentKind::Tensor)
    return makeError("argument " + std::to_string(position) +
                     " is not a tensor argument");
  InputSpec spec = getInputSpec(position);
  if (spec.kind == InputSpec::Kind::Data)
    return makeError("the input of '" + impl->argName(position) +
                     "' is .npy data, not generated");
  // The stream of the region run() creates for the argument.
  MemRegion region;
  region.argIndex = static_cast<int>(position);
  region.seed = impl->options.seed;
  resolveDefaultSpec(spec, impl->args[position].stored &&
                               !impl->args[position].loaded);
  uint64_t key = region.stream();
  return InitialValues([spec = std::move(spec), key,
                        dtype](int64_t first, int64_t count, uint8_t *out) {
    initialBytes(spec, key, first, count, dtype, out);
  });
}

int64_t Interpreter::getMemoryCeiling() const {
  return memoryCeiling(impl->options);
}
