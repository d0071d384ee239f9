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
#include "FailThreshold.h"
#include "FileWriting.h"
#include "FindingGate.h"
#include "FixApplication.h"
#include "FixReport.h"
#include "Launcher.h"
#include "Output.h"
#include "PathFilter.h"
#include "Progress.h"
#include "ProjectFile.h"
#include "ResultCache.h"
#include "RuleMetadata.h"
#include "RunResults.h"
#include "Runner.h"
#include "SarifMerge.h"
#include "Shards.h"
#include "StreamingReport.h"
#include "Summary.h"
#include "TextReport.h"
#include "UnifiedDiff.h"
#include "WarpOptions.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include <chrono>
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
static cl::opt<bool>
    DryRun("dry-run",
           cl::desc("With --fix: write nothing, print the changes as a "
                    "unified diff on stdout"),
           cl::cat(Category));
static cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("YAML file to store suggested fixes in"),
                cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string>
    Format("format", cl::desc("Output format: text, sarif, json or html"),
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
         cl::desc("Translation units analysed in parallel (default 0: one "
                  "per core)"),
         cl::init("0"), cl::value_desc("N"), cl::Prefix, cl::cat(Category));
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
static cl::opt<bool>
    Quiet("quiet", cl::desc("Print no progress, summary, statistics or notes"),
          cl::cat(Category));
static cl::list<std::string>
    Exclude("exclude",
            cl::desc("Leave out units and findings whose file matches this "
                     "pattern (.gitignore style, relative to the project "
                     "root; repeatable)"),
            cl::value_desc("pattern"), cl::cat(Category));
static cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regular expression of the headers whose findings are shown "
             "(clang-tidy's HeaderFilterRegex)"),
    cl::value_desc("regex"), cl::cat(Category));
static cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Checks (globs) whose findings are errors, as clang-tidy's "
             "WarningsAsErrors (appended to the configuration's)"),
    cl::value_desc("globs"), cl::cat(Category));
static cl::opt<std::string> FailOn(
    "fail-on",
    cl::desc("Which findings make the exit status 1: any (default), never, "
             "a level (error, warning, note) or a tier (proven, "
             "conditional, data, potential) and those above it"),
    cl::init("any"), cl::value_desc("threshold"), cl::cat(Category));
static cl::opt<std::string>
    Tiers("tiers",
          cl::desc("Tiers every warp- check reports (its option Tiers): "
                   "comma-separated proven, conditional, data, potential "
                   "(default: proven,conditional,data)"),
          cl::value_desc("list"), cl::cat(Category));
static cl::opt<std::string> ProgressOpt(
    "progress",
    cl::desc("Progress on stderr: auto (a line rewritten on a terminal, "
             "lines in a log), lines, or none"),
    cl::init("auto"), cl::value_desc("auto|lines|none"), cl::cat(Category));
static cl::opt<bool> StableOrder(
    "stable-order",
    cl::desc("Print each unit's findings in input order (not as units "
             "finish), whatever -j is"),
    cl::cat(Category));
