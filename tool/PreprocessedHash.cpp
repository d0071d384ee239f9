//===--- PreprocessedHash.cpp - what a unit's preprocessing read ----------===//

#include "PreprocessedHash.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"

using namespace llvm;
using namespace clang;

namespace warplint {

namespace {

/// Hashes each file as the preprocessor enters it: its name, then its text
/// (through xxh3, fast on the megabytes of CUDA headers), in order. With a
/// manifest to fill, also notes each file by absolute path and every place
/// an include name was looked for (InputManifest.h).
class EnteredFiles : public PPCallbacks {
public:
  EnteredFiles(CompilerInstance &CI, SHA1 &Hash, InputManifest *Record)
      : SM(CI.getSourceManager()), Files(CI.getFileManager()),
        Search(CI.getPreprocessor().getHeaderSearchInfo()), Hash(Hash),
        Record(Record) {}

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
    uint64_t Digest = hashText(Text ? *Text : StringRef());
    Hash.update(ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(&Digest),
                                  sizeof(Digest)));
    // The predefines buffer comes from the command, already in the key.
    if (Record && Entry) {
      SmallString<256> Path(Entry->getName());
      Files.makeAbsolutePath(Path);
      if (EnteredPaths.insert(Path).second)
        Record->Files.push_back({Path.str().str(), Digest});
    }
  }

  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    noteLookup(HashLoc, FileName, IsAngled);
  }
  void HasInclude(SourceLocation Loc, StringRef FileName, bool IsAngled,
                  OptionalFileEntryRef, SrcMgr::CharacteristicKind) override {
    noteLookup(Loc, FileName, IsAngled);
  }

  /// Whether every lookup could be written down (no header maps or
  /// frameworks, whose lookups are not plain paths).
  bool complete() const { return Complete; }

  /// Adds the paths found to exist that are not entered files (an entered
  /// file is read back, which shows it exists).
  void finishProbes() {
    if (!Record)
      return;
    for (std::string &Path : Present)
      if (!EnteredPaths.contains(Path))
        Record->Probes.push_back({std::move(Path), true});
  }

private:
  /// Notes every path where \p Name could have been found, in any search
  /// directory the lookup could have reached (include_next starts later:
  /// more places than it looked only make the manifest stricter).
  void noteLookup(SourceLocation Loc, StringRef Name, bool IsAngled) {
    if (!Record)
      return;
    if (sys::path::is_absolute(Name))
      return probe(Name);
    if (!IsAngled) {
      // A quoted name is first looked for next to the including file (next
      // to the working directory for -include).
      OptionalFileEntryRef Includer =
          SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
      SmallString<256> Dir(Includer
                               ? sys::path::parent_path(Includer->getName())
                               : StringRef("."));
      if (Dir.empty())
        Dir = ".";
      sys::path::append(Dir, Name);
      probe(Dir);
    }
    for (auto It = IsAngled ? Search.angled_dir_begin()
                            : Search.quoted_dir_begin();
         It != Search.system_dir_end(); ++It) {
      if (!It->isNormalDir()) {
        Complete = false;
        continue;
      }
      SmallString<256> Path(It->getDirRef()->getName());
      sys::path::append(Path, Name);
      probe(Path);
    }
  }

  /// Notes whether \p Path exists. A missing path is written down as its
  /// highest missing ancestor, which stands for every path below it (most
  /// probes fall under a few directories a project does not have).
  void probe(StringRef Path) {
    SmallString<256> Absolute(Path);
    Files.makeAbsolutePath(Absolute);
    if (!ProbedPaths.insert(Absolute).second)
      return;
    vfs::FileSystem &FS = Files.getVirtualFileSystem();
    if (FS.exists(Absolute)) {
      Present.push_back(Absolute.str().str());
      return;
    }
    StringRef Missing = Absolute;
    for (StringRef Up = sys::path::parent_path(Missing);
         !Up.empty() && !FS.exists(Up); Up = sys::path::parent_path(Up))
      Missing = Up;
    if (MissingPaths.insert(Missing).second)
      Record->Probes.push_back({Missing.str(), false});
  }

  const SourceManager &SM;
  FileManager &Files;
  const HeaderSearch &Search;
  SHA1 &Hash;
  InputManifest *Record;
  StringSet<> EnteredPaths, ProbedPaths, MissingPaths;
  std::vector<std::string> Present;
  bool Complete = true;
};

class HashingAction : public PreprocessOnlyAction {
public:
  HashingAction(SHA1 &Hash, InputManifest *Record, bool &Failed)
      : Hash(Hash), Record(Record), Failed(Failed) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    auto Callbacks = std::make_unique<EnteredFiles>(CI, Hash, Record);
    Entered = Callbacks.get();
    CI.getPreprocessor().addPPCallbacks(std::move(Callbacks));
    return true;
  }
  void EndSourceFileAction() override {
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred())
      Failed = true;
    Entered->finishProbes();
    if (Record && !Entered->complete())
      Record->Incomplete = true;
  }

private:
  SHA1 &Hash;
  InputManifest *Record;
  bool &Failed;
  EnteredFiles *Entered = nullptr;
};

/// Prepares each invocation as the analysis's (Runner.cpp) does, so that
/// code guarded by __clang_analyzer__ includes what the analysis sees.
class HashingFactory : public tooling::FrontendActionFactory {
public:
  HashingFactory(SHA1 &Hash, InputManifest *Record, bool &Failed)
      : Hash(Hash), Record(Record), Failed(Failed) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<HashingAction>(Hash, Record, Failed);
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
  InputManifest *Record;
  bool &Failed;
};

} // namespace

std::optional<std::string>
hashPreprocessedInputs(const tooling::CompileCommand &Command, StringRef File,
                       IntrusiveRefCntPtr<vfs::FileSystem> FS,
                       InputManifest *Record) {
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
  HashingFactory Factory(Hash, Record, Failed);
  ToolInvocation Invocation(Args, &Factory, Files.get(),
                            std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Quiet);
  if (!Invocation.run() || Failed)
    return std::nullopt;
  std::array<uint8_t, 20> Digest = Hash.final();
  return toHex(Digest, /*LowerCase=*/true);
}

} // namespace warplint
