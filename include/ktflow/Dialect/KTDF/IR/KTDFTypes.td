//===- KTDFTypes.td - ktdf types and attributes ------------*- tablegen -*-===//
//
// This file defines the ScheduleIR types (`!ktdf.token`, `!ktdf.fifo.slot`)
// and the unit-role enumeration that `ktdf.stage` uses to say which kind of
// execution unit may run it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_IR_KTDFTYPES_TD
#define KTFLOW_DIALECT_KTDF_IR_KTDFTYPES_TD

include "ktflow/Dialect/KTDF/IR/KTDFDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class KTDF_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<KTDF_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def KTDF_TokenType : KTDF_Type<"Token", "token"> {
  let summary = "an ordering value between stages";
  let description = [{
    A token says that one stage must finish (for the iteration at hand)
    before another starts. Tokens are free at run time: the lowering turns
    the ones that hand a scratchpad buffer over from one unit to another into
    synchronisation messages and drops the others (a FIFO already orders its
    producer and consumer).
  }];
}

def KTDF_FifoSlotType : KTDF_Type<"FifoSlot", "fifo.slot"> {
  let summary = "a slot in a hardware FIFO between two units";
  let description = [{
    `!ktdf.fifo.slot<SRC -> DST, SHAPExT>` is one entry of the FIFO that
    carries data from SRC to DST, holding a `SHAPE` block of `T`. The
    endpoints are either a device memory kind or a unit role (`DDR`,
    `vector_compute`) before routing, or the device-model names of the two
    units the FIFO joins after routing
    (`"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU"`). An
    endpoint that is not a bare identifier is written as a string.

    ```mlir
    !ktdf.fifo.slot<DDR -> vector_compute, 3x64xf16>
    !ktdf.fifo.slot<"core/L1LU" -> "core/SFU", 64xf16>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$src, "::mlir::StringAttr":$dst,
                        ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one slot.
    int64_t getSizeInBytes() const;
  }];
}

//===----------------------------------------------------------------------===//
// Unit roles
//===----------------------------------------------------------------------===//

def KTDF_UnitRole : I32EnumAttr<"UnitRole", "kind of execution unit", [
    I32EnumAttrCase<"dma_load", 0>,
    I32EnumAttrCase<"dma_store", 1>,
    I32EnumAttrCase<"scratchpad_load", 2>,
    I32EnumAttrCase<"scratchpad_store", 3>,
    I32EnumAttrCase<"vector_compute", 4>,
    I32EnumAttrCase<"matrix_compute", 5>]> {
  let cppNamespace = "::mlir::ktdf";
  let genSpecializedAttr = 0;
}

def KTDF_UnitRoleAttr : EnumAttr<KTDF_Dialect, KTDF_UnitRole, "role"> {
  let summary = "a kind of execution unit, as the device model derives it";
  let assemblyFormat = "`<` $value `>`";
}

def KTDF_UnitRoleArrayAttr : TypedArrayAttrBase<KTDF_UnitRoleAttr,
                                                "array of unit roles">;

#endif // KTFLOW_DIALECT_KTDF_IR_KTDFTYPES_TD
