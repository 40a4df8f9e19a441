//===- ScratchpadTensorTest.cpp - Tensors in a tile's scratchpad ----------===//
//
// This file tests how Launch::link places a tensor of a tile's scratchpad
// (`lx<K>@ADDR`, what the scratchpad holds before the kernel): at its
// literal address times its element size, inside the region of the
// kernel's scratchpad views, and never over another buffer.
//
//===----------------------------------------------------------------------===//

#include "../Bundle/TestBundle.h"

#include "ktflow/Runtime/Runtime.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::test;
using namespace ktflow::rt;

namespace {

/// makeBundle with core 0's L1 as tile 0's scratchpad: tensor `lx0@256`
/// (64 f16 at element 256, bytes [512, 640)) in the region of the
/// kernel's views (`local_L1_c0_l0`, [0, 640)) and `extra` buffers.
Program loadProgram(std::vector<Buffer> extra = {}, uint32_t memory = 1) {
  Bundle b = makeBundle();
  b.machine.memories[1].core = 0;
  b.deviceFingerprint = b.machine.fingerprint();
  TensorArg lx;
  lx.name = "lx0_256";
  lx.dims = {{64, kNoArg}};
  lx.memory = memory;
  lx.address = 256;
  lx.tile = 0;
  b.tensors.push_back(lx);
  b.buffers = {{"local_L1_c0_l0", 1, 0, 640}, {"p0_buf0_c0_l0", 1, 640, 512}};
  b.buffers.insert(b.buffers.end(), extra.begin(), extra.end());
  auto program = Program::loadBytes(writeBundle(b));
  EXPECT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  return std::move(*program);
}

/// The error of linking `program` with n = 64, or "" when it links.
std::string linkError(Launch &launch) {
  if (llvm::Error e = launch.setRuntimeArg("n", 64))
    return llvm::toString(std::move(e));
  llvm::Error error = launch.link();
  return error ? llvm::toString(std::move(error)) : std::string();
}

TEST(ScratchpadTensorTest, PlacedAtItsLiteralAddress) {
  Program program = loadProgram();
  EXPECT_EQ(program.findTensor("lx0@256"), std::optional<uint32_t>(1));
  EXPECT_EQ(program.findTensor("@256"), std::nullopt);
  EXPECT_EQ(program.findTensor("lx1@256"), std::nullopt);
  EXPECT_EQ(getKernelName(program.getBundle().tensors[1]), "lx0@256");
  Launch launch(program);
  std::vector<uint8_t> contents(128);
  for (size_t i = 0; i < contents.size(); ++i)
    contents[i] = static_cast<uint8_t>(i + 1);
  ASSERT_FALSE(static_cast<bool>(launch.setTensor(1, contents)));
  ASSERT_EQ(linkError(launch), "");
  EXPECT_EQ(launch.getTensorAddress(1), 512u);
  // The scratchpad holds the contents there when the kernel starts (the
  // copy of x writes L1 bytes [0, 128) only).
  auto stats = launch.run();
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  auto read = launch.readTensor(1);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(*read, contents);
}

TEST(ScratchpadTensorTest, OverlapWithABufferIsRefused) {
  Program program = loadProgram({{"p1_buf0_c0_l0", 1, 600, 64}});
  Launch launch(program);
  EXPECT_EQ(linkError(launch),
            "tensor 'lx0@256' (bytes [512, 640) of core0.L1) overlaps buffer "
            "'p1_buf0_c0_l0' (bytes [600, 664))");
}

TEST(ScratchpadTensorTest, OutsideTheTilesScratchpadIsRefused) {
  Program inDdr = loadProgram({}, /*memory=*/0);
  Launch launch(inDdr);
  EXPECT_EQ(linkError(launch), "corrupt bundle: tensor 'lx0@256' is in DDR, "
                               "not in the scratchpad of core 0");
}

} // namespace
