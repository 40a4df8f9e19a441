//===- DeviceSummaryTest.cpp - What arch-info reports about a device ------===//
//
// This file checks DeviceSummary on a small device drawn for it (routes worked
// out by hand from its datapaths: a chain that narrows, a memory no data
// mover writes back from, a compute unit nothing reaches), its text and JSON
// printers on that device, and the one-line descriptions against the shipped
// descriptions' units.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestSupport.h"

#include "ktflow/Device/DeviceSummary.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"

using namespace ktflow::device;
using ktflow::device::testing::DeviceTest;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

// Two cores; in each, DDR -> LD -> L1 -> VEC narrows from 32 to 16 to 8
// B/cycle over 10 + 2 + 1 cycles, nothing carries data back to DDR, and IDLE
// computes but no datapath touches it (which the verifier rejects, so the
// tests build the model unverified).
constexpr llvm::StringLiteral kTinyDevice = R"mlir(
  ktdf_arch.device @tiny attributes { ktdf_arch.clock_mhz = 500 } {
    %ddr = memory { kind = "DDR", size = 4096 }
    group { kind = "core", ktdf_arch.instances = 2 } share(%ddr) {
      %l1 = memory { kind = "L1", size = 1024 }
      %ld = exec_unit { kind = "LD" }
      %vec = exec_unit { kind = "VEC", ktdf_arch.features = {
             ktdf_arch.feature.compute,
             ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f32 = 8> } } }
      %idle = exec_unit { kind = "IDLE", ktdf_arch.features = {
              ktdf_arch.feature.compute,
              ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f32 = 4> } } }
      datapath { ktdf_arch.bandwidth = 32, ktdf_arch.latency = 10 } %ddr to %ld : memory, exec_unit
      datapath { ktdf_arch.bandwidth = 16, ktdf_arch.latency = 2 } %ld to %l1 : exec_unit, memory
      datapath { ktdf_arch.bandwidth = 8, ktdf_arch.latency = 1 } %l1 to %vec : memory, exec_unit
    }
  }
)mlir";

class DeviceSummaryTest : public DeviceTest {
protected:
  std::string text(const DeviceSummary &summary) {
    std::string out;
    llvm::raw_string_ostream os(out);
    printDeviceSummary(summary, os);
    return out;
  }

  llvm::json::Value json(const DeviceSummary &summary) {
    std::string out;
    llvm::raw_string_ostream os(out);
    printDeviceSummaryJson(summary, os);
    EXPECT_TRUE(llvm::StringRef(out).ends_with("}\n"));
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(out);
    if (!parsed) {
      ADD_FAILURE() << llvm::toString(parsed.takeError());
      return nullptr;
    }
    return std::move(*parsed);
  }

  /// "FROM => TO: PATH" for every route the summary shows, "-" for no path.
  std::vector<std::string> routes(const DeviceSummary &summary) {
    std::vector<std::string> result;
    for (const SummaryRoute &shown : summary.getRoutes()) {
      std::string line = model->getNode(shown.from).name + " => " +
                         model->getNode(shown.to).name + ":";
      if (!shown.route)
        line += " -";
      else
        for (NodeId id : shown.route->nodes)
          line += " " + model->getNode(id).name;
      result.push_back(line);
    }
    return result;
  }
};

TEST_F(DeviceSummaryTest, RoutesAlongTheMemoryTreeAndToComputeUnits) {
  ASSERT_TRUE(loadSource(kTinyDevice, /*verify=*/false));
  DeviceSummary summary(*model);
  // Both ways along the one tree edge DDR - L1, then from and to the root DDR
  // for VEC and for IDLE, in unit order.
  EXPECT_THAT(routes(summary),
              ElementsAre("DDR => core/L1: DDR core/LD core/L1",
                          "core/L1 => DDR: -",
                          "DDR => core/VEC: DDR core/LD core/L1 core/VEC",
                          "core/VEC => DDR: -", "DDR => core/IDLE: -",
                          "core/IDLE => DDR: -"));
  const Route &toVec = *summary.getRoutes()[2].route;
  EXPECT_EQ(toVec.getNumHops(), 3);
  EXPECT_EQ(toVec.bandwidth, 8.0);
  EXPECT_EQ(toVec.latency, 10 + 2 + 1);
  EXPECT_THAT(names(summary.getIsolatedUnits()), ElementsAre("core/IDLE"));
}

