// rt_main.cpp - gtest entry, plus the child mode buggy-kernel tests re-execute.
// Listing tests (gtest_discover_tests at build time) never touches CUDA.

#include "rt_harness.h"

#include <gtest/gtest.h>

#include <cstring>

int main(int argc, char **argv) {
  static const char Child[] = "--rt-child=";
  for (int I = 1; I < argc; ++I)
    if (std::strncmp(argv[I], Child, sizeof Child - 1) == 0)
      return rt::childMain(argv[I] + sizeof Child - 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
