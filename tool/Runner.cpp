//===--- Runner.cpp - clang-tidy over many translation units --------------===//

#include "Runner.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
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
                    IntrusiveRefCntPtr<vfs::OverlayFileSystem> FS)
      : ConsumerFactory(Context, std::move(FS)) {}

  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<Action>(&ConsumerFactory);
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
    Action(ClangTidyASTConsumerFactory *Factory) : Factory(Factory) {}
    std::unique_ptr<clang::ASTConsumer>
    CreateASTConsumer(clang::CompilerInstance &Compiler,
                      StringRef File) override {
      return Factory->createASTConsumer(Compiler, File);
    }

  private:
    ClangTidyASTConsumerFactory *Factory;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
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

/// Runs one unit; everything it touches is its own. This is runClangTidy
/// (ClangTidy.cpp) step for step, with one difference: the ClangTool does
/// not print "Error while processing <file>." on stderr, which would break
/// the one-line error contract (the compiler error itself still arrives as
/// a clang-diagnostic-error and is reported by the caller).
static UnitResult runUnit(const std::string &File,
                          const clang::tooling::CompilationDatabase &Database,
                          const ProviderFactory &MakeProvider) {
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
  TidyActionFactory Factory(Context, FS);
  for (const CompileCommand &Command : Database.getCompileCommands(File)) {
    SingleCommandDatabase Pass(Command);
    ClangTool Tool(Pass, {File},
                   std::make_shared<clang::PCHContainerOperations>(), FS);
    Tool.setPrintErrorMessage(false);
    Tool.appendArgumentsAdjuster(configExtraArgs(Context));
    Tool.appendArgumentsAdjuster(getStripPluginsAdjuster());
    Tool.setDiagnosticConsumer(&DiagConsumer);
    Tool.run(&Factory);
  }
  std::vector<ClangTidyError> Errors = DiagConsumer.take();

  UnitResult R;
  R.File = File;
  StringSet<> Seen;
  for (ClangTidyError &E : Errors)
    if (Seen.insert(errorKey(E)).second)
      R.Errors.push_back(std::move(E));
  R.SuppressedNolint = Context.getStats().ErrorsIgnoredNOLINT;
  R.SuppressedNonUser = Context.getStats().ErrorsIgnoredNonUserCode;
  R.Seen = Stamping->takeStamps();
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
                                const ProviderFactory &MakeProvider) {
  UnitResult R;
  FatalReason.clear();
  // Frames a crashed unit pushed on the pretty stack are gone after the
  // jump back here.
  const void *StackState = SavePrettyStackState();
  CrashRecoveryContext CRC;
  if (CRC.RunSafely([&] { R = runUnit(File, DB, MakeProvider); }))
    return R;
  RestorePrettyStackState(StackState);
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
  std::mutex ProgressLock;
  size_t Done = 0;
  auto Work = [&](size_t I) {
    Results[I] = runUnitSafely(Files[I], Database, MakeProvider);
    if (!Settings.Progress)
      return;
    std::lock_guard<std::mutex> Lock(ProgressLock);
    errs() << "\r\x1b[K[" << ++Done << "/" << Files.size() << "] "
           << sys::path::filename(Files[I]);
    errs().flush();
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
  if (Settings.Progress)
    errs() << "\r\x1b[K";
  return Results;
}

} // namespace warplint
