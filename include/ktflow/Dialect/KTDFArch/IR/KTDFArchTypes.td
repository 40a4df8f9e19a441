//===- KTDFArchTypes.td - ktdf_arch node handle types ------*- tablegen -*-===//
//
// This file defines the two node-handle types of an architecture
// description, `!ktdf_arch.memory` and `!ktdf_arch.exec_unit`. Inside a
// device they are written as the bare keywords `memory` and `exec_unit`.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHTYPES_TD
#define KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHTYPES_TD

include "ktflow/Dialect/KTDFArch/IR/KTDFArchDialect.td"
include "mlir/IR/AttrTypeBase.td"

class KTDFArch_Type<string name, string typeMnemonic>
    : TypeDef<KTDFArch_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def KTDFArch_MemoryType : KTDFArch_Type<"Memory", "memory"> {
  let summary = "handle on a memory node";
}

def KTDFArch_ExecUnitType : KTDFArch_Type<"ExecUnit", "exec_unit"> {
  let summary = "handle on an execution-unit node";
}

def KTDFArch_NodeType : AnyTypeOf<[KTDFArch_MemoryType, KTDFArch_ExecUnitType],
                                  "memory or exec_unit node">;

#endif // KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCHTYPES_TD
