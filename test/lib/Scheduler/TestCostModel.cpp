//===- TestCostModel.cpp - Asks the cost model questions written as IR ----===//
//
// This file implements --ktdf-test-cost-model, a test pass that runs the
// scheduler's cost model (CostModel.h) on queries written as attributes, as
// CIRCT writes scheduling problems as IR, so lit can check its answers
// against figures computed by hand without a device or a kernel. Any op may
// carry the queries; each answer is a remark on that op:
//
//   chunk_query = {cols, granule, op_rates, fifo_bytes_per_element,
//                  fifo_bandwidth, widths}
//     -> "chunk W; cycles per row: w0 -> c0, ..." (estimateRowCycles for
//        each of `widths`)
//   depth_query = {dma_latency, stage_cycles, bytes_per_copy, capacity,
//                  max_depth}
//     -> "depth N"
//   coarsen_query = {candidates, iterations, load_bytes, store_bytes,
//                    latency, bandwidth, dma_sharing, max_outstanding,
//                    shared_dma, compute_cycles, handover_cycles,
//                    bytes_per_copy, copies, capacity}
//     -> "factor F; cycles: 1 -> c1, f -> cf, ..." (estimatePipelineCycles
//        for 1 and every candidate)
//
// Fields left out keep the query's defaults; an unknown field is an error.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "ktflow/Scheduler/CostModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace ktflow::sched;

namespace {
/// Reads the fields of one query, reporting the first bad one at `op`.
class QueryReader {
public:
  QueryReader(Operation *op, StringRef name, DictionaryAttr dict)
      : op(op), name(name), dict(dict) {}

  void read(StringRef field, int64_t &out) {
    if (Attribute attr = take(field)) {
      if (auto i = dyn_cast<IntegerAttr>(attr))
        out = i.getInt();
      else
        fail(field, "an integer");
    }
  }
  void read(StringRef field, double &out) {
    if (Attribute attr = take(field)) {
      if (auto f = dyn_cast<FloatAttr>(attr))
        out = f.getValueAsDouble();
      else if (auto i = dyn_cast<IntegerAttr>(attr))
        out = static_cast<double>(i.getInt());
      else
        fail(field, "a number");
    }
  }
  void read(StringRef field, bool &out) {
    if (Attribute attr = take(field)) {
      if (auto b = dyn_cast<BoolAttr>(attr))
        out = b.getValue();
      else
        fail(field, "true or false");
    }
  }
  template <typename T>
  void read(StringRef field, llvm::SmallVectorImpl<T> &out) {
    Attribute attr = take(field);
    if (!attr)
      return;
    auto array = dyn_cast<ArrayAttr>(attr);
    if (!array)
      return fail(field, "a list of numbers");
    out.clear();
    for (Attribute element : array) {
      if (auto i = dyn_cast<IntegerAttr>(element))
        out.push_back(static_cast<T>(i.getInt()));
      else if (auto f = dyn_cast<FloatAttr>(element);
               f && std::is_floating_point_v<T>)
        out.push_back(static_cast<T>(f.getValueAsDouble()));
      else
        return fail(field, "a list of numbers");
    }
  }

  /// Whether every field was read and well-formed.
  LogicalResult finish() {
    if (failedRead)
      return failure();
    for (NamedAttribute field : dict)
      if (!seen.contains(field.getName().getValue()))
        return op->emitError() << name << " has no field '"
                               << field.getName().getValue() << "'";
    return success();
  }

private:
  Attribute take(StringRef field) {
    seen.insert(field);
    return dict.get(field);
  }
  void fail(StringRef field, StringRef expected) {
    if (!failedRead)
      op->emitError() << name << "." << field << " must be " << expected;
    failedRead = true;
  }

  Operation *op;
  StringRef name;
  DictionaryAttr dict;
  llvm::StringSet<> seen;
  bool failedRead = false;
};

/// Cycles as the remarks print them: whole numbers without a fraction.
std::string cycles(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.10g", value);
  return text;
}

struct TestCostModelPass
    : public PassWrapper<TestCostModelPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestCostModelPass)

  StringRef getArgument() const final { return "ktdf-test-cost-model"; }
  StringRef getDescription() const final {
    return "Answer the cost-model queries written as attributes with remarks";
  }

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](Operation *op) {
      for (NamedAttribute attr : op->getDiscardableAttrs()) {
        StringRef name = attr.getName().getValue();
        if (name != "chunk_query" && name != "depth_query" &&
            name != "coarsen_query")
          continue;
        auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
        if (!dict) {
          op->emitError() << name << " must be a dictionary";
          return WalkResult::interrupt();
        }
        QueryReader reader(op, name, dict);
        LogicalResult answered = name == "chunk_query"   ? chunk(op, reader)
                                 : name == "depth_query" ? depth(op, reader)
                                                         : coarsen(op, reader);
        if (failed(answered))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  static LogicalResult chunk(Operation *op, QueryReader &reader) {
    ChunkQuery query;
    SmallVector<int64_t> widths;
    reader.read("cols", query.cols);
    reader.read("granule", query.granule);
    reader.read("op_rates", query.opRates);
    reader.read("fifo_bytes_per_element", query.fifoBytesPerElement);
    reader.read("fifo_bandwidth", query.fifoBandwidth);
    reader.read("widths", widths);
    if (failed(reader.finish()))
      return failure();
    InFlightDiagnostic remark = op->emitRemark();
    remark << "chunk " << chooseChunk(query) << "; cycles per row:";
    for (auto [i, width] : llvm::enumerate(widths))
      remark << (i ? ", " : " ") << width << " -> "
             << cycles(estimateRowCycles(query, width));
    return success();
  }

  static LogicalResult depth(Operation *op, QueryReader &reader) {
    DepthQuery query;
    reader.read("dma_latency", query.dmaLatency);
    reader.read("stage_cycles", query.stageCycles);
    reader.read("bytes_per_copy", query.bytesPerCopy);
    reader.read("capacity", query.capacity);
    reader.read("max_depth", query.maxDepth);
    if (failed(reader.finish()))
      return failure();
    op->emitRemark() << "depth " << chooseDepth(query);
    return success();
  }

  static LogicalResult coarsen(Operation *op, QueryReader &reader) {
    CoarsenQuery query;
    reader.read("candidates", query.candidates);
    reader.read("iterations", query.iterations);
    reader.read("load_bytes", query.loadBytes);
    reader.read("store_bytes", query.storeBytes);
    reader.read("latency", query.latency);
    reader.read("bandwidth", query.bandwidth);
    reader.read("dma_sharing", query.dmaSharing);
    reader.read("max_outstanding", query.maxOutstanding);
    reader.read("shared_dma", query.sharedDma);
    reader.read("compute_cycles", query.computeCycles);
    reader.read("handover_cycles", query.handoverCycles);
    reader.read("bytes_per_copy", query.bytesPerCopy);
    reader.read("copies", query.copies);
    reader.read("capacity", query.capacity);
    if (failed(reader.finish()))
      return failure();
    InFlightDiagnostic remark = op->emitRemark();
    remark << "factor " << chooseCoarsening(query) << "; cycles: 1 -> "
           << cycles(estimatePipelineCycles(query, 1));
    for (int64_t factor : query.candidates)
      remark << ", " << factor << " -> "
             << cycles(estimatePipelineCycles(query, factor));
    return success();
  }
};
} // namespace

void ktflow::test::registerTestCostModelPass() {
  PassRegistration<TestCostModelPass>();
}
