//===--- PreprocessedHash.cpp - what a unit's preprocessing read ----------===//

#include "PreprocessedHash.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;
using namespace clang;

namespace warplint {

namespace {

/// Hashes each file as the preprocessor enters it: its name, then its text
/// (through xxh3, fast on the megabytes of CUDA headers), in order.
class EnteredFiles : public PPCallbacks {
public:
  EnteredFiles(const SourceManager &SM, SHA1 &Hash) : SM(SM), Hash(Hash) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile)
      return;
    FileID ID = SM.getFileID(Loc);
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(ID);
    // The predefines buffer (<built-in>) has no entry: its text (the
    // command's macros and target) is hashed all the same.
    Hash.update(Entry ? Entry->getName() : SM.getBufferName(Loc));
    Hash.update(StringRef("\0", 1));
    std::optional<StringRef> Text = SM.getBufferDataOrNone(ID);
    uint64_t Digest = xxh3_64bits(Text ? *Text : StringRef());
    Hash.update(ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(&Digest),
                                  sizeof(Digest)));
  }

private:
  const SourceManager &SM;
  SHA1 &Hash;
};

class HashingAction : public PreprocessOnlyAction {
public:
  HashingAction(SHA1 &Hash, bool &Failed) : Hash(Hash), Failed(Failed) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<EnteredFiles>(CI.getSourceManager(), Hash));
    return true;
  }
  void EndSourceFileAction() override {
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred())
      Failed = true;
  }

private:
  SHA1 &Hash;
  bool &Failed;
};

/// Prepares each invocation as the analysis's (Runner.cpp) does, so that
/// code guarded by __clang_analyzer__ includes what the analysis sees.
class HashingFactory : public tooling::FrontendActionFactory {
public:
  HashingFactory(SHA1 &Hash, bool &Failed) : Hash(Hash), Failed(Failed) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<HashingAction>(Hash, Failed);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCH,
                     DiagnosticConsumer *Diags) override {
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    return FrontendActionFactory::runInvocation(Invocation, Files, PCH, Diags);
  }

private:
  SHA1 &Hash;
  bool &Failed;
};

} // namespace

std::optional<std::string>
hashPreprocessedInputs(const tooling::CompileCommand &Command, StringRef File,
                       IntrusiveRefCntPtr<vfs::FileSystem> FS) {
  using namespace clang::tooling;
  // What ClangTool does to the command, so the same files are read.
  CommandLineArguments Args = Command.CommandLine;
  for (const ArgumentsAdjuster &A :
       {getClangStripOutputAdjuster(), getClangStripDependencyFileAdjuster(),
        getClangSyntaxOnlyAdjuster()})
    Args = A(Args, File);
  if (FS->setCurrentWorkingDirectory(Command.Directory))
    return std::nullopt;
  auto Files = makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), FS);
  SHA1 Hash;
  bool Failed = false;
  IgnoringDiagConsumer Quiet;
  HashingFactory Factory(Hash, Failed);
  ToolInvocation Invocation(Args, &Factory, Files.get(),
                            std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Quiet);
  if (!Invocation.run() || Failed)
    return std::nullopt;
  std::array<uint8_t, 20> Digest = Hash.final();
  return toHex(Digest, /*LowerCase=*/true);
}

} // namespace warplint
