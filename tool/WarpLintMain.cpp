//===--- WarpLintMain.cpp - the warp-lint command-line tool ---------------===//
///
/// \file The standalone front end: clang-tidy's runner with only the warp-
/// checks registered, plus CUDA-aware command lines, SARIF/JSON output,
/// parallel translation units and a strict exit-status contract
/// (docs/cli.md). Modelled on clang-tidy's ClangTidyMain.cpp.
///
//===----------------------------------------------------------------------===//

#include "Baseline.h"
#include "CompileCommands.h"
#include "CompileCommandsExport.h"
#include "ConfigLoading.h"
#include "CrossUnitLaunches.h"
#include "DiffFilter.h"
#include "Explain.h"
#include "FileWriting.h"
#include "FixApplication.h"
#include "Launcher.h"
#include "Output.h"
#include "ResultCache.h"
#include "RuleMetadata.h"
#include "RunResults.h"
#include "Runner.h"
#include "SarifMerge.h"
#include "Shards.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;
using namespace clang::tidy;
using namespace warplint;

static cl::OptionCategory Category("warp-lint options");

static cl::list<std::string> Inputs(cl::Positional, cl::desc("<files...>"),
                                    cl::cat(Category));
static cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory holding compile_commands.json"),
              cl::value_desc("build dir"), cl::cat(Category));
static cl::opt<std::string> Checks(
    "checks",
    cl::desc("Comma-separated globs of checks, appended to the configuration "
             "(default: warp-*)"),
    cl::cat(Category));
static cl::opt<std::string>
    Config("config", cl::desc("Configuration in YAML/JSON, as clang-tidy"),
           cl::cat(Category));
static cl::opt<std::string>
    ConfigFile("config-file", cl::desc("Path of a .clang-tidy style file"),
               cl::cat(Category));
static cl::opt<bool> Fix("fix", cl::desc("Apply suggested fixes"),
                         cl::cat(Category));
static cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("YAML file to store suggested fixes in"),
                cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string>
    Format("format", cl::desc("Output format: text, sarif or json"),
           cl::init("text"), cl::cat(Category));
