//===--- CompileCommandsExport.cpp - the database as clang reads it -------===//

#include "CompileCommandsExport.h"

using namespace llvm;
using clang::tooling::CompileCommand;

namespace warplint {

Expected<json::Value>
exportCompileCommands(const clang::tooling::CompilationDatabase &Database,
                      ArrayRef<std::string> Files,
                      const CommandSettings &Settings) {
  std::vector<CompileCommand> Commands;
  if (Files.empty())
    Commands = Database.getAllCompileCommands();
  for (const std::string &File : Files) {
    std::vector<CompileCommand> Found = Database.getCompileCommands(File);
    if (Found.empty())
      return createStringError(inconvertibleErrorCode(),
                               "no compile command for %s", File.c_str());
    Commands.insert(Commands.end(), Found.begin(), Found.end());
  }
  if (std::string Why = firstTranslationError(Database); !Why.empty())
    return createStringError(inconvertibleErrorCode(), "%s", Why.c_str());
  json::Array Entries;
  for (const CompileCommand &C : Commands) {
    if (C.CommandLine.empty())
      continue;
    for (std::vector<std::string> &Args :
         finalizeCommand(C.CommandLine, C.Filename, Settings)) {
      json::Array Arguments;
      for (std::string &A : Args)
        Arguments.push_back(std::move(A));
      Entries.push_back(json::Object{{"directory", C.Directory},
                                     {"file", C.Filename},
                                     {"arguments", std::move(Arguments)}});
    }
  }
  return json::Value(std::move(Entries));
}

} // namespace warplint
