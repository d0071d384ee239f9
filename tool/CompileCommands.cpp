//===--- CompileCommands.cpp - the command each file is linted with -------===//

#include "CompileCommands.h"
#include "FileWriting.h"
#include "NvccCommandTranslation.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace clang::tooling;

namespace warplint {

namespace {

/// Presents nvcc entries of a compile database as clang commands. Errors
/// (an unreadable options file) are kept for computeCommands to report,
/// since the CompilationDatabase interface cannot return them.
class TranslatingDatabase : public CompilationDatabase {
public:
  TranslatingDatabase(std::unique_ptr<CompilationDatabase> Inner,
                      std::vector<std::string> NvccDefines)
      : Inner(std::move(Inner)), NvccDefines(std::move(NvccDefines)) {}

  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return translate(Inner->getCompileCommands(FilePath));
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return translate(Inner->getAllCompileCommands());
  }

  mutable std::string FirstError;

private:
  std::vector<CompileCommand>
  translate(std::vector<CompileCommand> Commands) const {
    for (CompileCommand &C : Commands) {
      if (C.CommandLine.empty() || !isNvccCompiler(C.CommandLine.front()))
        continue;
      Expected<std::vector<std::string>> Clang =
          translateNvccCommand(C.CommandLine, C.Filename, C.Directory,
                               readFileFromDisk, NvccDefines);
      if (!Clang) {
        std::string Message = toString(Clang.takeError());
        if (FirstError.empty())
          FirstError = C.Filename + ": " + Message;
        C.CommandLine.clear();
        continue;
      }
      C.CommandLine = std::move(*Clang);
    }
    return Commands;
  }

  std::unique_ptr<CompilationDatabase> Inner;
  std::vector<std::string> NvccDefines;
};

/// The loaded database: interpolation (for files it does not list, such as
/// headers) over translation over the JSON file.
class ProjectDatabase : public CompilationDatabase {
public:
  ProjectDatabase(std::unique_ptr<CompilationDatabase> Json,
                  std::vector<std::string> NvccDefines) {
    auto T = std::make_unique<TranslatingDatabase>(std::move(Json),
                                                   std::move(NvccDefines));
    Translator = T.get();
    // Interpolating over translated commands: it understands clang's
    // options, not nvcc's.
    Interpolated = inferMissingCompileCommands(std::move(T));
  }
  std::vector<CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    return Interpolated->getCompileCommands(FilePath);
  }
  std::vector<std::string> getAllFiles() const override {
    return Interpolated->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return Interpolated->getAllCompileCommands();
  }
  const std::string &firstError() const { return Translator->FirstError; }

private:
  TranslatingDatabase *Translator;
  std::unique_ptr<CompilationDatabase> Interpolated;
};

/// Returns whether \p Arg names the GPU architecture.
bool isArchArg(StringRef Arg) {
  return Arg.starts_with("--cuda-gpu-arch=") ||
         Arg.starts_with("--offload-arch=");
}

/// Returns whether \p Arg selects the device or host pass.
bool isPassArg(StringRef Arg) {
  return Arg == "--cuda-device-only" || Arg == "--cuda-host-only" ||
         Arg == "--offload-device-only" || Arg == "--offload-host-only" ||
         Arg == "--cuda-compile-host-device";
}

} // namespace

bool isCudaCommand(ArrayRef<std::string> Args, StringRef File) {
  StringRef Ext = sys::path::extension(File);
  if (Ext == ".cu" || Ext == ".cuh")
    return true;
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I] == "-xcuda" ||
        (Args[I] == "-x" && I + 1 < Args.size() && Args[I + 1] == "cuda"))
      return true;
  return false;
}

std::vector<std::vector<std::string>>
finalizeCommand(ArrayRef<std::string> Args, StringRef File,
                const CommandSettings &Settings) {
  std::vector<std::string> Cmd(Args.begin(), Args.end());
  Cmd.insert(Cmd.end(), Settings.ExtraArgs.begin(), Settings.ExtraArgs.end());
  bool Cuda = isCudaCommand(Cmd, File);
  if (Cuda && Settings.GpuArchFromUser)
    llvm::erase_if(Cmd, [](const std::string &A) { return isArchArg(A); });
  if (Cuda)
    Cmd = addCudaDefaults(Cmd, Settings.Cuda, Settings.GpuArch);
  // Tooling looks for clang's own headers (CUDA wrappers included) next to
  // the running binary; warp-lint is not installed beside clang.
  if (!Settings.ResourceDir.empty() && !hasArg(Cmd, {"-resource-dir"}))
    Cmd.insert(Cmd.begin() + 1, "-resource-dir=" + Settings.ResourceDir);
  std::vector<std::vector<std::string>> Result = {Cmd};
  if (Cuda && Settings.HostPass) {
    std::vector<std::string> Host;
    for (const std::string &A : Cmd)
      if (!isPassArg(A))
        Host.push_back(A);
    Host.insert(Host.begin() + 1, "--cuda-host-only");
    Result.push_back(std::move(Host));
  }
  return Result;
}