static cl::opt<std::string> ProjectFileOpt(
    "project-file",
    cl::desc("The project file of warp-lint's own options (default: the "
             "closest .warp-lint.yaml at or above the current directory)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> NoProjectFile("no-project-file",
                                   cl::desc("Read no .warp-lint.yaml"),
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

// After the options in --help, and so in the man page made from it.
static cl::extrahelp Epilogue(R"(
EXIT STATUS:
  0  no findings (none at or above --fail-on)
  1  findings at or above --fail-on (any finding by default)
  2  the run did not complete: a usage or input error (nothing analysed), a
     unit missing, unreadable, not compiling or crashed (the other units are
     reported), a file that could not be written; one line on stderr each

FILES:
  .warp-lint.yaml  warp-lint's own options for a project, the closest at or
     above the current directory (keys: the long option names)
  .clang-tidy  the checks' configuration, the closest above each file
  <build>/compile_commands.json  the compile database -p reads
  <build>/.warp-lint/cache  the result cache of -p
)");

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

/// What launcher mode tells the lint of its one unit.
static struct {
  bool Active = false;
  std::string Source, Object;
} Launcher;

/// The units of the compile database \p BuildPath names, for --merge.
static Expected<BuildUnits> buildUnitsOf(StringRef BuildPath) {
  Expected<std::unique_ptr<clang::tooling::CompilationDatabase>> DB =
      loadCompileDatabase(BuildPath);
  if (!DB)
    return DB.takeError();
  BuildUnits Units;
  for (const clang::tooling::CompileCommand &C :
       (*DB)->getAllCompileCommands()) {
    auto Resolve = [&](StringRef Path) {
      SmallString<256> Abs(Path);
      if (sys::path::is_relative(Abs))
        sys::path::make_absolute(C.Directory, Abs);
      sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
      return Abs.str().str();
    };
    Units.Sources.insert(Resolve(C.Filename));
    if (!C.Output.empty()) {
      std::string Out = Resolve(C.Output);
      Units.Objects.insert(Out);
      SmallString<256> Real;
      if (!sys::fs::real_path(Out, Real))
        Units.Objects.insert(Real);
    }
  }
  return Units;
}

/// --merge: the per-unit SARIF files as one log, on stdout or --output.
/// With the build's compile database (-p, or one in the merged directory),
/// only the units it still compiles.
static int mergeReports(bool StdoutClosed) {
  std::string From = BuildPath;
  if (From.empty()) {
    SmallString<256> InDir(Merge);
    sys::path::append(InDir, "compile_commands.json");
    if (sys::fs::exists(InDir))
      From = Merge;
  }
  std::optional<BuildUnits> Units;
  if (!From.empty()) {
    Expected<BuildUnits> U = buildUnitsOf(From);
    if (!U)
      return usageError(toString(U.takeError()));
    Units = std::move(*U);
  }
  Expected<MergedSarif> M = mergeSarifDir(Merge, Units ? &*Units : nullptr);
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
  if (!Quiet) {
    errs() << "warp-lint: merged " << M->Files << " SARIF file"
           << (M->Files == 1 ? "" : "s") << ", " << M->Results << " result"
           << (M->Results == 1 ? "" : "s") << "\n";
    if (M->Stale)
      errs() << "warp-lint: note: left out " << M->Stale << " SARIF file"
             << (M->Stale == 1 ? "" : "s")
             << " of units no longer in the build (" << From << ")\n";
    else if (!Units)
      errs() << "warp-lint: note: no compile database to tell units removed "
                "from the build (configure with "
                "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or give -p)\n";
  }
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
  // The diagnostics go into the build's log, as a compiler's would.
  Launcher.Active = true;
  Launcher.Source = Compile->Source;
  Launcher.Object = Compile->Object;
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

/// The keys of `.warp-lint.yaml` and the options they set.
struct ProjectOption {
  ProjectKey Key;
  cl::Option *Opt;
};
static ArrayRef<ProjectOption> projectOptions() {
  using K = ProjectValueKind;
  static const ProjectOption Options[] = {
      {{"build-dir", K::Path}, &BuildPath},
      {{"jobs", K::Text}, &Jobs},
      {{"exclude", K::List}, std::addressof<cl::Option>(Exclude)},
      {{"header-filter", K::Text}, &HeaderFilter},
      {{"warnings-as-errors", K::Text}, &WarningsAsErrors},
      {{"fail-on", K::Text}, &FailOn},
      {{"tiers", K::Text}, &Tiers},
      {{"checks", K::Text}, &Checks},
      {{"config-file", K::Path}, &ConfigFile},
      {{"baseline", K::Path}, &BaselineFile},
      {{"cache-dir", K::Path}, &CacheDir},
      {{"cache-size", K::Text}, &CacheSize},
      {{"sarif-root", K::Path}, &SarifRoot},
      {{"doc-base-url", K::Text}, &DocBaseUrl},
      {{"cuda-path", K::Path}, &CudaPath},
      {{"cuda-gpu-arch", K::Text}, &GpuArch},
      {{"progress", K::Text}, &ProgressOpt},
      {{"stable-order", K::Flag}, &StableOrder},
  };
  return Options;
}

/// The project file read, if any: its directory is the root of --exclude.
static std::optional<ProjectFile> Project;

/// Reads `.warp-lint.yaml` (or --project-file) and sets every option it
/// names that the command line did not; --exclude patterns add up.
static Error applyProjectFile() {
  if (NoProjectFile)
    return Error::success();
  std::optional<std::string> Path;
  if (ProjectFileOpt.getNumOccurrences())
    Path = ProjectFileOpt.getValue();
  else if (!Launcher.Active)
    Path = findProjectFile(".");
  if (!Path)
    return Error::success();
  std::vector<ProjectKey> Keys;
  for (const ProjectOption &O : projectOptions())
    Keys.push_back(O.Key);
  Expected<ProjectFile> File = readProjectFile(*Path, Keys);
  if (!File)
    return File.takeError();
  for (const ProjectSetting &S : File->Settings) {
    const ProjectOption *O = llvm::find_if(
        projectOptions(), [&](auto &P) { return P.Key.Name == S.Key; });
    if (O->Opt->getNumOccurrences() && O->Key.Kind != ProjectValueKind::List)
      continue; // The command line wins.
    for (const std::string &V : S.Values)
      if (O->Opt->addOccurrence(0, O->Opt->ArgStr, V))
        return createStringError("invalid project file " + File->Path +
                                 ": bad value '" + V + "' for " + S.Key);
  }
  Project = std::move(*File);
  return Error::success();
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
  FailThreshold Threshold;
  std::optional<std::string> TierList;
  ProgressMode Progress = ProgressMode::None;
  PathFilter Excludes;
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
  if (DryRun && !Fix)
    return createStringError("--dry-run goes with --fix");
  Request R;
  Expected<OutputFormat> Fmt = parseFormat(Format);
  if (!Fmt)
    return Fmt.takeError();
  R.Format = *Fmt;
  Expected<unsigned> NumJobs = parseJobs(Jobs);
  if (!NumJobs)
    return NumJobs.takeError();
  R.Jobs = *NumJobs;
  Expected<FailThreshold> Threshold = FailThreshold::parse(FailOn);
  if (!Threshold)
    return Threshold.takeError();
  R.Threshold = *Threshold;
  if (Tiers.getNumOccurrences()) {
    Expected<std::string> List = parseTierList(Tiers);
    if (!List)
      return List.takeError();
    R.TierList = *List;
  }
  std::optional<ProgressMode> Mode =
      parseProgressMode(ProgressOpt, sys::Process::StandardErrIsDisplayed());
  if (!Mode)
    return createStringError("invalid --progress '" + ProgressOpt +
                             "': expected auto, lines or none");
  R.Progress = Quiet ? ProgressMode::None : *Mode;
  for (const std::string &P : Exclude)
    if (Error E = R.Excludes.add(P))
      return std::move(E);
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
static Expected<CheckSetup> readCheckSetup(StringRef ConfigFor,
                                           const Request &Req) {
  ConfigInputs CI;
  if (Checks.getNumOccurrences())
    CI.Checks = Checks;
  if (Config.getNumOccurrences())
    CI.Config = Config;
  if (ConfigFile.getNumOccurrences())
    CI.ConfigFile = ConfigFile;
  if (HeaderFilter.getNumOccurrences())
    CI.HeaderFilter = HeaderFilter;
  if (WarningsAsErrors.getNumOccurrences())
    CI.WarningsAsErrors = WarningsAsErrors;
  const StringSet<> &Known = getAllChecksAndOptions(false, false).Checks;
  // --tiers: the option Tiers of every warp- check, over the configuration.
  if (Req.TierList)
    for (const auto &Check : Known)
      if (Check.getKey().starts_with("warp-"))
        CI.CheckOptions.emplace_back((Check.getKey() + ".Tiers").str(),
                                     *Req.TierList);
  Expected<ProviderFactory> MakeProvider = makeProviderFactory(CI);
  if (!MakeProvider)
    return MakeProvider.takeError();
  if (Error E = validateCheckList(Checks, Known))
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
  // The options the checks declare, with their values, and those set for
  // them that they do not declare yet (--tiers before a check reads Tiers).
  ClangTidyOptions::OptionMap Declared =
      getCheckOptions(Setup.Effective, false, false);
  for (const auto &Entry : Setup.Effective.CheckOptions)
    Declared.try_emplace(Entry.getKey(), Entry.getValue());
  Setup.Effective.CheckOptions = std::move(Declared);
  ClangTidyOptions Dump =
      ClangTidyOptions::getDefaults().merge(Setup.Effective, 0);
  filterCheckOptions(Dump, Setup.Enabled);
  outs() << configurationAsText(Dump) << "\n";
  return 0;
}

/// Why \p Path cannot be analysed (missing, not a regular file, not
/// readable); nothing when it can. A FIFO would block, /dev/zero never end:
/// they are refused before anything opens them.
static std::optional<std::string> unreadable(StringRef Path) {
  if (!sys::fs::exists(Path))
    return std::string("no such file");
  if (Error E = checkRegularFile(Path))
    return toString(std::move(E));
  int FD = open(Path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return "cannot read it: " +
           std::error_code(errno, std::generic_category()).message();
  close(FD);
  return std::nullopt;
}

/// Whether the missing \p File lies under the build directory of -p: an
/// output of the build (a generated source) that was not built yet.
static bool underBuildDir(StringRef File) {
  if (!BuildPath.getNumOccurrences())
    return false;
  SmallString<256> Dir(absolute(BuildPath));
  if (!sys::fs::is_directory(Dir))
    Dir = sys::path::parent_path(Dir);
  SmallString<256> Real;
  for (StringRef D : {StringRef(Dir), StringRef()}) {
    if (D.empty()) {
      if (sys::fs::real_path(Dir, Real))
        break;
      D = Real;
    }
    StringRef Rel = File;
    if (Rel.consume_front(D) && Rel.starts_with("/"))
      return true;
  }
  return false;
}

/// Moves the units that cannot be analysed out of \p Files (and \p Named,
/// the spellings for messages) into the skipped list: the run goes on with
/// the others and reports them.
static std::vector<SkippedUnit>
takeUnreadable(std::vector<std::string> &Files,
               std::vector<std::string> &Named) {
  std::vector<SkippedUnit> Skipped;
  std::vector<std::string> KeptFiles, KeptNamed;
  for (size_t I = 0; I < Files.size(); ++I) {
    std::optional<std::string> Why = unreadable(Files[I]);
    if (!Why) {
      KeptFiles.push_back(Files[I]);
      KeptNamed.push_back(Named[I]);
      continue;
    }
    SkippedUnit S;
    S.File = Named[I];
    S.Reason = *Why;
    S.NotGenerated = *Why == "no such file" && underBuildDir(Files[I]);
    if (*Why == "no such file" && !S.NotGenerated &&
        BuildPath.getNumOccurrences() && Inputs.empty())
      S.Reason += " (a stale entry of " + BuildPath +
                  "/compile_commands.json? re-run cmake)";
    Skipped.push_back(std::move(S));
  }
  Files = std::move(KeptFiles);
  Named = std::move(KeptNamed);
  return Skipped;
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

namespace {
/// How the run shows itself while it goes: progress on stderr, findings
/// as units finish.
struct LiveOutput {
  std::optional<ProgressReporter> Progress;
  std::optional<StreamingReport> Stream;
};
} // namespace

/// Runs every unit. With a build dir, kernels launched only in other units
/// get those launches (and those an earlier run over this build saw), and
/// results are cached.
static RunResults lintUnits(ArrayRef<std::string> Files,
                            const clang::tooling::CompilationDatabase &Commands,
                            const CheckSetup &Setup, const Request &Req,
                            bool HaveDatabase, LiveOutput &Live) {
  CrossUnitLaunches Launches;
  if (HaveDatabase)
    Launches.load(BuildPath);
  RunSettings RS;
  RS.Jobs = Req.Jobs;
  RS.OnUnitDone = [&](size_t I, const UnitResult &R) {
    Launches.addUnit(R);
    if (Live.Progress)
      Live.Progress->clear();
    if (Live.Stream)
      Live.Stream->unitDone(I, R);
    if (Live.Progress)
      Live.Progress->unitDone(relativeToCwd(Files[I]));
  };
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
  // A finding another unit's launches may resolve is shown once all ran.
  if (Live.Stream)
    Live.Stream->holdBack([&Launches](const ClangTidyError &E) {
      return Launches.dependsOnLaunches(E);
    });
  RunResults Results =
      mergeUnits(runUnits(Files, Commands, Setup.MakeProvider, RS));
  if (Live.Progress)
    Live.Progress->clear();
  Launches.dropResolved(Results.Diagnostics);
  if (Live.Stream)
    Live.Stream->printHeld(Results.Diagnostics);
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

/// Says which files were fixed when an interrupt stops a --fix run before
/// any was: the signal handler may only write.
static void interruptedBeforeFixes() {
  static const char Message[] = "warp-lint: interrupted: no file was changed\n";
  ssize_t Ignored = write(STDERR_FILENO, Message, sizeof(Message) - 1);
  (void)Ignored;
  std::signal(SIGINT, SIG_DFL);
  raise(SIGINT);
}

/// Applies the fixes of \p Results (or, with --dry-run, prints them as a
/// diff); returns whether a write failed.
static bool applyFixes(const RunResults &Results, ClangTidyContext &Context,
                       StringRef Root) {
  FixPlan Plan = planFixes(Results.Diagnostics);
  size_t Findings = llvm::count_if(
      Results.Diagnostics, [](const auto &E) { return !isCompilerError(E); });
  if (!Findings)
    return false; // Nothing to fix, nothing to say.
  PreparedFixes Ready = prepareFixes(Plan, Results.Seen, Context);
  for (const std::string &Line : Ready.Failures)
    usageError(Line);
  if (!Ready.Failures.empty()) {
    FixOutcome None;
    None.Failures = Ready.Failures;
    if (!Quiet)
      printFixTotals(errs(), Plan, 0, &None, Findings);
    return true;
  }
  if (DryRun) {
    for (const FixedFile &F : Ready.Files) {
      std::string Shown = displayPath(F.Path, Root);
      bool Inside = Shown != F.Path;
      outs() << unifiedDiff(Inside ? "a/" + Shown : F.Path,
                            Inside ? "b/" + Shown : F.Path, F.Before, F.Edits);
    }
    if (!Quiet) {
      printFixLines(errs(), Results.Diagnostics, Plan, /*DryRun=*/true);
      printFixTotals(errs(), Plan, Ready.Files.size(), nullptr, Findings);
    }
    return false;
  }
  // What was written is said before an interrupt held back meanwhile stops
  // the run.
  FixOutcome Done =
      writeFixedFiles(Ready.Files, [&](const FixOutcome &Written) {
        sys::SetInterruptFunction(nullptr);
        for (const std::string &Line : Written.Failures)
          usageError(Line);
        if (Quiet)
          return;
        if (Written.Failures.empty())
          printFixLines(errs(), Results.Diagnostics, Plan, /*DryRun=*/false);
        printFixTotals(errs(), Plan, Written.Written.size(), &Written,
                       Findings);
        errs().flush();
      });
  return !Done.Failures.empty();
}

/// The closing notes on stderr: what was suppressed or filtered out, and
/// that default flags were used.
static void printNotes(const RunResults &Results, unsigned InBaseline,
                       unsigned Unchanged, unsigned ExcludedFindings,
                       bool HaveDatabase, bool HaveDashDash) {
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
  if (ExcludedFindings)
    errs() << "warp-lint: note: " << ExcludedFindings
           << " finding(s) in excluded files not reported\n";
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

/// The analysis options the enabled checks run with: those of the first
/// enabled check that sets one, else the global ones (WarpOptions.h).
static clang::warp::UniformityOptions analysisOptions(const CheckSetup &Setup) {
  const ClangTidyOptions::OptionMap &Opts = Setup.Effective.CheckOptions;
  for (const std::string &C : Setup.Enabled)
    if (clang::tidy::warp::setsAnalysisOptions(Opts, C))
      return clang::tidy::warp::analysisOptionsOf(Opts, C);
  return clang::tidy::warp::analysisOptionsOf(Opts, "");
}

/// --explain: the analysis' reasons at one place, as text or JSON.
static int explainMain(const ExplainTarget &Target,
                       const clang::tooling::CompilationDatabase &Commands,
                       const CheckSetup &Setup, const Request &Req,
                       StringRef Spec, bool StdoutClosed) {
  if (Req.Format == OutputFormat::Sarif || Req.Format == OutputFormat::Html)
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
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::string> CompilerArgs;
  bool HaveDashDash = takeCompilerArgs(Args, CompilerArgs);
  if (Error E = parseCommandLine(Args))
    return usageError(toString(std::move(E)));
  if (Error E = applyProjectFile())
    return usageError(toString(std::move(E)));
  if (Merge.getNumOccurrences())
    return mergeReports(StdoutClosed);
  Expected<Request> Req = readRequest();
  if (!Req)
    return usageError(toString(Req.takeError()));
  // Until the fixes are written, an interrupt leaves every file as it was.
  if (Fix && !DryRun)
    sys::SetInterruptFunction(interruptedBeforeFixes);

  std::vector<std::string> Files;
  std::vector<std::string> Named; // As the user spelled them, for messages.
  for (const std::string &In : Inputs)
    if (llvm::find(Files, absolute(In)) == Files.end()) {
      Files.push_back(absolute(In));
      Named.push_back(In);
    }
  Expected<CheckSetup> Setup = readCheckSetup(
      Files.empty() ? absolute("dummy.cu") : Files.front(), *Req);
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
    if (std::optional<std::string> Why = unreadable(Files.front()))
      return usageError(*Why == "no such file"
                            ? "no such file: " + Named.front()
                            : "cannot read " + Named.front() + ": " + *Why);
  }
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
    if (Files.empty()) {
      for (const std::string &F : cudaFilesOf(*Database)) {
        Files.push_back(F);
        Named.push_back(relativeToCwd(F));
      }
      if (Files.empty())
        return usageError("no .cu file in " + BuildPath +
                          "/compile_commands.json");
    }
  }
  if (Files.empty())
    return usageError("no input files (give files or -p <build dir>)");

  // The project root: where the project file is, else the SARIF root.
  std::string Root =
      SarifRoot.getNumOccurrences() ? absolute(SarifRoot) : defaultSarifRoot();
  Req->Excludes.setRoot(Project ? Project->Dir : Root);
  size_t ExcludedUnits = 0;
  if (!Req->Excludes.empty()) {
    std::vector<std::string> KeptFiles, KeptNamed;
    for (size_t I = 0; I < Files.size(); ++I) {
      if (Req->Excludes.excludes(Files[I])) {
        ++ExcludedUnits;
        continue;
      }
      KeptFiles.push_back(Files[I]);
      KeptNamed.push_back(Named[I]);
    }
    Files = std::move(KeptFiles);
    Named = std::move(KeptNamed);
  }
  if (Req->OneShard) {
    std::vector<std::string> Chosen = selectShard(Files, *Req->OneShard);
    std::vector<std::string> ChosenNamed;
    for (const std::string &F : Chosen)
      ChosenNamed.push_back(Named[llvm::find(Files, F) - Files.begin()]);
    Files = std::move(Chosen);
    Named = std::move(ChosenNamed);
    // More shards than units: this one has nothing to do, which is not an
    // error for a CI matrix.
    if (Files.empty()) {
      if (!Quiet)
        errs() << "warp-lint: note: shard " << ShardOpt << " has no units\n";
      return 0;
    }
  }
  if (Files.empty()) {
    if (!Quiet)
      errs() << "warp-lint: note: every unit is excluded (" << ExcludedUnits
             << ")\n";
    return 0;
  }
  // A missing or unreadable unit is reported and the run goes on.
  std::vector<SkippedUnit> Skipped = takeUnreadable(Files, Named);
  for (const SkippedUnit &S : Skipped)
    if (S.NotGenerated) {
      if (!Quiet)
        errs() << "warp-lint: note: " << S.describe() << "\n";
    } else {
      usageError(S.describe());
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

  ClangTidyContext ReportContext(Setup->MakeProvider(), false, false, false);
  ReportContext.setCurrentFile(Files.empty() ? absolute("dummy.cu")
                                             : Files.front());
  FindingGate Gate(Req->Excludes, Req->Changed ? &*Req->Changed : nullptr);
  // The text findings go out as units finish: the report itself (text on
  // stdout), a copy of a report written into a file (so a CI log shows
  // them), or the build's log (launcher). A baseline needs the whole run
  // (fingerprints number a file's findings), and --dry-run keeps stdout for
  // the diff.
  bool TextToStdout = Req->Format == OutputFormat::Text && OutputFile.empty();
  bool Echo =
      Launcher.Active || (!DryRun && (TextToStdout || !OutputFile.empty()));
  bool Stream = Echo && !Req->Base;
  LiveOutput Live;
  if (Files.size() > 1)
    Live.Progress.emplace(Req->Progress, Files.size(), errs());
  if (Stream)
    Live.Stream.emplace(Files.size(), StableOrder,
                        Launcher.Active ? StreamingReport::Target::Stderr
                                        : StreamingReport::Target::Stdout,
                        ReportContext, [&Gate](const ClangTidyError &E) {
                          return Gate.keep(E);
                        });

  RunResults Results = Files.empty()
                           ? RunResults()
                           : lintUnits(Files, **Commands, *Setup, *Req,
                                       Database != nullptr, Live);
  Results.Skipped = std::move(Skipped);
  bool Failed = !Results.complete();
  // Numbered over every finding, before the filters: the fingerprints of
  // the findings reported are those a full run gives them.
  Results.computeFingerprints();
  unsigned ExcludedFindings = Results.keepDiagnostics(
      [&](size_t I) { return !Gate.excluded(Results.Diagnostics[I]); });
  unsigned InBaseline =
      Req->Base ? dropBaselined(Results, *Req->Base, Root) : 0;
  unsigned Unchanged = Results.keepDiagnostics(
      [&](size_t I) { return !Gate.unchanged(Results.Diagnostics[I]); });

  if (Live.Stream)
    if (Error E = Live.Stream->takeError())
      return finish(usageError(toString(std::move(E))), Results);
  // A report that waited for the whole run (--baseline) is echoed now.
  if (Echo && !Stream && !TextToStdout) {
    if (Launcher.Active) {
      Expected<std::string> Text =
          renderText(Results.Diagnostics, ReportContext);
      if (Text)
        errs() << *Text;
      else
        consumeError(Text.takeError());
    } else {
      printText(Results.Diagnostics, ReportContext);
    }
  }
  OutputSettings OS;
  OS.Format = Req->Format;
  OS.OutputFile = OutputFile;
  OS.StdoutClosed = StdoutClosed;
  OS.TextStreamed = Stream;
  // No partial writes: a unit not analysed whole blocks every fix.
  OS.ExportFixes = Failed ? std::string() : ExportFixes.getValue();
  OS.SarifRoot = Root;
  OS.RuleIds = Setup->Enabled;
  OS.ToolVersion = WARP_LINT_VERSION;
  OS.DocBaseUrl = DocBaseUrl;
  if (Launcher.Active) {
    OS.Unit = Launcher.Source;
    OS.ObjectFile = Launcher.Object;
  }
  if (!DryRun || !OutputFile.empty())
    if (Error E = report(Results, ReportContext, OS))
      return finish(usageError(toString(std::move(E))), Results);
  for (const UnitFailure &F : Results.Failures)
    usageError(F.describe());

  bool WriteFailed = Fix && !Failed && applyFixes(Results, ReportContext, Root);
  if (Fix && Failed && !Quiet)
    errs() << "warp-lint: no fix applied: not every unit was analysed whole\n";
  if (!Failed && !WriteFailed)
    printNotes(Results, InBaseline, Unchanged, ExcludedFindings,
               Database != nullptr, HaveDashDash);
  if (!Quiet && (Files.size() + Results.Skipped.size() > 1 || ExcludedUnits)) {
    RunStats Stats;
    Stats.Units = Files.size();
    Stats.Jobs = std::min<size_t>(Req->Jobs, std::max<size_t>(1, Files.size()));
    Stats.Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    Stats.CacheOn = !NoCache && (CacheDir.getNumOccurrences() || Database);
    Stats.Root = Root;
    Stats.Excluded = ExcludedUnits;
    printSummary(errs(), Results, Stats);
  }
  if (Failed || WriteFailed)
    return finish(2, Results);
  LineTable Lines;
  bool Fails = llvm::any_of(
      toFindings(Results.Diagnostics, Lines), [&](const Finding &F) {
        return F.Check != "clang-diagnostic-error" && Req->Threshold.fails(F);
      });
  return finish(Fails ? 1 : 0, Results);
}
