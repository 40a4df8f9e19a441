//===- HostTypes.h - The host types the interpreter computes on -*- C++ -*-===//
//
// This file names in ktflow::interp the host-tensor types the interpreter
// computes on (ktflow/HostTensor: element types, their rounding, dense
// tensors, input specs), which every interpreter file uses unqualified, and
// brings in the interpreter's map from MLIR scalar types to element types.
// Functions over DType and Tensor need no declaration here: argument-
// dependent lookup finds them in ktflow::host.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_HOSTTYPES_H
#define KTFLOW_LIB_INTERPRETER_HOSTTYPES_H

#include "ktflow/HostTensor/ElementType.h"
#include "ktflow/HostTensor/InputSpec.h"
#include "ktflow/HostTensor/Tensor.h"
#include "ktflow/Interpreter/ElementTypes.h"

namespace ktflow::interp {

using host::DType;
using host::InputSpec;
using host::Tensor;

using host::formatShape;
using host::productOf;
using host::rowMajorStrides;

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_HOSTTYPES_H
