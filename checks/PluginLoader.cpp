//===--- PluginLoader.cpp - version-checked entry point of libWarpLint.so -===//
//
// clang-tidy --load=libWarpLint.so opens this library. It links nothing from
// clang or LLVM, so it always loads; it asks the host for its LLVM version
// through the stable C API and only then opens libWarpLintChecks.so (next to
// this file), whose clang-tidy symbols must match the host exactly. A plugin
// built for another LLVM version therefore refuses with one clear line
// instead of failing symbol resolution or crashing inside a registry.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <string>

namespace {

using GetVersionFn = void (*)(unsigned *, unsigned *, unsigned *);

/// Returns the directory holding this shared object, with a trailing slash.
std::string selfDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&selfDirectory), &Info) ||
      !Info.dli_fname)
    return "";
  std::string Path = Info.dli_fname;
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "" : Path.substr(0, Slash + 1);
}

__attribute__((constructor)) void loadWarpLintChecks() {
  auto GetVersion =
      reinterpret_cast<GetVersionFn>(dlsym(RTLD_DEFAULT, "LLVMGetVersion"));
  unsigned Major = 0, Minor = 0, Patch = 0;
  if (GetVersion)
    GetVersion(&Major, &Minor, &Patch);
  if (Major != WARP_LINT_LLVM_MAJOR || Minor != WARP_LINT_LLVM_MINOR) {
    if (Major)
      fprintf(stderr,
              "warp-lint: libWarpLint.so was built for clang-tidy %d.%d but "
              "this clang-tidy is %u.%u; not loading the warp- checks "
              "(rebuild warp-lint against this LLVM)\n",
              WARP_LINT_LLVM_MAJOR, WARP_LINT_LLVM_MINOR, Major, Minor);
    else
      fprintf(stderr,
              "warp-lint: libWarpLint.so was built for clang-tidy %d.%d but "
              "this host is an older or unknown LLVM; not loading the warp- "
              "checks (rebuild warp-lint against this LLVM)\n",
              WARP_LINT_LLVM_MAJOR, WARP_LINT_LLVM_MINOR);
    return;
  }
  std::string Impl = selfDirectory() + "libWarpLintChecks.so";
  if (!dlopen(Impl.c_str(), RTLD_NOW | RTLD_GLOBAL))
    fprintf(stderr, "warp-lint: cannot load %s: %s\n", Impl.c_str(), dlerror());
}

} // namespace
