//===- KTDPAttrs.cpp - ktdp attributes ------------------------------------===//
//
// This file implements the two memory-space spellings and their
// normalisation to {global, ct_local(k)}.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ktdp;

#include "ktflow/Dialect/KTDP/IR/KTDPAttrInterfaces.cpp.inc"
#include "ktflow/Dialect/KTDP/IR/KTDPEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/KTDP/IR/KTDPAttrs.cpp.inc"

void KTDPDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Dialect/KTDP/IR/KTDPAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// SpyreMemorySpaceAttr
//===----------------------------------------------------------------------===//

LogicalResult
SpyreMemorySpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             SpyreMemoryType value, int64_t core) {
  if (core == -1)
    return success();
  if (core < 0)
    return emitError() << "core affinity must be non-negative, but got: "
                       << core;
  if (value != SpyreMemoryType::LX && value != SpyreMemoryType::L0)
    return emitError() << "core affinity is only valid for LX or L0 memory "
                          "spaces, but got memory space '"
                       << stringifySpyreMemoryType(value)
                       << "' with core = " << core;
  return success();
}

// `unspecified` has no visibility information; like the reference dialect's
// default, we treat it as device memory that every tile can reach.
MemoryKind SpyreMemorySpaceAttr::getMemoryKind() const {
  switch (getValue()) {
  case SpyreMemoryType::LX:
  case SpyreMemoryType::L0:
    return MemoryKind::ct_local;
  case SpyreMemoryType::HBM:
  case SpyreMemoryType::unspecified:
    return MemoryKind::global;
  }
  return MemoryKind::global;
}

std::optional<int64_t> SpyreMemorySpaceAttr::getComputeTileId() const {
  if (getCore() < 0)
    return std::nullopt;
  return getCore();
}

//===----------------------------------------------------------------------===//
// MemorySpaceAttr
//===----------------------------------------------------------------------===//

LogicalResult
MemorySpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        MemoryKind kind, int64_t ctId) {
  if (ctId == -1)
    return success();
  if (ctId < 0)
    return emitError() << "ct_id must be non-negative, but got: " << ctId;
  if (kind != MemoryKind::ct_local)
    return emitError() << "ct_id is only valid for the ct_local memory space, "
                          "but got memory space '"
                       << stringifyMemoryKind(kind) << "' with ct_id = "
                       << ctId;
  return success();
}

MemoryKind MemorySpaceAttr::getMemoryKind() const { return getKind(); }

std::optional<int64_t> MemorySpaceAttr::getComputeTileId() const {
  if (getCtId() < 0)
    return std::nullopt;
  return getCtId();
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

std::optional<NormalizedMemorySpace>
mlir::ktdp::normalizeMemorySpace(Attribute attr) {
  auto space = llvm::dyn_cast_or_null<MemorySpaceAttrInterface>(attr);
  if (!space)
    return std::nullopt;
  return NormalizedMemorySpace{space.getMemoryKind(),
                               space.getComputeTileId()};
}
