//===--- Runner.cpp - clang-tidy over many translation units --------------===//

#include "Runner.h"
#include "CrossUnitLaunches.h"
#include "PreprocessedHash.h"
#include "ResultCache.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <mutex>

using namespace llvm;
using namespace clang::tidy;

namespace warplint {

bool isCompilerError(const ClangTidyError &E) {
  return E.DiagLevel == ClangTidyError::Error &&
         StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
}

/// What makes two errors report the same thing (the host and device passes
/// of one file can both see a problem in shared code).
static std::string errorKey(const ClangTidyError &E) {
  std::string Key = E.DiagnosticName;
  for (const std::string &Part :
       {E.Message.FilePath, std::to_string(E.Message.FileOffset),
        E.Message.Message}) {
    Key += '\0';
    Key += Part;
  }
  return Key;
}

namespace {

/// clang-tidy's own action factory (as in runClangTidy): the checks come
/// from ClangTidyASTConsumerFactory, so matching, NOLINT and fixes are
/// clang-tidy's.
class TidyActionFactory : public clang::tooling::FrontendActionFactory {
public:
  TidyActionFactory(ClangTidyContext &Context,
                    IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS,
                    UnitResult &Unit)
      : ConsumerFactory(Context, std::move(FS)), Unit(Unit) {}

  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<Action>(&ConsumerFactory, Unit);
  }

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCH,
                     clang::DiagnosticConsumer *Diags) override {
    // Like clang-tidy: checks may test for __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // No "N warnings generated." on stderr: findings are reported by
    // handleErrors or the writers, errors by the caller in one line.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(Invocation, Files, PCH, Diags);
  }

private:
  class Action : public clang::ASTFrontendAction {
  public:
    Action(ClangTidyASTConsumerFactory *Factory, UnitResult &Unit)
        : Factory(Factory), Unit(Unit) {}
    std::unique_ptr<clang::ASTConsumer>
    CreateASTConsumer(clang::CompilerInstance &Compiler,
                      StringRef File) override {
      // The checks, then where the unit's functions lie (for the
      // fingerprints of what the checks found) and what its launches show
      // (for the findings another unit's launches may resolve).
      std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
      Consumers.push_back(Factory->createASTConsumer(Compiler, File));
      Consumers.push_back(makeFunctionRangeCollector(Unit.Functions));
      Consumers.push_back(makeLaunchCollector(Unit.Launches));
      return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
    }