static cl::opt<std::string>
    OutputFile("output",
               cl::desc("Write the report into this file instead of stdout"),
               cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> ExportCompileCommands(
    "export-compile-commands",
    cl::desc("Write the compile database of -p as clang reads it (nvcc "
             "commands translated) into <dir>/compile_commands.json, and "
             "exit"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string>
    SarifRoot("sarif-root",
              cl::desc("Directory SARIF URIs are relative to (default: the "
                       "git work tree, else the current directory)"),
              cl::cat(Category));
static cl::opt<std::string>
    Jobs("j",
         cl::desc("Translation units analysed in parallel (0: one per "
                  "core)"),
         cl::init("1"), cl::value_desc("N"), cl::Prefix, cl::cat(Category));
static cl::opt<std::string>
    CudaPath("cuda-path", cl::desc("CUDA toolkit (default: detected)"),
             cl::cat(Category));
static cl::opt<std::string>
    GpuArch("cuda-gpu-arch",
            cl::desc("GPU architecture analysed (default: sm_90, or the "
                     "compile database's)"),
            cl::init(DefaultGpuArch.str()), cl::cat(Category));
static cl::opt<bool>
    HostPass("host-pass",
             cl::desc("Also analyse the host pass (--cuda-host-only)"),
             cl::cat(Category));
static cl::opt<std::string> DocBaseUrl(
    "doc-base-url",
    cl::desc("Base of each SARIF rule's helpUri: <base><check-id>.md "
             "(default: the project's docs/checks/)"),
    cl::value_desc("url"), cl::cat(Category));
static cl::opt<std::string>
    ShardOpt("shard",
             cl::desc("Lint only shard i of n of the units (1 <= i <= n)"),
             cl::value_desc("i/n"), cl::cat(Category));
static cl::opt<std::string> DiffBase(
    "diff-base",
    cl::desc("Report only findings on lines changed since this git revision "
             "(a note on a changed line counts)"),
    cl::value_desc("rev"), cl::cat(Category));
static cl::opt<std::string> BaselineFile(
    "baseline",
    cl::desc("Do not report findings recorded in this earlier warp-lint "
             "SARIF (matched by partialFingerprints)"),
    cl::value_desc("file.sarif"), cl::cat(Category));
static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep unit results here and reuse them while a unit's inputs, "
             "flags and configuration are unchanged (default with -p: "
             "<build dir>/.warp-lint/cache)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string>
    CacheSize("cache-size",
              cl::desc("Size cap of the result cache; the least recently "
                       "used entries go first (default 512M)"),
              cl::init("512M"), cl::value_desc("N[K|M|G]"), cl::cat(Category));
static cl::opt<bool> NoCache("no-cache", cl::desc("Use no result cache"),
                             cl::cat(Category));
static cl::opt<bool> Stats("cache-stats",
                           cl::desc("Print cache statistics on stderr"),
                           cl::cat(Category));
static cl::opt<bool> LauncherFailOnFindings(
    "launcher-fail-on-findings",
    cl::desc("With --launcher: fail the compile (status 1) when the unit has "
             "findings"),
    cl::cat(Category));
static cl::opt<std::string>
    Merge("merge",
          cl::desc("Merge the *.warp-lint.sarif files --launcher wrote under "
                   "this directory into one SARIF log, and exit"),
          cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Print no statistics"),
                           cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit"),
                                cl::cat(Category));
static cl::opt<std::string>
    ExplainAt("explain",
              cl::desc("Print why the analysis believes what it does about "
                       "the collective, atomic or branch at FILE:LINE[:COL] "
                       "(text or --format=json), then exit"),
              cl::value_desc("file:line[:col]"), cl::cat(Category));
static cl::opt<bool>
    DumpConfig("dump-config",
               cl::desc("Print the effective configuration and exit"),
               cl::cat(Category));

/// Prints the one-line error of the exit-status contract; returns 2.
static int usageError(const Twine &Message) {
  errs() << "warp-lint: error: " << Message << "\n";
  return 2;
}

/// Returns \p Path absolute and without dots.
static std::string absolute(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// Returns how many input files may be locked up front: the descriptors
/// left (the soft limit raised to the hard one) after a margin for the
/// analysis itself.
static size_t upFrontLockBudget() {
  struct rlimit Limit;
  if (getrlimit(RLIMIT_NOFILE, &Limit) != 0)
    return 0;
  if (Limit.rlim_cur < Limit.rlim_max) {
    Limit.rlim_cur = Limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &Limit);
    getrlimit(RLIMIT_NOFILE, &Limit);
  }
  return Limit.rlim_cur > 512 ? size_t(Limit.rlim_cur - 512) : 0;
}

/// Returns \p Status, or exits with it at once when a unit crashed: what the
/// crashed unit left registered (a timer on its lost stack) would crash or
/// print at shutdown.
static int finish(int Status, const RunResults &Results) {
  if (llvm::none_of(Results.Failures, [](const UnitFailure &F) {
        return !F.InternalError.empty();
      }))
    return Status;
  outs().flush();
  errs().flush();
  sys::Process::Exit(Status, /*NoCleanup=*/true);
}

/// Writes the clang-ready compile database into \p Dir.
static int exportDatabase(StringRef Dir, StringRef BuildPath,
                          const clang::tooling::CompilationDatabase &Database,
                          ArrayRef<std::string> Files, CommandSettings CS) {
  // The tool reading it knows its own resource directory.
  CS.ResourceDir.clear();
  Expected<json::Value> Doc = exportCompileCommands(Database, Files, CS);
  if (!Doc)
    return usageError(toString(Doc.takeError()));
  SmallString<256> Out(Dir);
  sys::path::append(Out, "compile_commands.json");
  SmallString<256> In(BuildPath);
  if (sys::path::filename(BuildPath) != "compile_commands.json" ||
      sys::fs::is_directory(BuildPath))
    sys::path::append(In, "compile_commands.json");
  if (sys::fs::equivalent(In, Out))
    return usageError("--export-compile-commands would overwrite the "
                      "database it reads (" +
                      In + "): give another folder");
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return usageError("cannot create " + Dir + ": " + EC.message());
  if (Error E = writeFile(Out, formatv("{0:2}", *Doc).str() + "\n"))
    return usageError(toString(std::move(E)));
  return 0;
}

/// --merge: the per-unit SARIF files as one log, on stdout or --output.
static int mergeReports(bool StdoutClosed) {
  Expected<MergedSarif> M = mergeSarifDir(Merge);
  if (!M)
    return usageError(toString(M.takeError()));
  std::string Text = formatv("{0:2}", M->Log).str() + "\n";
  if (!OutputFile.empty()) {
    if (Error E = writeFile(OutputFile, Text))
      return usageError(toString(std::move(E)));
  } else {
    outs() << Text;
    outs().flush();
    if (outs().has_error() || StdoutClosed) {
      outs().clear_error();
      return usageError("cannot write the report to stdout");
    }
  }
  if (!Quiet)
    errs() << "warp-lint: merged " << M->Files << " SARIF file"
           << (M->Files == 1 ? "" : "s") << ", " << M->Results << " result"
           << (M->Results == 1 ? "" : "s") << "\n";
  if (!M->Complete)
    return usageError("a unit merged was not analysed whole (see the "
                      "log's toolExecutionNotifications)");
  return M->Results ? 1 : 0;
}

static int lintMain(std::vector<const char *> Args, bool StdoutClosed);

int main(int argc, const char **argv) {
  // InitLLVM puts /dev/null on a closed stdout: a report must then fail in
  // one line, not vanish.
  bool StdoutClosed = fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF;
  InitLLVM X(argc, argv);
  // A reader that went away is a write error (EPIPE), reported in one line,
  // not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  enableCrashRecovery();
  std::vector<const char *> Args(argv, argv + argc);
  // Launcher mode: everything after --launcher is the compile command. It
  // is linted as the one entry of a compile database, then run.
  auto LauncherArg = llvm::find_if(
      Args, [](const char *A) { return StringRef(A) == "--launcher"; });
  if (LauncherArg == Args.end())
    return lintMain(Args, StdoutClosed);
  std::vector<std::string> Command(LauncherArg + 1, Args.end());
  Args.erase(LauncherArg, Args.end());
  Expected<LauncherCompile> Compile = prepareLauncherCompile(Command);
  if (!Compile) {
    if (Command.empty())
      return usageError(toString(Compile.takeError()));
    // Never stand in the way of the build for what the lint cannot use.
    errs() << "warp-lint: warning: " << toString(Compile.takeError())
           << "; compiling without linting\n";
    LauncherCompile Plain;
    Plain.Command = Command;
    return execCompiler(Plain);
  }
  std::string Report = Compile->Object + ".warp-lint.sarif";
  bool OwnCache = llvm::any_of(Args, [](const char *A) {
    return StringRef(A).starts_with("--cache-dir") ||
           StringRef(A).starts_with("-cache-dir");
  });
  std::vector<std::string> Added = {"-p", Compile->DatabaseDir,
                                    "--format=sarif", "--output=" + Report,
                                    "--quiet"};
  // The database is temporary: a cache there would never be hit again.
  if (!OwnCache)
    Added.push_back("--no-cache");
  Added.push_back(Compile->Source);
  for (const std::string &A : Added)
    Args.push_back(A.c_str());
  int Status = lintMain(Args, StdoutClosed);
  removeLauncherDatabase(*Compile);
  if (Status == 1) {
    errs() << "warp-lint: " << Compile->Source << ": findings in " << Report
           << "\n";
    if (LauncherFailOnFindings)
      return 1;
  } else if (Status == 2) {
    errs() << "warp-lint: warning: " << Compile->Source
           << " was not linted whole; compiling it anyway\n";
  }
  return execCompiler(*Compile);
}

/// Moves everything after `--` (the compiler's arguments, as with
/// clang-tidy) from \p Args into \p CompilerArgs; returns whether there was
/// a `--`.
static bool takeCompilerArgs(std::vector<const char *> &Args,
                             std::vector<std::string> &CompilerArgs) {
  auto DashDash =
      llvm::find_if(Args, [](const char *A) { return StringRef(A) == "--"; });
  if (DashDash == Args.end())
    return false;
  CompilerArgs.assign(DashDash + 1, Args.end());
  Args.erase(DashDash, Args.end());
  return true;
}

/// --version: the tool, the LLVM it is built on and the CUDA toolkit found.
static void printVersion(raw_ostream &OS) {
  OS << "warp-lint " << WARP_LINT_VERSION << "\n  LLVM " << LLVM_VERSION_STRING
     << "\n  CUDA ";
  CudaInstall Cuda =
      inspectCudaInstall(findCudaPath(CudaSearchEnv::fromProcess(CudaPath)));
  if (Cuda.Path.empty())
    OS << "not found";
  else if (Cuda.Nvcc)
    OS << Cuda.Nvcc->Major << "." << Cuda.Nvcc->Minor
       << (Cuda.Nvcc->Build ? "." + std::to_string(*Cuda.Nvcc->Build) : "")
       << " (" << Cuda.Path << ")";
  else if (Cuda.HeaderVersion)
    OS << Cuda.HeaderVersion->Major << "." << Cuda.HeaderVersion->Minor << " ("
       << Cuda.Path << ")";
  else
    OS << "unknown version (" << Cuda.Path << ")";
  OS << "\n";
}

/// Parses \p Args into the options; the error is LLVM's first line, without
/// the program name.
static Error parseCommandLine(std::vector<const char *> &Args) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  raw_string_ostream ParseErrorStream(ParseErrors);
  if (cl::ParseCommandLineOptions(
          Args.size(), Args.data(),
          "warp-lint: finds warp-level synchronization bugs in CUDA C++\n\n"
          "  warp-lint [options] <files...> [-- <compiler args>]\n",
          &ParseErrorStream))
    return Error::success();
  StringRef First = StringRef(ParseErrors).split('\n').first;
  First.consume_front(sys::path::filename(Args[0]));
  First.consume_front(": ");
  return createStringError(First.trim());
}

namespace {
/// What the options ask of a run, read and checked before any unit runs: a
/// missing baseline or a bad revision is a usage error before minutes of
/// analysis.
struct Request {
  OutputFormat Format = OutputFormat::Text;
  unsigned Jobs = 1;
  std::optional<Shard> OneShard;
  std::optional<Baseline> Base;
  uint64_t CacheCap = 0;
  std::optional<ChangedLines> Changed;
};

/// The checks a run enables and their configuration.
struct CheckSetup {
  ProviderFactory MakeProvider;
  ClangTidyOptions Effective;
  std::vector<std::string> Enabled;
};
} // namespace

static Expected<Request> readRequest() {
  if (ExportCompileCommands.getNumOccurrences() &&
      !BuildPath.getNumOccurrences())
    return createStringError("--export-compile-commands needs -p <build dir>");
  Request R;
  Expected<OutputFormat> Fmt = parseFormat(Format);
  if (!Fmt)
    return Fmt.takeError();
  R.Format = *Fmt;
  Expected<unsigned> NumJobs = parseJobs(Jobs);
  if (!NumJobs)
    return NumJobs.takeError();
  R.Jobs = *NumJobs;
  if (ShardOpt.getNumOccurrences()) {
    Expected<Shard> S = parseShard(ShardOpt);
    if (!S)
      return S.takeError();
    R.OneShard = *S;
  }
  if (BaselineFile.getNumOccurrences()) {
    Expected<Baseline> B = Baseline::load(BaselineFile);
    if (!B)
      return B.takeError();
    R.Base = std::move(*B);
  }
  Expected<uint64_t> CacheCap = parseCacheSize(CacheSize);
  if (!CacheCap)
    return CacheCap.takeError();
  R.CacheCap = *CacheCap;
  if (DiffBase.getNumOccurrences()) {
    Expected<ChangedLines> C = ChangedLines::fromGit(DiffBase, ".");
    if (!C)
      return C.takeError();
    R.Changed = std::move(*C);
  }
  return R;
}

/// The checks and options in effect for \p ConfigFor (the first input).
static Expected<CheckSetup> readCheckSetup(StringRef ConfigFor) {
  ConfigInputs CI;
  if (Checks.getNumOccurrences())
    CI.Checks = Checks;
  if (Config.getNumOccurrences())
    CI.Config = Config;
  if (ConfigFile.getNumOccurrences())
    CI.ConfigFile = ConfigFile;
  Expected<ProviderFactory> MakeProvider = makeProviderFactory(CI);
  if (!MakeProvider)
    return MakeProvider.takeError();
  if (Error E = validateCheckList(Checks,
                                  getAllChecksAndOptions(false, false).Checks))
    return std::move(E);
  CheckSetup Setup;
  Setup.MakeProvider = std::move(*MakeProvider);
  Setup.Effective = Setup.MakeProvider()->getOptions(ConfigFor);
  if (Error E = takeConfigFileError())
    return std::move(E);
  Setup.Enabled = getCheckNames(Setup.Effective, false, false);
  if (Setup.Enabled.empty())
    return createStringError("the check list enables no known check "
                             "(--checks='" +
                             Setup.Effective.Checks.value_or("") + "')");
  return Setup;
}

/// --list-checks or --dump-config.
static int printCheckSetup(CheckSetup &Setup) {
  if (ListChecks) {
    outs() << "Enabled checks:";
    for (const std::string &C : Setup.Enabled)
      outs() << "\n    " << C;
    outs() << "\n\n";
    return 0;
  }
  Setup.Effective.CheckOptions = getCheckOptions(Setup.Effective, false, false);
  ClangTidyOptions Dump =
      ClangTidyOptions::getDefaults().merge(Setup.Effective, 0);
  filterCheckOptions(Dump, Setup.Enabled);
  outs() << configurationAsText(Dump) << "\n";
  return 0;
}

/// Checks that each input exists and is a regular file, before anything
/// opens it: a FIFO blocks, /dev/zero never ends. \p Named are the inputs as
/// the user spelled them, for the messages.
static Error checkInputs(ArrayRef<std::string> Files,
                         ArrayRef<std::string> Named) {
  for (size_t I = 0; I < Files.size(); ++I) {
    if (!sys::fs::exists(Files[I]))
      return createStringError("no such file: " + Named[I]);
    if (Error E = checkRegularFile(Files[I]))
      return createStringError("cannot read " + Named[I] + ": " +
                               toString(std::move(E)));
  }
  return Error::success();
}

/// How compile commands are made for units: the CUDA toolkit, the GPU
/// architecture and the arguments after `--`.
static Expected<CommandSettings>
commandSettings(ArrayRef<std::string> CompilerArgs, bool HaveDashDash) {
  if (CudaPath.getNumOccurrences() && !sys::fs::is_directory(CudaPath))
    return createStringError("no CUDA toolkit at --cuda-path=" + CudaPath);
  CommandSettings CS;
  CS.Cuda =
      inspectCudaInstall(findCudaPath(CudaSearchEnv::fromProcess(CudaPath)));
  CS.GpuArch = GpuArch;
  CS.GpuArchFromUser = GpuArch.getNumOccurrences() > 0;
  CS.HostPass = HostPass;
  CS.ResourceDir = WARP_LINT_CLANG_RESOURCE_DIR;
  CS.ExtraArgs = CompilerArgs;
  CS.HaveDashDash = HaveDashDash;
  return CS;
}

/// With no input named, every `.cu` unit of \p Database; each must be
/// readable.
static Error unitsFromDatabase(const clang::tooling::CompilationDatabase &DB,
                               std::vector<std::string> &Files) {
  if (Files.empty())
    Files = cudaFilesOf(DB);
  if (Files.empty())
    return createStringError("no .cu file in " + BuildPath +
                             "/compile_commands.json");
  for (const std::string &F : Files)
    if (Error E = checkRegularFile(F))
      return createStringError(
          "cannot read " + F + " (from " + BuildPath +
          "/compile_commands.json): " + toString(std::move(E)));
  return Error::success();
}

/// Two `--fix` runs on one file take turns: the second analyses what the
/// first wrote. Sorted, so runs over overlapping files cannot deadlock.
/// Each lock holds a descriptor to the end: a run over more files than
/// descriptors allow locks at write time only (the stamps still refuse a
/// file another run changed meanwhile).
static Error lockFilesToFix(ArrayRef<std::string> Files) {
  if (Files.size() > upFrontLockBudget())
    return Error::success();
  std::vector<std::string> ToLock(Files.begin(), Files.end());
  llvm::sort(ToLock);
  for (const std::string &F : ToLock)
    if (Error E = lockFile(F, std::nullopt))
      return E;
  return Error::success();
}

/// Runs every unit. With a build dir, kernels launched only in other units
/// get those launches (and those an earlier run over this build saw), and
/// results are cached.
static RunResults lintUnits(ArrayRef<std::string> Files,
                            const clang::tooling::CompilationDatabase &Commands,
                            const CheckSetup &Setup, const Request &Req,
                            bool HaveDatabase) {
  RunSettings RS;
  RS.Jobs = Req.Jobs;
  RS.Progress = sys::Process::StandardErrIsDisplayed();
  CrossUnitLaunches Launches;
  if (HaveDatabase)
    Launches.load(BuildPath);
  std::optional<ResultCache> Cache;
  if (!NoCache && (CacheDir.getNumOccurrences() || HaveDatabase)) {
    SmallString<256> Dir(CacheDir);
    if (Dir.empty()) {
      Dir = BuildPath;
      if (!sys::fs::is_directory(Dir))
        Dir = sys::path::parent_path(Dir);
      sys::path::append(Dir, ".warp-lint", "cache");
    }
    Cache.emplace(absolute(Dir), Req.CacheCap);
    RS.Cache = &*Cache;
    RS.ToolVersion = WARP_LINT_VERSION;
  }
  // With a cache, what each unit tells the ledger is recorded with its
  // result and replayed when the result is reused.
  LedgerTap Tap(&Launches);
  clang::warp::setLaunchLedger(
      Cache ? static_cast<clang::warp::LaunchLedger *>(&Tap) : &Launches);
  RunResults Results =
      mergeUnits(runUnits(Files, Commands, Setup.MakeProvider, RS));
  clang::warp::setLaunchLedger(nullptr);
  Launches.dropResolved(Results.Diagnostics);
  if (HaveDatabase)
    if (Error E = Launches.save(BuildPath))
      errs() << "warp-lint: warning: launches not kept: "
             << toString(std::move(E)) << "\n";
  if (Cache) {
    uint64_t Kept = Cache->trim();
    if (Stats)
      errs() << formatv(
          "warp-lint: cache: {0} hit{1}, {2} miss{3}, {4} "
          "stored, {5} evicted; {6} KiB of {7} KiB in {8}; {9} of the "
          "hits without preprocessing\n",
          Cache->Hits.load(), Cache->Hits == 1 ? "" : "s", Cache->Misses.load(),
          Cache->Misses == 1 ? "" : "es", Cache->Stored.load(),
          Cache->Evicted.load(), (Kept + 1023) / 1024, Req.CacheCap / 1024,
          Cache->dir(), Cache->DirectHits.load());
  } else if (Stats) {
    errs() << "warp-lint: cache: off\n";
  }
  return Results;
}

/// Applies the fixes of \p Results; returns whether a write failed.
static bool applyFixes(const RunResults &Results, ClangTidyContext &Context) {
  FixPlan Plan = planFixes(Results.Diagnostics);
  FixOutcome Done = applyFixPlan(Plan, Results.Seen, Context);
  for (const std::string &Line : Plan.LeftOut)
    errs() << "warp-lint: note: " << Line << "\n";
  for (const std::string &Line : Done.Failures)
    usageError(Line);
  bool WriteFailed = !Done.Failures.empty();
  if (!Quiet && Plan.Fixes && !WriteFailed)
    errs() << formatv("warp-lint: applied {0} of {1} suggested fixes ({2} "
                      "file{3} written)\n",
                      Plan.Planned, Plan.Fixes, Done.FilesWritten,
                      Done.FilesWritten == 1 ? "" : "s");
  return WriteFailed;
}

/// The closing notes on stderr: what was suppressed or filtered out, and
/// that default flags were used.
static void printSummary(const RunResults &Results, unsigned InBaseline,
                         unsigned Unchanged, bool HaveDatabase,
                         bool HaveDashDash) {
  if (Quiet)
    return;
  unsigned Nolint = Results.SuppressedNolint,
           NonUser = Results.SuppressedNonUser;
  if (Nolint + NonUser)
    errs() << "Suppressed " << Nolint + NonUser << " findings (" << Nolint
           << " NOLINT, " << NonUser << " in non-user code).\n";
  if (InBaseline)
    errs() << "warp-lint: note: " << InBaseline
           << " finding(s) recorded in the baseline not reported\n";
  if (Unchanged)
    errs() << "warp-lint: note: " << Unchanged
           << " finding(s) on lines not changed since " << DiffBase
           << " not reported\n";
  // Without the build's flags (includes, defines, arch) results can differ
  // from the real build: say so once, and how to give them.
  if (!HaveDatabase && !HaveDashDash)
    errs() << "warp-lint: note: no compilation database; used default CUDA "
              "flags ("
           << GpuArch
           << "). For your build's flags: cmake -B "
              "build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, then warp-lint -p "
              "build (pre-commit: args: [-p, build])\n";
}

/// The analysis options the enabled checks run with: WarpAlignedBlockDimX
/// of the first enabled check that sets it, else the global one.
static clang::warp::UniformityOptions analysisOptions(const CheckSetup &Setup) {
  clang::warp::UniformityOptions O;
  const ClangTidyOptions::OptionMap &Opts = Setup.Effective.CheckOptions;
  auto Set = [&](StringRef Key) {
    auto It = Opts.find(Key);
    if (It == Opts.end())
      return false;
    StringRef V = It->getValue().Value;
    O.ThreadIdxYZUniform = V.equals_insensitive("true") || V == "1";
    return true;
  };
  for (const std::string &C : Setup.Enabled)
    if (Set(C + ".WarpAlignedBlockDimX"))
      return O;
  Set("WarpAlignedBlockDimX");
  return O;
}

/// --explain: the analysis' reasons at one place, as text or JSON.
static int explainMain(const ExplainTarget &Target,
                       const clang::tooling::CompilationDatabase &Commands,
                       const CheckSetup &Setup, const Request &Req,
                       StringRef Spec, bool StdoutClosed) {
  if (Req.Format == OutputFormat::Sarif)
    return usageError("--explain prints text or --format=json");
  ExplainResult R = explain(Commands, Target, analysisOptions(Setup));
  if (R.Explanations.empty())
    return usageError("no collective, atomic, branch or expression of a "
                      "device function starts at " +
                      Spec);
  std::string Text;
  raw_string_ostream OS(Text);
  if (Req.Format == OutputFormat::Json)
    OS << formatv("{0:2}", explanationsToJson(R)) << "\n";
  else
    printExplanations(OS, R);
  if (!OutputFile.empty()) {
    if (Error E = writeFile(OutputFile, Text))
      return usageError(toString(std::move(E)));
    return 0;
  }
  outs() << Text;
  outs().flush();
  if (outs().has_error() || StdoutClosed) {
    outs().clear_error();
    return usageError("cannot write the explanation to stdout");
  }
  return 0;
}

static int lintMain(std::vector<const char *> Args, bool StdoutClosed) {
  std::vector<std::string> CompilerArgs;
  bool HaveDashDash = takeCompilerArgs(Args, CompilerArgs);
  if (Error E = parseCommandLine(Args))
    return usageError(toString(std::move(E)));
  if (Merge.getNumOccurrences())
    return mergeReports(StdoutClosed);
  Expected<Request> Req = readRequest();
  if (!Req)
    return usageError(toString(Req.takeError()));

  std::vector<std::string> Files;
  std::vector<std::string> Named; // As the user spelled them, for messages.
  for (const std::string &In : Inputs)
    if (llvm::find(Files, absolute(In)) == Files.end()) {
      Files.push_back(absolute(In));
      Named.push_back(In);
    }
  Expected<CheckSetup> Setup =
      readCheckSetup(Files.empty() ? absolute("dummy.cu") : Files.front());
  if (!Setup)
    return usageError(toString(Setup.takeError()));
  if (ListChecks || DumpConfig)
    return printCheckSetup(*Setup);
  std::optional<ExplainTarget> Target;
  if (ExplainAt.getNumOccurrences()) {
    Expected<ExplainTarget> T = parseExplainTarget(ExplainAt);
    if (!T)
      return usageError(toString(T.takeError()));
    Target = std::move(*T);
    Files = {Target->File};
    Named = {Target->Spelled};
  }
  if (Error E = checkInputs(Files, Named))
    return usageError(toString(std::move(E)));
  Expected<CommandSettings> CS = commandSettings(CompilerArgs, HaveDashDash);
  if (!CS)
    return usageError(toString(CS.takeError()));

  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (BuildPath.getNumOccurrences()) {
    auto DB = loadCompileDatabase(BuildPath, nvccBuildFlags(CS->Cuda));
    if (!DB)
      return usageError(toString(DB.takeError()));
    Database = std::move(*DB);
    if (ExportCompileCommands.getNumOccurrences())
      return exportDatabase(ExportCompileCommands, BuildPath, *Database, Files,
                            *CS);
    if (Error E = unitsFromDatabase(*Database, Files))
      return usageError(toString(std::move(E)));
  }
  if (Files.empty())
    return usageError("no input files (give files or -p <build dir>)");
  if (Req->OneShard) {
    Files = selectShard(Files, *Req->OneShard);
    // More shards than units: this one has nothing to do, which is not an
    // error for a CI matrix.
    if (Files.empty()) {
      if (!Quiet)
        errs() << "warp-lint: note: shard " << ShardOpt << " has no units\n";
      return 0;
    }
  }
  // Every .clang-tidy that applies, read before any unit runs: a broken one
  // is a usage error, reported once.
  {
    std::unique_ptr<ClangTidyOptionsProvider> Check = Setup->MakeProvider();
    for (const std::string &F : Files)
      Check->getOptions(F);
    if (Error E = takeConfigFileError())
      return usageError(toString(std::move(E)));
  }
  auto Commands = computeCommands(Files, Database.get(), *CS);
  if (!Commands)
    return usageError(toString(Commands.takeError()));

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();
  if (Target)
    return explainMain(*Target, **Commands, *Setup, *Req, ExplainAt,
                       StdoutClosed);
  if (Fix)
    if (Error E = lockFilesToFix(Files))
      return usageError(toString(std::move(E)));

  RunResults Results =
      lintUnits(Files, **Commands, *Setup, *Req, Database != nullptr);
  bool Failed = !Results.Failures.empty();
  std::string Root =
      SarifRoot.getNumOccurrences() ? absolute(SarifRoot) : defaultSarifRoot();
  // Numbered over every finding, before the filters: the fingerprints of
  // the findings reported are those a full run gives them.
  Results.computeFingerprints();
  unsigned InBaseline =
      Req->Base ? dropBaselined(Results, *Req->Base, Root) : 0;
  unsigned Unchanged =
      Req->Changed ? keepChangedFindings(Results, *Req->Changed) : 0;

  ClangTidyContext ReportContext(Setup->MakeProvider(), false, false, false);
  ReportContext.setCurrentFile(Files.front());
  OutputSettings OS;
  OS.Format = Req->Format;
  OS.OutputFile = OutputFile;
  OS.StdoutClosed = StdoutClosed;
  // No partial writes: a unit not analysed whole blocks every fix.
  OS.ExportFixes = Failed ? std::string() : ExportFixes.getValue();
  OS.SarifRoot = Root;
  OS.RuleIds = Setup->Enabled;
  OS.ToolVersion = WARP_LINT_VERSION;
  OS.DocBaseUrl = DocBaseUrl;
  if (Error E = report(Results, ReportContext, OS))
    return usageError(toString(std::move(E)));
  for (const UnitFailure &F : Results.Failures)
    usageError(F.describe());

  bool WriteFailed = Fix && !Failed && applyFixes(Results, ReportContext);
  if (Failed || WriteFailed)
    return finish(2, Results);
  printSummary(Results, InBaseline, Unchanged, Database != nullptr,
               HaveDashDash);
  return finish(Results.hasFindings() ? 1 : 0, Results);
}
