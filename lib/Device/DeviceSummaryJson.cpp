//===- DeviceSummaryJson.cpp - arch-info's JSON report --------------------===//
//
// This file prints a device summary as `ktflow arch-info --json` does: one
// object with the same content as the text report, figures as numbers and
// names as the description spells them, in a fixed key order.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/DeviceSummary.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::ktdf_arch;
using namespace ktflow::device;

static void writeInterconnects(const DeviceSummary &summary,
                               json::OStream &json) {
  const DeviceModel &model = summary.getModel();
  json.attributeArray("interconnects", [&] {
    for (const auto &entry : summary.getRoofline().getInterconnects())
      json.object([&] {
        const InterconnectPeak &peak = entry.second;
        json.attribute("group", model.getScope(entry.first).path);
        json.attribute("topology", stringifyTopology(peak.spec.topology));
        json.attribute("endpoints", peak.endpoints);
        if (!peak.spec.dims.empty())
          json.attributeArray("dims", [&] {
            for (int64_t d : peak.spec.dims)
              json.value(d);
          });
        json.attribute("bidirectional", peak.spec.bidirectional);
        json.attribute("link_bandwidth", peak.spec.linkBandwidth);
        json.attribute("hop_latency", peak.spec.hopLatency);
        json.attribute("diameter_hops", peak.diameterHops);
        json.attribute("bisection_bandwidth", peak.bisectionBytesPerCycle);
      });
  });
}

static void writeMemories(const DeviceSummary &summary, json::OStream &json) {
  const DeviceModel &model = summary.getModel();
  json.attributeArray("memories", [&] {
    for (NodeId id : model.getMemories()) {
      const Node &node = model.getNode(id);
      const MemoryPeak *peak = summary.getRoofline().getMemoryPeak(id);
      json.object([&] {
        json.attribute("name", node.name);
        json.attribute("kind", node.memory->kind);
        json.attribute("level", summary.getMemoryTree().getLevel(id));
        if (std::optional<NodeId> parent =
                summary.getMemoryTree().getParent(id))
          json.attribute("parent", model.getNode(*parent).name);
        json.attribute("size", node.memory->size);
        json.attribute("instances", node.instances);
        json.attribute("instances_per_core", model.getInstancesPerCore(id));
        if (peak->statedBandwidth)
          json.attribute("stated_bandwidth", *peak->statedBandwidth);
        json.attribute("peak_read", peak->readBytesPerCycle);
        json.attribute("peak_write", peak->writeBytesPerCycle);
        json.attribute("peak_total", peak->totalBytesPerCycle);
      });
    }
  });
}

static void writeUnits(const DeviceModel &model, json::OStream &json) {
  json.attributeArray("units", [&] {
    for (NodeId id : model.getUnits()) {
      const Node &node = model.getNode(id);
      json.object([&] {
        json.attribute("name", node.name);
        json.attribute("kind", node.unit->kind);
        json.attribute("instances", node.instances);
        json.attribute("instances_per_core", model.getInstancesPerCore(id));
        json.attributeArray("roles", [&] {
          for (const std::string &role : getRoleNames(node))
            json.value(role);
        });
        json.attribute("features", describeUnitFeatures(*node.unit));
        json.attributeArray("throughput", [&] {
          for (const ThroughputEntry &entry : node.unit->throughput)
            json.object([&] {
              json.attribute("class", stringifyOpClass(entry.opClass));
              json.attribute("dtype", formatType(entry.dtype));
              json.attribute("per_cycle", entry.perCycle);
              json.attribute("default", entry.isDefault);
            });
        });
      });
    }
  });
}

static void writeDatapaths(const DeviceModel &model, json::OStream &json) {
  json.attributeArray("datapaths", [&] {
    for (const Datapath &datapath : model.getDatapaths())
      json.object([&] {
        json.attribute("src", model.getNode(datapath.src).name);
        json.attribute("dst", model.getNode(datapath.dst).name);
        json.attribute("instances", datapath.instances);
        json.attribute("bandwidth", datapath.spec.bandwidth);
        json.attribute("latency", datapath.spec.latency);
        json.attributeArray("transfer_granularity", [&] {
          for (int64_t bytes : datapath.spec.transferGranularity)
            json.value(bytes);
        });
        if (datapath.spec.queue) {
          json.attribute("fifo_depth", datapath.spec.queue->depth);
          json.attribute("ordered", datapath.spec.queue->ordered);
        }
      });
  });
}

static void writeRoutes(const DeviceSummary &summary, json::OStream &json) {
  const DeviceModel &model = summary.getModel();
  auto nodeName = [&](NodeId id) { return model.getNode(id).name; };
  json.attributeArray("routes", [&] {
    for (const SummaryRoute &shown : summary.getRoutes())
      json.object([&] {
        json.attribute("from", nodeName(shown.from));
        json.attribute("to", nodeName(shown.to));
        if (!shown.route) {
          json.attribute("path", nullptr);
          return;
        }
        json.attributeArray("path", [&] {
          for (NodeId id : shown.route->nodes)
            json.value(nodeName(id));
        });
        json.attribute("hops", shown.route->getNumHops());
        json.attribute("bandwidth", shown.route->bandwidth);
        json.attribute("latency", shown.route->latency);
        if (shown.route->minFifoDepth)
          json.attribute("min_fifo_depth", *shown.route->minFifoDepth);
      });
  });
  json.attributeArray("isolated_units", [&] {
    for (NodeId id : summary.getIsolatedUnits())
      json.value(nodeName(id));
  });
}

static void writeRoofline(const Roofline &roofline, json::OStream &json) {
  json.attributeObject("roofline", [&] {
    json.attribute("device_memory_bandwidth",
                   roofline.getDeviceMemoryBytesPerCycle());
    json.attribute("device_memory_bandwidth_per_core",
                   roofline.getDeviceMemoryBytesPerCyclePerCore());
    json.attributeArray("compute", [&] {
      for (const ComputePeak &peak : roofline.getComputePeaks())
        json.object([&] {
          json.attribute("class", stringifyOpClass(peak.opClass));
          json.attribute("dtype", formatType(peak.dtype));
          json.attribute("per_core", peak.perCore);
          json.attribute("per_device", peak.perDevice);
          if (std::optional<double> ridge =
                  roofline.getRidgePoint(peak.opClass, peak.dtype))
            json.attribute("ridge_point", *ridge);
        });
    });
  });
}

void ktflow::device::printDeviceSummaryJson(const DeviceSummary &summary,
                                            raw_ostream &os) {
  const DeviceModel &model = summary.getModel();
  json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("device", model.getName());
    json.attribute("clock_mhz", model.getClockMHz());
    json.attributeObject("cores", [&] {
      json.attribute("group", model.getScope(model.getCoreScope()).path);
      json.attribute("count", model.getNumCores());
    });
    writeInterconnects(summary, json);
    writeMemories(summary, json);
    writeUnits(model, json);
    writeDatapaths(model, json);
    writeRoutes(summary, json);
    writeRoofline(summary.getRoofline(), json);
  });
  os << "\n";
}
