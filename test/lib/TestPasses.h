//===- TestPasses.h - ktflow's test passes ----------------------*- C++ -*-===//
//
// This file declares the registration of ktflow's test passes: passes that
// expose the scheduler's analyses (stream plan, index analysis, cost model,
// routing graph) to lit as remarks, as MLIR's test/lib and CIRCT's
// scheduling test passes do. They live in the test-only library
// KTFLOWTestPasses, which only ktflow-opt links.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_TEST_LIB_TESTPASSES_H
#define KTFLOW_TEST_LIB_TESTPASSES_H

namespace ktflow::test {

void registerTestStreamPlanPass();
void registerTestIndexAnalysisPass();
void registerTestCostModelPass();
void registerTestRoutingGraphPass();

/// Registers every test pass.
inline void registerTestPasses() {
  registerTestStreamPlanPass();
  registerTestIndexAnalysisPass();
  registerTestCostModelPass();
  registerTestRoutingGraphPass();
}

} // namespace ktflow::test

#endif // KTFLOW_TEST_LIB_TESTPASSES_H