Expected<std::unique_ptr<CompilationDatabase>>
loadCompileDatabase(StringRef BuildDir, std::vector<std::string> NvccDefines) {
  SmallString<256> Path(BuildDir);
  // `-p build/compile_commands.json` names the database itself.
  if (sys::path::filename(BuildDir) != "compile_commands.json" ||
      sys::fs::is_directory(BuildDir))
    sys::path::append(Path, "compile_commands.json");
  if (BuildDir.empty())
    return createStringError(inconvertibleErrorCode(),
                             "-p needs a build directory");
  if (!sys::fs::exists(BuildDir))
    return createStringError(inconvertibleErrorCode(),
                             "no such build directory: %s (-p)",
                             BuildDir.str().c_str());
  if (!sys::fs::exists(Path))
    return createStringError(
        inconvertibleErrorCode(),
        "no compile_commands.json in %s (CMake writes one with "
        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)",
        BuildDir.str().c_str());
  if (Error E = checkRegularFile(Path))
    return createStringError(inconvertibleErrorCode(), "cannot read %s: %s",
                             Path.c_str(), toString(std::move(E)).c_str());
  // JSON syntax first: clang's reader reports a truncated file as a missing
  // key of the last entry, not as the file's problem.
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path))
    if (Expected<json::Value> Doc = json::parse((*Text)->getBuffer()); !Doc)
      return createStringError(
          inconvertibleErrorCode(),
          "malformed compile database %s: not valid JSON (%s)%s", Path.c_str(),
          toString(Doc.takeError()).c_str(),
          StringRef((*Text)->getBuffer()).rtrim().ends_with("]")
              ? ""
              : "; is it truncated?");
  std::string Message;
  std::unique_ptr<CompilationDatabase> Json =
      JSONCompilationDatabase::loadFromFile(Path, Message,
                                            JSONCommandLineSyntax::AutoDetect);
  if (!Json) {
    // One line: the JSON parser's message may span several.
    std::replace(Message.begin(), Message.end(), '\n', ' ');
    return createStringError(inconvertibleErrorCode(),
                             "malformed compile database %s: %s", Path.c_str(),
                             StringRef(Message).trim().str().c_str());
  }
  return std::make_unique<ProjectDatabase>(std::move(Json),
                                           std::move(NvccDefines));
}

std::string firstTranslationError(const CompilationDatabase &Database) {
  return static_cast<const ProjectDatabase &>(Database).firstError();
}

void PrecomputedDatabase::add(CompileCommand Command) {
  auto &Slot = Commands[Command.Filename];
  if (Slot.empty())
    Files.push_back(Command.Filename);
  Slot.push_back(std::move(Command));
}

std::vector<CompileCommand>
PrecomputedDatabase::getCompileCommands(StringRef FilePath) const {
  auto It = Commands.find(FilePath);
  if (It == Commands.end())
    return {};
  return It->second;
}

std::vector<std::string> PrecomputedDatabase::getAllFiles() const {
  return Files;
}

Expected<std::unique_ptr<PrecomputedDatabase>>
computeCommands(ArrayRef<std::string> Files,
                const CompilationDatabase *Database,
                const CommandSettings &Settings) {
  auto Result = std::make_unique<PrecomputedDatabase>();
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  for (const std::string &File : Files) {
    std::vector<CompileCommand> Found;
    if (Database) {
      Found = Database->getCompileCommands(File);
      if (std::string Why = firstTranslationError(*Database); !Why.empty())
        return createStringError(inconvertibleErrorCode(), "%s", Why.c_str());
      llvm::erase_if(
          Found, [](const CompileCommand &C) { return C.CommandLine.empty(); });
      if (Found.empty())
        return createStringError(inconvertibleErrorCode(),
                                 "no compile command for %s", File.c_str());
      // A file compiled twice (two targets) is linted once.
      Found.resize(1);
    } else {
      CompileCommand C;
      C.Directory = Cwd.str().str();
      C.CommandLine = {"clang++", File};
      Found.push_back(std::move(C));
    }
    for (CompileCommand &C : Found) {
      std::vector<std::string> Args = C.CommandLine;
      if (!Database) {
        // Extra arguments go before the file so that `-x` applies to it.
        Args.pop_back();
        // With no build to read, a CUDA file is taken to be built by nvcc:
        // its version macros select the code the real build compiles (a
        // `-D`/`-U` after `--` still wins).
        if (isCudaCommand(Settings.ExtraArgs, File)) {
          std::vector<std::string> Defines = nvccBuildFlags(Settings.Cuda);
          Args.insert(Args.end(), Defines.begin(), Defines.end());
        }
        Args.insert(Args.end(), Settings.ExtraArgs.begin(),
                    Settings.ExtraArgs.end());
        Args.push_back(File);
        CommandSettings NoExtra = Settings;
        NoExtra.ExtraArgs.clear();
        for (auto &Cmd : finalizeCommand(Args, File, NoExtra))
          Result->add(CompileCommand(C.Directory, File, Cmd, ""));
        continue;
      }
      for (auto &Cmd : finalizeCommand(Args, File, Settings))
        Result->add(CompileCommand(C.Directory, File, Cmd, ""));
    }
  }
  return Result;
}

std::vector<std::string> cudaFilesOf(const CompilationDatabase &Database) {
  std::vector<std::string> Files;
  StringSet<> Seen;
  for (const CompileCommand &C : Database.getAllCompileCommands()) {
    SmallString<256> Path(C.Filename);
    if (sys::path::is_relative(Path))
      sys::path::make_absolute(C.Directory, Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (sys::path::extension(Path) == ".cu" && Seen.insert(Path).second)
      Files.push_back(Path.str().str());
  }
  return Files;
}

} // namespace warplint