TEST_F(DeviceSummaryTest, TextReport) {
  ASSERT_TRUE(loadSource(kTinyDevice, /*verify=*/false));
  std::string out = text(DeviceSummary(*model));
  EXPECT_TRUE(llvm::StringRef(out).starts_with(
      "device @tiny: clock 500 MHz, 2 cores (group \"core\")\n\nmemories:\n"));
  EXPECT_THAT(out, HasSubstr("  core/L1                  level 1  1024 B  x2 "
                             "(1 per core)  from DDR\n"));
  EXPECT_THAT(out,
              HasSubstr("  core/VEC                     x1  "
                        "vector_compute     compute, simd(lanes f32=8)\n"));
  EXPECT_THAT(out,
              HasSubstr("  DDR -> core/LD  x2  32 B/cycle, 10 cycle(s)\n"));
  EXPECT_THAT(out, HasSubstr("\nroutes:\n  DDR => core/L1: DDR -> core/LD -> "
                             "core/L1  (2 hops, 16 B/cycle, 12 cycles)\n"
                             "  core/L1 => DDR: no route through data movers\n"
                             "  DDR => core/VEC: DDR -> core/LD -> core/L1 -> "
                             "core/VEC  (3 hops, 8 B/cycle, 13 cycles)\n"));
  EXPECT_THAT(out,
              HasSubstr("  unit core/IDLE has no route to or from any memory\n"
                        "\nroofline:\n"));
  // Two VECs and two IDLEs, 8 + 4 f32 lanes per core.
  EXPECT_THAT(out, HasSubstr("  elementwise f32: 12 elements/cycle per core, "
                             "24 per device"));
}

TEST_F(DeviceSummaryTest, JsonReport) {
  ASSERT_TRUE(loadSource(kTinyDevice, /*verify=*/false));
  llvm::json::Value value = json(DeviceSummary(*model));
  const llvm::json::Object *root = value.getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->getString("device"), "tiny");
  EXPECT_EQ(root->getNumber("clock_mhz"), 500.0);
  EXPECT_EQ(root->getObject("cores")->getInteger("count"), 2);
  EXPECT_TRUE(root->getArray("interconnects")->empty());

  const llvm::json::Array &memories = *root->getArray("memories");
  ASSERT_EQ(memories.size(), 2u);
  EXPECT_FALSE(memories[0].getAsObject()->get("parent"));
  EXPECT_EQ(memories[1].getAsObject()->getString("parent"), "DDR");
  EXPECT_EQ(memories[1].getAsObject()->getInteger("instances_per_core"), 1);

  const llvm::json::Array &routes = *root->getArray("routes");
  ASSERT_EQ(routes.size(), 6u);
  const llvm::json::Object &toVec = *routes[2].getAsObject();
  EXPECT_EQ(toVec.getString("from"), "DDR");
  EXPECT_EQ(toVec.getString("to"), "core/VEC");
  EXPECT_EQ(toVec.getArray("path")->size(), 4u);
  EXPECT_EQ(toVec.getInteger("hops"), 3);
  EXPECT_EQ(toVec.getNumber("bandwidth"), 8.0);
  EXPECT_EQ(toVec.getInteger("latency"), 13);
  // No route: the path is null and there are no figures.
  const llvm::json::Object &back = *routes[1].getAsObject();
  EXPECT_EQ(back.get("path")->kind(), llvm::json::Value::Null);
  EXPECT_FALSE(back.get("hops"));

  const llvm::json::Array &isolated = *root->getArray("isolated_units");
  ASSERT_EQ(isolated.size(), 1u);
  EXPECT_EQ(isolated[0].getAsString(), "core/IDLE");
}

TEST_F(DeviceSummaryTest, DescriptionsOfTheShippedUnits) {
  ASSERT_TRUE(loadExample("sample_device"));
  auto features = [&](llvm::StringRef name) {
    return describeUnitFeatures(*model->getNode(node(name)).unit);
  };
  EXPECT_EQ(features("core/MNILU_Block/MNILU"),
            "load(word DDR=64B L1=64B), 4 in flight");
  EXPECT_EQ(features("core/subcore[0]/L1LU"),
            "simd splat zero_pad, load(word L1=64B)");
  EXPECT_EQ(features("core/subcore[0]/SFU_Block/SFU"),
            "compute, simd(lanes f16=64 f32=32 i32=32)");
  EXPECT_THAT(getRoleNames(model->getNode(node("core/subcore[0]/L1SU"))),
              ElementsAre("scratchpad_store"));

  // Four cores on a bidirectional ring of 64 B/cycle links: at most two hops
  // apart; cutting it in half cuts two links of 64 B/cycle.
  Roofline roofline(*model);
  ASSERT_EQ(roofline.getInterconnects().size(), 1u);
  EXPECT_EQ(describeInterconnect(roofline.getInterconnects()[0].second),
            "ring bidirectional, 64 B/cycle per link and direction, 1 cycle(s) "
            "per hop, diameter 2 hops, bisection 128 B/cycle");
}

TEST_F(DeviceSummaryTest, Figures) {
  EXPECT_EQ(formatFigure(128), "128");
  EXPECT_EQ(formatFigure(0.5), "0.5");
  EXPECT_EQ(formatFigure(0.25), "0.25");
  EXPECT_EQ(formatFigure(1e20), "1e+20");
}

} // namespace
