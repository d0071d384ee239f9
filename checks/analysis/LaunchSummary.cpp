//===--- LaunchSummary.cpp - a unit's kernel launches, for other units ----===//

#include "LaunchSummary.h"
#include "KernelLaunches.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/StringMap.h"

namespace clang::warp {

std::string kernelUsr(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(FD->getCanonicalDecl(), Usr))
    return {};
  return std::string(Usr);
}

std::vector<LedgerLaunch> summarizeLaunches(ASTContext &Ctx) {
  // Device code launches kernels only when built relocatable (-rdc=true):
  // elsewhere the bodies of device-only functions need no look.
  bool DeviceCodeLaunches = Ctx.getLangOpts().GPURelocatableDeviceCode;
  llvm::StringMap<bool> Aligned;
  for (const KernelLaunch &L : findKernelLaunches(Ctx, DeviceCodeLaunches)) {
    auto [It, New] = Aligned.try_emplace(kernelUsr(L.Kernel), true);
    It->second = It->second && L.Block.warpAligned();
  }
  std::vector<LedgerLaunch> Launches;
  for (const auto &[Usr, IsAligned] : Aligned)
    if (!Usr.empty())
      Launches.push_back({Usr.str(), IsAligned});
  return Launches;
}

} // namespace clang::warp
