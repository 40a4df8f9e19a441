//===- TargetTest.cpp - Which device a module targets ---------------------===//
//
// This file tests the one resolver of a module's target device: a device in
// the module or imported from a description file, and each way it can fail
// (no target, two targets, a file that cannot be read or lacks the device, a
// memory map the device does not satisfy, a file with no or several
// devices), each with the diagnostic the passes and commands print.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/Target.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"

using namespace ktflow::device;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

/// A device with a device memory "HBM" and a per-core scratchpad "SPM".
constexpr llvm::StringLiteral kDevice = R"mlir(
  ktdf_arch.device @dev {
    %ddr = memory { kind = "HBM", size = 64 }
    group share(%ddr) {
      %spm = memory { kind = "SPM", size = 16 }
      %dma = exec_unit { kind = "DMA" }
      datapath %ddr to %dma : memory, exec_unit
      datapath %dma to %spm : exec_unit, memory
    }
  }
)mlir";

constexpr llvm::StringLiteral kMap =
    R"(memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">)";

class TargetTest : public ::testing::Test {
protected:
  TargetTest()
      : context(makeRegistry()),
        handler(&context, [this](mlir::Diagnostic &diag) {
          diagnostics.push_back(diag.str());
          if (auto loc =
                  mlir::dyn_cast<mlir::FileLineColLoc>(diag.getLocation()))
            lines.push_back(loc.getLine());
          return mlir::success();
        }) {
    context.loadAllAvailableDialects();
  }

  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  ~TargetTest() override {
    for (const std::string &file : files)
      llvm::sys::fs::remove(file);
  }

  mlir::ModuleOp parse(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    if (!module)
      ADD_FAILURE() << "does not parse: "
                    << (diagnostics.empty() ? "" : diagnostics.back());
    diagnostics.clear();
    lines.clear();
    return module ? *module : mlir::ModuleOp();
  }

  /// Writes `text` to a new temporary .mlir file and returns its path.
  std::string writeFile(llvm::StringRef text) {
    int fd;
    llvm::SmallString<128> path;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("ktflow-target", "mlir", fd, path));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    files.push_back(path.str().str());
    return files.back();
  }

  /// A kernel module whose target imports device @`device` from `file`.
  std::string importing(llvm::StringRef file, llvm::StringRef device = "dev",
                        llvm::StringRef map = kMap) {
    return ("ktdf_arch.target @" + device + " from \"" + file + "\" " + map)
        .str();
  }

  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler;
  std::vector<std::string> diagnostics;
  std::vector<unsigned> lines;
  std::vector<std::string> files;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(TargetTest, ResolvesADeviceInTheModule) {
  mlir::ModuleOp m = parse((kDevice + "ktdf_arch.target @dev " + kMap).str());
  ASSERT_TRUE(m);
  for (TargetImport import : {TargetImport::Load, TargetImport::InModule}) {
    mlir::FailureOr<TargetDevice> resolved = resolveTarget(m, import);
    ASSERT_TRUE(succeeded(resolved));
    EXPECT_FALSE(resolved->imported);
    EXPECT_TRUE(resolved->target);
    EXPECT_EQ(resolved->device.getSymName(), "dev");
    EXPECT_EQ(resolved->globalMemory, "HBM");
    EXPECT_EQ(resolved->ctLocalMemory, "SPM");
  }
  mlir::FailureOr<DeviceModel> model = buildTargetModel(m);
  ASSERT_TRUE(succeeded(model));
  EXPECT_EQ(model->getName(), "dev");
  EXPECT_THAT(diagnostics, IsEmpty());
}

TEST_F(TargetTest, ImportsTheDescriptionFile) {
  std::string file = writeFile(kDevice);
  mlir::ModuleOp m = parse(importing(file));
  ASSERT_TRUE(m);
  mlir::FailureOr<TargetDevice> resolved = resolveTarget(m, TargetImport::Load);
  ASSERT_TRUE(succeeded(resolved));
  ASSERT_TRUE(resolved->imported);
  EXPECT_EQ(resolved->device->getParentOp(),
            resolved->imported->getOperation());
  EXPECT_EQ(resolved->device.getSymName(), "dev");
  EXPECT_EQ(resolved->ctLocalMemory, "SPM");
  EXPECT_THAT(diagnostics, IsEmpty());

  // Passes after --ktdf-import-target need the device in the module.
  EXPECT_TRUE(failed(resolveTarget(m, TargetImport::InModule)));
  EXPECT_THAT(diagnostics,
              ElementsAre("'ktdf_arch.target' op the target device is still "
                          "in '" +
                          file +
                          "'; run --ktdf-import-target to bring it into the "
                          "module"));
}

