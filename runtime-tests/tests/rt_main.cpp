// rt_main.cpp - gtest entry, plus the child modes (buggy-kernel tests
// re-execute the binary; sanitizer runs call them directly).
// Listing tests (gtest_discover_tests at build time) never touches CUDA.

#include "rt_harness.h"

#include <gtest/gtest.h>

#include <cstring>

int main(int argc, char **argv) {
  // --rt-child=<id> runs a pattern's buggy kernel, --rt-child-fixed=<id> its
  // fixed one, on every config, one RT-CASE line each (what the sanitizer
  // runs of runtime-tests/run-on-gpu.sh launch, one pattern per process).
  static const char Child[] = "--rt-child=";
  static const char ChildFixed[] = "--rt-child-fixed=";
  for (int I = 1; I < argc; ++I) {
    if (std::strncmp(argv[I], Child, sizeof Child - 1) == 0)
      return rt::childMain(argv[I] + sizeof Child - 1, /*Fixed=*/false);
    if (std::strncmp(argv[I], ChildFixed, sizeof ChildFixed - 1) == 0)
      return rt::childMain(argv[I] + sizeof ChildFixed - 1, /*Fixed=*/true);
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