  private:
    ClangTidyASTConsumerFactory *Factory;
    UnitResult &Unit;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
  UnitResult &Unit;
};

/// Passes every diagnostic on to clang-tidy's consumer, remembering the
/// first error clang emits (clang-tidy sorts errors by place, losing that
/// order).
class FirstErrorRecorder : public clang::DiagnosticConsumer {
public:
  explicit FirstErrorRecorder(clang::DiagnosticConsumer &Next) : Next(Next) {}

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override {
    Next.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  bool IncludeInDiagnosticCounts() const override {
    return Next.IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (!Recorded && Level >= clang::DiagnosticsEngine::Error) {
      SmallString<128> Text;
      Info.FormatDiagnostic(Text);
      FirstMessage = Text.str().str();
      Recorded = true;
    }
    Next.HandleDiagnostic(Level, Info);
  }

  /// Returns the index in \p Errors of the error recorded first, or -1.
  int indexIn(ArrayRef<ClangTidyError> Errors) const {
    if (!Recorded)
      return -1;
    for (size_t I = 0; I < Errors.size(); ++I)
      if (isCompilerError(Errors[I]) &&
          Errors[I].Message.Message == FirstMessage)
        return I;
    return -1;
  }

private:
  clang::DiagnosticConsumer &Next;
  bool Recorded = false;
  std::string FirstMessage;
};

/// One compile command: each pass of a unit (device, host) gets its own
/// ClangTool run, so ClangTool prints no "[1/2] Processing file" lines.
class SingleCommandDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit SingleCommandDatabase(clang::tooling::CompileCommand Command)
      : Command(std::move(Command)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(StringRef) const override {
    return {Command};
  }

private:
  clang::tooling::CompileCommand Command;
};

} // namespace

/// ExtraArgs/ExtraArgsBefore from the configuration, as clang-tidy adds them.
static clang::tooling::ArgumentsAdjuster
configExtraArgs(ClangTidyContext &Context) {
  using clang::tooling::CommandLineArguments;
  return [&Context](const CommandLineArguments &Args, StringRef Filename) {
    ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
    CommandLineArguments Adjusted = Args;
    if (Opts.ExtraArgsBefore) {
      auto I = Adjusted.begin();
      if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
        ++I; // The compiler's name stays first.
      Adjusted.insert(I, Opts.ExtraArgsBefore->begin(),
                      Opts.ExtraArgsBefore->end());
    }
    if (Opts.ExtraArgs)
      Adjusted.insert(Adjusted.end(), Opts.ExtraArgs->begin(),
                      Opts.ExtraArgs->end());
    return Adjusted;
  };
}

/// Returns the cache key of \p File: its preprocessed inputs under each of
/// its commands as the analysis will run them, the commands, the effective
/// configuration and the tool version (ResultCache.h). The unit's manifest
/// gives the key without preprocessing while what it lists still holds
/// (InputManifest.h); otherwise the unit is preprocessed and the manifest
/// rewritten. Nothing when a command does not preprocess: the unit is then
/// not cached.
static std::optional<std::string>
unitCacheKey(const std::string &File,
             const clang::tooling::CompilationDatabase &Database,
             ClangTidyContext &Context, IntrusiveRefCntPtr<vfs::FileSystem> FS,
             const RunSettings &Settings) {
  using namespace clang::tooling;
  SHA1 Key, ManifestKey;
  auto Part = [&](StringRef Text) {
    for (SHA1 *H : {&Key, &ManifestKey}) {
      H->update(Text);
      H->update(StringRef("\0", 1));
    }
  };
  Part("warp-lint result cache 2");
  Part(Settings.ToolVersion);
  Part(configurationAsText(Context.getOptionsForFile(File)));
  ArgumentsAdjuster Adjust =
      combineAdjusters(configExtraArgs(Context), getStripPluginsAdjuster());
  std::vector<CompileCommand> Commands = Database.getCompileCommands(File);
  if (Commands.empty())
    return std::nullopt;
  for (CompileCommand &Command : Commands) {
    Command.CommandLine = Adjust(Command.CommandLine, File);
    Part(Command.Directory);
    for (const std::string &Arg : Command.CommandLine)
      Part(Arg);
  }
  // The manifest's own key: what is known before preprocessing, with the
  // file's name and the environment the include search reads.
  ManifestKey.update(StringRef("manifest\0", 9));
  ManifestKey.update(File);
  for (const char *Var : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"}) {
    ManifestKey.update(StringRef("\0", 1));
    if (std::optional<std::string> V = sys::Process::GetEnv(Var))
      ManifestKey.update(*V);
  }
  std::string ManifestName = toHex(ManifestKey.final(), /*LowerCase=*/true);
  ResultCache &Cache = *Settings.Cache;
  if (std::optional<InputManifest> M = Cache.lookupManifest(ManifestName))
    if (M->stillHolds(*FS)) {
      ++Cache.DirectHits;
      return M->ResultKey;
    }

  InputManifest Record;
  for (const CompileCommand &Command : Commands) {
    std::optional<std::string> Inputs =
        hashPreprocessedInputs(Command, File, FS, &Record);
    if (!Inputs)
      return std::nullopt;
    Key.update(*Inputs);
    Key.update(StringRef("\0", 1));
  }
  Record.ResultKey = toHex(Key.final(), /*LowerCase=*/true);
  if (!Record.Incomplete)
    Cache.storeManifest(ManifestName, Record);
  return Record.ResultKey;
}

/// Runs one unit; everything it touches is its own. This is runClangTidy
/// (ClangTidy.cpp) step for step, with one difference: the ClangTool does
/// not print "Error while processing <file>." on stderr, which would break
/// the one-line error contract (the compiler error itself still arrives as
/// a clang-diagnostic-error and is reported by the caller).
static UnitResult runUnit(const std::string &File,
                          const clang::tooling::CompilationDatabase &Database,
                          const ProviderFactory &MakeProvider,
                          const RunSettings &Settings) {
  using namespace clang::tooling;
  ClangTidyContext Context(MakeProvider(),
                           /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                           /*EnableModuleHeadersParsing=*/false,
                           /*ExperimentalCustomChecks=*/false);
  // Every fix carries what it needs (a declaration it uses): FixApplication
  // applies identical replacements once, whatever finding brought them.
  Context.setSelfContainedDiags(true);
  // A physical file system with its own working directory: the shared real
  // one would chdir the whole process when ClangTool enters a build dir.
  // Stamped, so --fix can tell a file that changed since it was read.
  auto Stamping = makeIntrusiveRefCnt<StampingFileSystem>(
      IntrusiveRefCntPtr<vfs::FileSystem>(vfs::createPhysicalFileSystem()));
  IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS(
      new vfs::OverlayFileSystem(Stamping));
  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true,
                                           /*GetFixesFromNotes=*/false);
  auto DiagOpts = std::make_unique<clang::DiagnosticOptions>();
  clang::DiagnosticsEngine DE(makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                              *DiagOpts, &DiagConsumer,
                              /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &DE);
  // A unit whose inputs, commands and configuration are those of an
  // earlier run gets that run's result; preprocessing it (to know its
  // inputs) also stamps what it reads, for --fix.
  std::optional<std::string> Key;
  if (Settings.Cache) {
    Key = unitCacheKey(File, Database, Context, FS, Settings);
    if (Key)
      if (std::optional<UnitResult> Hit = Settings.Cache->lookup(*Key)) {
        ++Settings.Cache->Hits;
        UnitResult R = std::move(*Hit);
        R.File = File;
        R.Seen = Stamping->takeStamps();
        R.FromCache = true;
        return R;
      }
  }
  UnitResult R;
  TidyActionFactory Factory(Context, FS, R);
  FirstErrorRecorder Recorder(DiagConsumer);
  for (const CompileCommand &Command : Database.getCompileCommands(File)) {
    SingleCommandDatabase Pass(Command);
    ClangTool Tool(Pass, {File},
                   std::make_shared<clang::PCHContainerOperations>(), FS);
    Tool.setPrintErrorMessage(false);
    Tool.appendArgumentsAdjuster(configExtraArgs(Context));
    Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
    Tool.setDiagnosticConsumer(&Recorder);
    Tool.run(&Factory);
  }
  std::vector<ClangTidyError> Errors = DiagConsumer.take();

