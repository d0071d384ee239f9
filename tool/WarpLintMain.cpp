//===--- WarpLintMain.cpp - the warp-lint command-line tool ---------------===//
///
/// \file The standalone front end: clang-tidy's runner with only the warp-
/// checks registered, plus CUDA-aware command lines, SARIF/JSON output,
/// parallel translation units and a strict exit-status contract
/// (docs/cli.md). Modelled on clang-tidy's ClangTidyMain.cpp.
///
//===----------------------------------------------------------------------===//

#include "CompileCommands.h"
#include "ConfigLoading.h"
#include "Finding.h"
#include "Output.h"
#include "Runner.h"
#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace clang::tidy;
using namespace warplint;

static cl::OptionCategory Category("warp-lint options");

static cl::list<std::string> Inputs(cl::Positional, cl::desc("<files...>"),
                                    cl::cat(Category));
static cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory holding compile_commands.json"),
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
    SarifRoot("sarif-root",
              cl::desc("Directory SARIF URIs are relative to (default: the "
                       "git work tree, else the current directory)"),
              cl::cat(Category));
static cl::opt<std::string>
    Jobs("j", cl::desc("Translation units analysed in parallel (0: one per "
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
static cl::opt<bool> Quiet("quiet", cl::desc("Print no statistics"),
                           cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit"),
                                cl::cat(Category));
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

/// Returns the first compiler error of a unit as `file:line:col: message`.
static std::string describeCompilerError(const ClangTidyError &E) {
  LineTable Lines;
  std::vector<Finding> F = toFindings({E}, Lines);
  if (F.front().Loc.File.empty())
    return E.Message.Message;
  return formatv("{0}:{1}:{2}: {3}", F.front().Loc.File, F.front().Loc.Line,
                 F.front().Loc.Column, E.Message.Message)
      .str();
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  // Everything after `--` is for the compiler, as with clang-tidy.
  std::vector<const char *> Args(argv, argv + argc);
  std::vector<std::string> CompilerArgs;
  auto DashDash = llvm::find_if(
      Args, [](const char *A) { return StringRef(A) == "--"; });
  bool HaveDashDash = DashDash != Args.end();
  if (HaveDashDash) {
    CompilerArgs.assign(DashDash + 1, Args.end());
    Args.erase(DashDash, Args.end());
  }

  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "warp-lint " << WARP_LINT_VERSION << " (LLVM " << LLVM_VERSION_STRING
       << ")\n";
  });
  std::string ParseErrors;
  raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          Args.size(), Args.data(),
          "warp-lint: finds warp-level synchronization bugs in CUDA C++\n\n"
          "  warp-lint [options] <files...> [-- <compiler args>]\n",
          &ParseErrorStream)) {
    StringRef First = StringRef(ParseErrors).split('\n').first;
    First.consume_front(sys::path::filename(argv[0]));
    First.consume_front(": ");
    return usageError(First.trim());
  }

  Expected<OutputFormat> Fmt = parseFormat(Format);
  if (!Fmt)
    return usageError(toString(Fmt.takeError()));
  Expected<unsigned> NumJobs = parseJobs(Jobs);
  if (!NumJobs)
    return usageError(toString(NumJobs.takeError()));

  ConfigInputs CI;
  if (Checks.getNumOccurrences())
    CI.Checks = Checks;
  if (Config.getNumOccurrences())
    CI.Config = Config;
  if (ConfigFile.getNumOccurrences())
    CI.ConfigFile = ConfigFile;
  Expected<ProviderFactory> MakeProvider = makeProviderFactory(CI);
  if (!MakeProvider)
    return usageError(toString(MakeProvider.takeError()));
  if (Error E = validateCheckList(
          Checks, getAllChecksAndOptions(false, false).Checks))
    return usageError(toString(std::move(E)));

  std::vector<std::string> Files;
  std::vector<std::string> Named; // As the user spelled them, for messages.
  for (const std::string &In : Inputs)
    if (llvm::find(Files, absolute(In)) == Files.end()) {
      Files.push_back(absolute(In));
      Named.push_back(In);
    }
  std::string ConfigFor = Files.empty() ? absolute("dummy.cu") : Files.front();
  ClangTidyOptions Effective = (*MakeProvider)()->getOptions(ConfigFor);
  std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
  if (Enabled.empty())
    return usageError("the check list enables no known check (--checks='" +
                      Effective.Checks.value_or("") + "')");
  if (ListChecks) {
    outs() << "Enabled checks:";
    for (const std::string &C : Enabled)
      outs() << "\n    " << C;
    outs() << "\n\n";
    return 0;
  }
  if (DumpConfig) {
    Effective.CheckOptions = getCheckOptions(Effective, false, false);
    ClangTidyOptions Dump = ClangTidyOptions::getDefaults().merge(Effective, 0);
    filterCheckOptions(Dump, Enabled);
    outs() << configurationAsText(Dump) << "\n";
    return 0;
  }

  for (size_t I = 0; I < Files.size(); ++I) {
    if (!sys::fs::exists(Files[I]))
      return usageError("no such file: " + Named[I]);
    if (sys::fs::is_directory(Files[I]) || !MemoryBuffer::getFile(Files[I]))
      return usageError("cannot read file: " + Named[I]);
  }
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (BuildPath.getNumOccurrences()) {
    auto DB = loadCompileDatabase(BuildPath);
    if (!DB)
      return usageError(toString(DB.takeError()));
    Database = std::move(*DB);
    if (Files.empty())
      Files = cudaFilesOf(*Database);
    if (Files.empty())
      return usageError("no .cu file in " + BuildPath +
                        "/compile_commands.json");
  }
  if (Files.empty())
    return usageError("no input files (give files or -p <build dir>)");

  CommandSettings CS;
  if (CudaPath.getNumOccurrences() && !sys::fs::is_directory(CudaPath))
    return usageError("no CUDA toolkit at --cuda-path=" + CudaPath);
  CS.Cuda = inspectCudaInstall(
      findCudaPath(CudaSearchEnv::fromProcess(CudaPath)));
  CS.GpuArch = GpuArch;
  CS.GpuArchFromUser = GpuArch.getNumOccurrences() > 0;
  CS.HostPass = HostPass;
  CS.ResourceDir = WARP_LINT_CLANG_RESOURCE_DIR;
  CS.ExtraArgs = CompilerArgs;
  CS.HaveDashDash = HaveDashDash;
  auto Commands = computeCommands(Files, Database.get(), CS);
  if (!Commands)
    return usageError(toString(Commands.takeError()));

  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();

  RunSettings RS;
  RS.Jobs = *NumJobs;
  RS.Progress = sys::Process::StandardErrIsDisplayed();
  std::vector<UnitResult> Units =
      runUnits(Files, **Commands, *MakeProvider, RS);

  // Findings in input order; a unit that did not parse is an input error.
  std::vector<ClangTidyError> Findings;
  bool ParseFailed = false;
  unsigned Nolint = 0, NonUser = 0;
  for (UnitResult &U : Units) {
    Nolint += U.SuppressedNolint;
    NonUser += U.SuppressedNonUser;
    auto Bad = llvm::find_if(U.Errors, isCompilerError);
    if (Bad != U.Errors.end()) {
      ParseFailed = true;
      usageError("cannot parse " + U.File + ": " + describeCompilerError(*Bad));
      continue;
    }
    for (ClangTidyError &E : U.Errors)
      Findings.push_back(std::move(E));
  }

  ClangTidyContext ReportContext((*MakeProvider)(), false, false, false);
  ReportContext.setCurrentFile(Files.front());
  OutputSettings OS;
  OS.Format = *Fmt;
  // No partial writes: a unit that did not parse blocks every fix.
  OS.Fix = Fix && !ParseFailed;
  OS.ExportFixes = ParseFailed ? std::string() : ExportFixes.getValue();
  OS.SarifRoot = SarifRoot.getNumOccurrences() ? absolute(SarifRoot)
                                               : defaultSarifRoot();
  OS.RuleIds = Enabled;
  OS.ToolVersion = WARP_LINT_VERSION;
  if (Error E = report(Findings, ReportContext, OS))
    return usageError(toString(std::move(E)));
  if (ParseFailed)
    return 2;
  if (!Quiet && Nolint + NonUser)
    errs() << "Suppressed " << Nolint + NonUser << " findings (" << Nolint
           << " NOLINT, " << NonUser << " in non-user code).\n";
  // Without the build's flags (includes, defines, arch) results can differ
  // from the real build: say so once, and how to give them.
  if (!Database && !HaveDashDash && !Quiet)
    errs() << "warp-lint: note: no compilation database; used default CUDA "
              "flags (" << GpuArch << "). For your build's flags: cmake -B "
              "build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, then warp-lint -p "
              "build (pre-commit: args: [-p, build])\n";
  return Findings.empty() ? 0 : 1;
}
