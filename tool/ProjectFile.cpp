//===--- ProjectFile.cpp - the tool's own options, kept in the repo -------===//

#include "ProjectFile.h"
#include "FileWriting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace warplint {

std::optional<std::string> findProjectFile(StringRef StartDir) {
  SmallString<256> Dir(StartDir);
  sys::fs::make_absolute(Dir);
  for (StringRef D = Dir; !D.empty(); D = sys::path::parent_path(D)) {
    SmallString<256> Candidate(D);
    sys::path::append(Candidate, ProjectFileName);
    if (sys::fs::exists(Candidate))
      return Candidate.str().str();
  }
  return std::nullopt;
}

namespace {
/// Reads one YAML document, keeping the first problem as one line.
class Reader {
public:
  Reader(StringRef Text, StringRef Path, ArrayRef<ProjectKey> Known)
      : Path(Path), Known(Known), Stream(Text, SM) {
    SM.setDiagHandler([](const SMDiagnostic &D,
                         void *Self) { static_cast<Reader *>(Self)->note(D); },
                      this);
  }

  Expected<ProjectFile> read() {
    ProjectFile File;
    SmallString<256> Abs(Path);
    sys::fs::make_absolute(Abs);
    File.Path = Abs.str().str();
    File.Dir = sys::path::parent_path(Abs).str();
    yaml::document_iterator Doc = Stream.begin();
    if (Doc == Stream.end() || !Doc->getRoot())
      return fail();
    yaml::Node *Root = Doc->getRoot();
    if (isa<yaml::NullNode>(Root) && Problem.empty())
      return File; // An empty file sets nothing.
    auto *Map = dyn_cast<yaml::MappingNode>(Root);
    if (!Map) {
      complain(Root, "expected a mapping of option names to values");
      return fail();
    }
    for (yaml::KeyValueNode &KV : *Map) {
      auto *Key = dyn_cast_or_null<yaml::ScalarNode>(KV.getKey());
      if (!Key) {
        complain(KV.getKey(), "expected an option name");
        return fail();
      }
      SmallString<32> KeyStorage;
      StringRef Name = Key->getValue(KeyStorage);
      const ProjectKey *K =
          find_if(Known, [&](const ProjectKey &P) { return P.Name == Name; });
      if (K == Known.end()) {
        complain(Key, "unknown key '" + Name + "'");
        return fail();
      }
      ProjectSetting Setting;
      Setting.Key = Name.str();
      if (!readValue(*K, KV.getValue(), File.Dir, Setting.Values))
        return fail();
      File.Settings.push_back(std::move(Setting));
    }
    if (!Problem.empty())
      return fail();
    return File;
  }

private:
  void note(const SMDiagnostic &D) {
    if (Problem.empty())
      Problem = formatv("{0}:{1}:{2}: {3}", Path, D.getLineNo(),
                        D.getColumnNo() + 1, D.getMessage())
                    .str();
  }
  void complain(yaml::Node *N, const Twine &Message) {
    if (N)
      Stream.printError(N, Message);
    else if (Problem.empty())
      Problem = Path + ": " + Message.str();
  }
  Error fail() {
    return createStringError(
        "invalid project file " +
        (Problem.empty() ? Path + ": unreadable" : Problem));
  }

  /// Reads a scalar's text; complains about anything else.
  bool scalar(yaml::Node *N, std::string &Out) {
    auto *S = dyn_cast_or_null<yaml::ScalarNode>(N);
    if (!S) {
      complain(N, "expected a single value");
      return false;
    }
    SmallString<64> Storage;
    Out = S->getValue(Storage).str();
    return true;
  }

  bool readValue(const ProjectKey &K, yaml::Node *N, StringRef Dir,
                 std::vector<std::string> &Values) {
    if (K.Kind == ProjectValueKind::List) {
      if (auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N)) {
        for (yaml::Node &Item : *Seq) {
          std::string V;
          if (!scalar(&Item, V))
            return false;
          Values.push_back(std::move(V));
        }
        return true;
      }
    }
    std::string V;
    if (!scalar(N, V))
      return false;
    if (K.Kind == ProjectValueKind::Flag && V != "true" && V != "false") {
      complain(N, "expected true or false");
      return false;
    }
    if (K.Kind == ProjectValueKind::Path && !V.empty() &&
        sys::path::is_relative(V)) {
      SmallString<256> Abs(Dir);
      sys::path::append(Abs, V);
      sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
      V = Abs.str().str();
    }
    Values.push_back(std::move(V));
    return true;
  }

  std::string Path;
  ArrayRef<ProjectKey> Known;
  SourceMgr SM;
  yaml::Stream Stream;
  std::string Problem;
};
} // namespace

Expected<ProjectFile> parseProjectFile(StringRef Text, StringRef Path,
                                       ArrayRef<ProjectKey> Known) {
  Reader R(Text, Path, Known);
  return R.read();
}

Expected<ProjectFile> readProjectFile(StringRef Path,
                                      ArrayRef<ProjectKey> Known) {
  Expected<std::string> Text = readRegularFile(Path);
  if (!Text)
    return createStringError("project file: " + toString(Text.takeError()));
  return parseProjectFile(*Text, Path, Known);
}

} // namespace warplint