TEST_F(TargetTest, NoTarget) {
  mlir::ModuleOp m = parse(kDevice);
  ASSERT_TRUE(m);
  mlir::FailureOr<mlir::ktdf_arch::TargetOp> optional = findOptionalTarget(m);
  ASSERT_TRUE(succeeded(optional));
  EXPECT_FALSE(*optional);
  EXPECT_THAT(diagnostics, IsEmpty());
  EXPECT_TRUE(failed(resolveTarget(m, TargetImport::Load)));
  EXPECT_TRUE(failed(buildTargetModel(m)));
  std::string expected = "the module declares no target device "
                         "(ktdf_arch.target); give the device with --arch";
  EXPECT_THAT(diagnostics, ElementsAre(expected, expected));
}

TEST_F(TargetTest, TwoTargets) {
  mlir::ModuleOp m = parse((kDevice + "ktdf_arch.target @dev " + kMap +
                            "\nktdf_arch.target @dev " + kMap)
                               .str());
  ASSERT_TRUE(m);
  EXPECT_TRUE(failed(findOptionalTarget(m)));
  EXPECT_TRUE(failed(resolveTarget(m, TargetImport::Load)));
  EXPECT_THAT(diagnostics,
              ElementsAre("the module declares more than one target",
                          "the module declares more than one target"));
  // Reported at the second declaration, the last line.
  EXPECT_THAT(lines, ElementsAre(12u, 12u));
}

TEST_F(TargetTest, AFileThatCannotBeRead) {
  std::string missing = writeFile("") + ".missing";
  mlir::ModuleOp m = parse(importing(missing));
  ASSERT_TRUE(m);
  EXPECT_TRUE(failed(resolveTarget(m, TargetImport::Load)));
  EXPECT_THAT(diagnostics,
              ElementsAre("'ktdf_arch.target' op cannot import device "
                          "description '" +
                          missing + "'"));
}

TEST_F(TargetTest, AFileWithoutTheNamedDevice) {
  std::string file = writeFile(kDevice);
  mlir::ModuleOp m = parse(importing(file, "other"));
  ASSERT_TRUE(m);
  EXPECT_TRUE(failed(resolveTarget(m, TargetImport::Load)));
  EXPECT_THAT(diagnostics, ElementsAre("'ktdf_arch.target' op '" + file +
                                       "' defines no ktdf_arch.device @other"));
}

TEST_F(TargetTest, AMemoryMapTheDeviceDoesNotSatisfy) {
  // The verifier cannot see an imported device, so the resolver checks it.
  std::string file = writeFile(kDevice);
  mlir::ModuleOp m = parse(importing(
      file, "dev", R"(memory_map #ktdf_arch.map<"ct_local" = "L1">)"));
  ASSERT_TRUE(m);
  EXPECT_TRUE(failed(resolveTarget(m, TargetImport::Load)));
  EXPECT_THAT(diagnostics,
              ElementsAre("'ktdf_arch.target' op memory_map names memory kind "
                          "\"L1\", which device @dev does not define"));
}

TEST_F(TargetTest, FindsTheDeviceOfADescription) {
  mlir::ModuleOp m = parse((kDevice + R"(ktdf_arch.device @second {
    %m = memory { kind = "M", size = 64 }
  })")
                               .str());
  ASSERT_TRUE(m);
  mlir::FailureOr<mlir::ktdf_arch::DeviceOp> named = findDevice(m, "second");
  ASSERT_TRUE(succeeded(named));
  EXPECT_EQ(named->getSymName(), "second");
  EXPECT_THAT(diagnostics, IsEmpty());
  EXPECT_TRUE(failed(findDevice(m)));
  EXPECT_TRUE(failed(findDevice(m, "third")));
  EXPECT_THAT(diagnostics,
              ElementsAre("2 ktdf_arch.device ops in this file (@dev, "
                          "@second); choose one by name",
                          "no ktdf_arch.device named 'third' in this file"));
}

TEST_F(TargetTest, ADeviceOrATarget) {
  std::string file = writeFile(kDevice);
  mlir::ModuleOp kernel = parse(importing(file));
  ASSERT_TRUE(kernel);
  mlir::FailureOr<TargetDevice> viaTarget = resolveDeviceOrTarget(kernel);
  ASSERT_TRUE(succeeded(viaTarget));
  EXPECT_TRUE(viaTarget->target);
  EXPECT_EQ(viaTarget->device.getSymName(), "dev");
  EXPECT_TRUE(failed(resolveDeviceOrTarget(kernel, "other")));
  EXPECT_THAT(diagnostics,
              ElementsAre("no ktdf_arch.device named 'other' in this file"));

  mlir::ModuleOp description = parse(kDevice);
  ASSERT_TRUE(description);
  mlir::FailureOr<TargetDevice> direct = resolveDeviceOrTarget(description);
  ASSERT_TRUE(succeeded(direct));
  EXPECT_FALSE(direct->target);
  EXPECT_EQ(direct->device.getSymName(), "dev");

  mlir::ModuleOp empty = parse("");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(failed(resolveDeviceOrTarget(empty)));
  EXPECT_THAT(diagnostics, ElementsAre("no ktdf_arch.device or "
                                       "ktdf_arch.target in this file"));
}

} // namespace
