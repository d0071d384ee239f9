//===--- Launcher.cpp - linting each unit inside the build ----------------===//

#include "Launcher.h"
#include "FileWriting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstring>
#include <unistd.h>

using namespace llvm;

namespace warplint {

static bool isSourceFile(StringRef Arg) {
  StringRef Ext = sys::path::extension(Arg);
  return (Ext == ".cu" || Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" ||
          Ext == ".c" || Ext == ".C" || Ext == ".c++") &&
         sys::fs::is_regular_file(Arg);
}

static std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

Expected<LauncherCompile> prepareLauncherCompile(ArrayRef<std::string> Cmd) {
  if (Cmd.empty())
    return createStringError("--launcher needs the compile command after it "
                             "(warp-lint --launcher <compiler> <args...>)");
  LauncherCompile C;
  C.Command = Cmd;
  for (size_t I = 1; I < Cmd.size(); ++I) {
    StringRef A = Cmd[I];
    if ((A == "-c" || A == "--compile") && I + 1 < Cmd.size() &&
        isSourceFile(Cmd[I + 1]))
      C.Source = absolutePath(Cmd[I + 1]);
    else if ((A == "-o" || A == "--output-file") && I + 1 < Cmd.size())
      C.Object = absolutePath(Cmd[++I]);
    else if (A.starts_with("--output-file="))
      C.Object = absolutePath(A.drop_front(strlen("--output-file=")));
    else if (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-opt"))
      C.Object = absolutePath(A.drop_front(2));
  }
  if (C.Source.empty())
    for (size_t I = Cmd.size(); I-- > 1;)
      if (isSourceFile(Cmd[I])) {
        C.Source = absolutePath(Cmd[I]);
        break;
      }
  if (C.Source.empty())
    return createStringError("--launcher: no source file in the compile "
                             "command");
  if (C.Object.empty())
    C.Object = absolutePath(sys::path::stem(C.Source).str() + ".o");

  SmallString<128> Dir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("warp-lint-launcher", Dir))
    return createStringError("--launcher: cannot create a temporary "
                             "directory: " +
                             EC.message());
  C.DatabaseDir = Dir.str().str();
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  // A compiler wrapper after warp-lint (distcc, icecream, ccache, sccache)
  // runs the compile; the lint reads the command it wraps.
  size_t First = 0;
  while (First + 1 < Cmd.size() &&
         llvm::is_contained({StringRef("distcc"), StringRef("icecc"),
                             StringRef("ccache"), StringRef("sccache")},
                            sys::path::filename(Cmd[First])))
    ++First;
  json::Array Args;
  for (size_t I = First; I < Cmd.size(); ++I)
    Args.push_back(Cmd[I]);
  json::Array Db{json::Object{{"directory", Cwd.str()},
                              {"file", C.Source},
                              {"arguments", std::move(Args)}}};
  if (Error E = writeFile(C.DatabaseDir + "/compile_commands.json",
                          formatv("{0}", json::Value(std::move(Db))).str())) {
    removeLauncherDatabase(C);
    return std::move(E);
  }
  return C;
}

void removeLauncherDatabase(const LauncherCompile &C) {
  if (C.DatabaseDir.empty())
    return;
  // What the run may have left there: the database, the launch ledger.
  std::error_code EC;
  std::vector<std::string> Files;
  for (sys::fs::recursive_directory_iterator It(C.DatabaseDir, EC), End;
       It != End && !EC; It.increment(EC))
    Files.push_back(It->path());
  // Deepest first, so directories are empty when removed.
  for (auto I = Files.rbegin(); I != Files.rend(); ++I)
    sys::fs::remove(*I);
  sys::fs::remove(C.DatabaseDir);
}

int execCompiler(const LauncherCompile &C) {
  outs().flush();
  errs().flush();
  std::vector<char *> Argv;
  for (const std::string &A : C.Command)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  execvp(Argv[0], Argv.data());
  errs() << "warp-lint: error: cannot run the compiler " << C.Command[0] << ": "
         << strerror(errno) << "\n";
  return 2;
}

} // namespace warplint
