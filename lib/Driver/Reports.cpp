//===- Reports.cpp - The JSON reports of ktflow's commands ----------------===//
//
// This file builds the JSON report of every command from the structures the
// libraries return (docs/json-output.md has the schema).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Driver/Reports.h"

#include "ktflow/Check/RunReport.h"
#include "ktflow/Machine/Estimate.h"

using namespace llvm;
using namespace ktflow;

json::Array ktflow::unitsToJSON(const rt::Program &program,
                                const rt::Launch &launch,
                                const sim::SimStats &stats) {
  const machine::Machine &m = program.getBundle().machine;
  const machine::Executable &exe = launch.getExecutable();
  json::Array units;
  for (size_t i = 0; i < exe.programs.size(); ++i) {
    const sim::UnitStats &u = stats.units[i];
    const machine::MachineUnit &unit = m.units[exe.programs[i].unit];
    units.push_back(json::Object{
        {"name", unit.name},
        {"kind", unit.kind},
        {"busy", static_cast<int64_t>(u.busyCycles)},
        {"stalled", static_cast<int64_t>(u.stalledCycles)},
        {"finished", static_cast<int64_t>(u.finishCycle)},
        {"utilization",
         stats.cycles ? static_cast<double>(u.busyCycles) / stats.cycles : 0.0},
        {"bytes", static_cast<int64_t>(u.bytesMoved)},
        {"instructions", static_cast<int64_t>(u.instructions)}});
  }
  return units;
}

json::Object ktflow::launchReport(StringRef command, const rt::Program &program,
                                  const rt::Launch &launch,
                                  const sim::SimStats &stats) {
  const bundle::Bundle &b = program.getBundle();
  json::Object report = beginReport(command);
  report["kernel"] = b.kernel;
  report["device"] = b.device;
  report["cycles"] = static_cast<int64_t>(stats.cycles);
  report["instructions"] = static_cast<int64_t>(stats.instructions);
  machine::KernelEstimate estimate =
      machine::estimateKernel(b.machine, launch.getExecutable());
  // An empty launch has no bottleneck: null, not a unit's name.
  json::Value bottleneck = nullptr;
  if (!estimate.bottleneck.empty())
    bottleneck = estimate.bottleneck;
  report["estimate"] = json::Object{{"cycles", std::llround(estimate.cycles)},
                                    {"bottleneck", std::move(bottleneck)},
                                    {"busiest", estimate.busiest},
                                    {"latency", estimate.latency}};
  report["units"] = unitsToJSON(program, launch, stats);
  if (!stats.interconnect.empty()) {
    double capacity = b.machine.interconnect.linkBandwidth *
                      static_cast<double>(stats.cycles);
    json::Array links;
    for (const sim::InterconnectLinkStats &l : stats.interconnect)
      links.push_back(json::Object{
          {"from_core", static_cast<int64_t>(l.fromCore)},
          {"to_core", static_cast<int64_t>(l.toCore)},
          {"bytes", static_cast<int64_t>(l.bytes)},
          {"utilization", capacity > 0 ? l.bytes / capacity : 0.0}});
    report["interconnect"] = std::move(links);
  }
  return report;
}

Expected<json::Array> ktflow::outputSummaries(const rt::Program &program,
                                              const rt::Launch &launch) {
  const bundle::Bundle &b = program.getBundle();
  json::Array outputs;
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    const bundle::TensorArg &tensor = b.tensors[t];
    std::optional<host::DType> dtype = check::toInterpDType(tensor.elem);
    if (tensor.role == bundle::TensorRole::Input || !dtype)
      continue;
    auto bytes = launch.readTensor(t);
    if (!bytes)
      return bytes.takeError();
    auto shape = launch.getShape(t);
    if (!shape)
      return shape.takeError();
    outputs.push_back(host::statsToJSON(
        bundle::getKernelName(tensor), *shape, *dtype,
        host::computeStats(check::fromBytes(*bytes, tensor.elem, *shape))));
  }
  return outputs;
}