  R.File = File;
  StringSet<> Seen;
  for (ClangTidyError &E : Errors)
    if (Seen.insert(errorKey(E)).second)
      R.Errors.push_back(std::move(E));
  R.FirstError = Recorder.indexIn(R.Errors);
  R.SuppressedNolint = Context.getStats().ErrorsIgnoredNOLINT;
  R.SuppressedNonUser = Context.getStats().ErrorsIgnoredNonUserCode;
  R.Seen = Stamping->takeStamps();
  if (Key) {
    ++Settings.Cache->Misses;
    Settings.Cache->store(*Key, R);
  }
  return R;
}

/// The reason of an LLVM fatal error in this thread's unit.
static thread_local std::string FatalReason;

void enableCrashRecovery() {
  CrashRecoveryContext::Enable();
  install_fatal_error_handler([](void *, const char *Reason, bool) {
    if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent()) {
      FatalReason = Reason;
      CRC->HandleExit(2); // Back to runUnits: this unit failed.
    }
    // Outside a unit: the one-line contract, never "LLVM ERROR".
    errs() << "warp-lint: error: internal error: " << Reason << "\n";
    errs().flush();
    _Exit(2);
  });
}

/// Runs one unit; a crash or fatal error inside becomes its InternalError.
static UnitResult runUnitSafely(const std::string &File,
                                const clang::tooling::CompilationDatabase &DB,
                                const ProviderFactory &MakeProvider,
                                const RunSettings &Settings) {
  UnitResult R;
  FatalReason.clear();
  // Frames a crashed unit pushed on the pretty stack are gone after the
  // jump back here.
  const void *StackState = SavePrettyStackState();
  CrashRecoveryContext CRC;
  if (CRC.RunSafely([&] { R = runUnit(File, DB, MakeProvider, Settings); }))
    return R;
  RestorePrettyStackState(StackState);
  // A crashed unit is not cached.
  UnitResult Failed;
  Failed.File = File;
  if (!FatalReason.empty())
    Failed.InternalError = "internal error: " + FatalReason;
  else if (CRC.RetCode > 128)
    Failed.InternalError = std::string("internal error: crashed (") +
                           strsignal(CRC.RetCode - 128) + ")";
  else
    Failed.InternalError = "internal error: the analysis stopped";
  return Failed;
}

std::vector<UnitResult>
runUnits(ArrayRef<std::string> Files,
         const clang::tooling::CompilationDatabase &Database,
         const ProviderFactory &MakeProvider, const RunSettings &Settings) {
  std::vector<UnitResult> Results(Files.size());
  std::mutex DoneLock;
  auto Work = [&](size_t I) {
    Results[I] = runUnitSafely(Files[I], Database, MakeProvider, Settings);
    if (!Settings.OnUnitDone)
      return;
    std::lock_guard<std::mutex> Lock(DoneLock);
    Settings.OnUnitDone(I, Results[I]);
  };
  if (Settings.Jobs <= 1 || Files.size() <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      Work(I);
  } else {
    DefaultThreadPool Pool(hardware_concurrency(Settings.Jobs));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&Work, I] { Work(I); });
    Pool.wait();
  }
  return Results;
}

} // namespace warplint