json::Object ktflow::runReport(const KernelRun &run) {
  json::Object report = launchReport("run", run.run->getProgram(),
                                     run.run->getLaunch(), run.stats);
  report["optimized"] = run.optimized;
  if (run.bound.cycles > 0)
    report["ratio"] = check::getRooflineRatio(run.bound, run.stats.cycles);
  else
    report["ratio"] = nullptr; // No work: the roofline is 0 cycles.
  report["roofline"] = device::toJSON(run.bound);
  json::Array indexInputs;
  for (const check::IndexDefault &input : run.run->getIndexDefaults())
    indexInputs.push_back(json::Object{
        {"name", input.name},
        {"spec", input.spec},
        {"indexes", input.indexed.empty() ? json::Value(nullptr)
                                          : json::Value(input.indexed)},
        {"dimension", static_cast<int64_t>(input.dimension)},
        {"scatter", input.scatter}});
  if (!indexInputs.empty())
    report["index_inputs"] = std::move(indexInputs);
  auto verdicts = [](const std::vector<check::OutputCheck> &checks) {
    json::Array outputs;
    bool pass = true;
    for (const check::OutputCheck &c : checks) {
      outputs.push_back(json::Object{{"name", c.label},
                                     {"pass", c.result.pass},
                                     {"summary", c.result.summary}});
      pass &= c.result.pass;
    }
    return json::Object{{"pass", pass}, {"outputs", std::move(outputs)}};
  };
  if (run.checks)
    report["check"] = verdicts(*run.checks);
  if (run.expected)
    report["expected"] = verdicts(*run.expected);
  return report;
}

/// `counts` as {"name": count}.
static json::Object countsToJSON(const MapVector<StringRef, unsigned> &counts) {
  json::Object object;
  for (auto &[name, count] : counts)
    object[name.str()] = static_cast<int64_t>(count);
  return object;
}

json::Object ktflow::checkReport(StringRef file,
                                 ArrayRef<KernelSummary> kernels) {
  json::Object report = beginReport("check");
  report["file"] = file.str();
  report["legal"] = true;
  json::Array functions;
  for (const KernelSummary &k : kernels) {
    json::Object f{
        {"name", k.name},
        {"kernel", k.isKernel()},
        {"arguments", static_cast<int64_t>(k.numArguments)},
        {"runtime_args", static_cast<int64_t>(k.numRuntimeArgs)},
        {"global_views", static_cast<int64_t>(k.globalViews)},
        {"ct_local_views", static_cast<int64_t>(k.ctLocalViews)},
        {"distributed_views", static_cast<int64_t>(k.distributedViews)},
        {"access_tiles", static_cast<int64_t>(k.accessTiles)},
        {"indirect_access_tiles", static_cast<int64_t>(k.indirectAccessTiles)},
        {"loads", static_cast<int64_t>(k.loads)},
        {"stores", static_cast<int64_t>(k.stores)},
        {"loops", static_cast<int64_t>(k.loops)},
        {"inter_tile_ops", static_cast<int64_t>(k.interTileOps)},
        {"compute_ops", countsToJSON(k.computeOps)},
        {"intrinsics", countsToJSON(k.intrinsics)}};
    f["grid"] =
        k.grid ? json::Value(json::Array(*k.grid)) : json::Value(nullptr);
    f["callers"] = json::Array(k.callers);
    functions.push_back(std::move(f));
  }
  report["functions"] = std::move(functions);
  return report;
}

json::Object ktflow::bundleToJSON(const bundle::Bundle &b) {
  json::Array tensors;
  for (const bundle::TensorArg &t : b.tensors) {
    json::Array dims;
    for (const bundle::TensorDim &d : t.dims)
      dims.push_back(
          d.runtimeArg == bundle::kNoArg
              ? json::Value(d.size)
              : json::Value(
                    (d.scale != 1 ? std::to_string(d.scale) + "*" : "") +
                    bundle::getKernelName(b.runtimeArgs[d.runtimeArg])));
    tensors.push_back(
        json::Object{{"name", bundle::getKernelName(t)},
                     {"role", bundle::tensorRoleName(t.role)},
                     {"dtype", machine::elemTypeName(t.elem)},
                     {"shape", std::move(dims)},
                     {"memory", b.machine.memories[t.memory].name}});
  }
  json::Array args;
  for (const bundle::RuntimeArg &a : b.runtimeArgs) {
    json::Object arg{{"name", bundle::getKernelName(a)}};
    if (std::optional<machine::ElemType> type = bundle::getFloatType(a)) {
      arg["dtype"] = machine::elemTypeName(*type);
    } else {
      arg["granularity"] = a.granularity;
      arg["lowerbound"] = a.lowerbound;
      arg["upperbound"] = a.upperbound;
    }
    args.push_back(std::move(arg));
  }
  return json::Object{
      {"kernel", b.kernel},
      {"device", b.device},
      {"format_version", static_cast<int64_t>(bundle::kVersion)},
      {"programs", static_cast<int64_t>(b.programs.size())},
      {"fifos", static_cast<int64_t>(b.fifos.size())},
      {"syncs", static_cast<int64_t>(b.syncs.size())},
      {"tensors", std::move(tensors)},
      {"runtime_args", std::move(args)}};
}

json::Object ktflow::inspectReport(StringRef file, const bundle::Bundle &b) {
  json::Object report = beginReport("inspect");
  if (!file.empty())
    report["file"] = file.str();
  report["bundle"] = bundleToJSON(b);
  return report;
}
