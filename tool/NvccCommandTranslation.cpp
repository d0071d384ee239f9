//===--- NvccCommandTranslation.cpp - nvcc command -> clang ---------------===//

#include "NvccCommandTranslation.h"
#include "FileWriting.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace warplint {

namespace {

/// What warp-lint does with one nvcc option.
enum class Action {
  Include,       ///< -I: kept.
  SystemInclude, ///< -isystem: kept.
  Define,        ///< -D: kept.
  Undefine,      ///< -U: kept.
  PreInclude,    ///< -include: kept.
  Std,           ///< -std: kept as -std=.
  HostOptions,   ///< -Xcompiler: filtered through isKeptHostFlag.
  Arch,          ///< -arch, -code, -gencode: collected for pickGpuArch.
  Rdc,           ///< -rdc=true: -fgpu-rdc.
  DeviceC,       ///< -dc: -fgpu-rdc.
  OptionsFile,   ///< --options-file: expanded before translation.
  Language,      ///< -x cu: -x cuda (anything else: the file decides).
  Drop,          ///< Means nothing to a syntax-only clang pass.
};

struct NvccOption {
  StringLiteral Short; ///< Without the leading dash.
  StringLiteral Long;  ///< Without the leading dashes.
  bool TakesValue;
  Action Act;
};

// nvcc accepts one or two dashes for either spelling, and `=` or a separate
// argument for values. Options taking a value must be listed so that the value
// is not mistaken for something else.
constexpr NvccOption Options[] = {
    {"I", "include-path", true, Action::Include},
    {"isystem", "system-include", true, Action::SystemInclude},
    {"D", "define-macro", true, Action::Define},
    {"U", "undefine-macro", true, Action::Undefine},
    {"include", "pre-include", true, Action::PreInclude},
    {"std", "std", true, Action::Std},
    {"Xcompiler", "compiler-options", true, Action::HostOptions},
    {"arch", "gpu-architecture", true, Action::Arch},
    {"code", "gpu-code", true, Action::Arch},
    {"gencode", "generate-code", true, Action::Arch},
    {"rdc", "relocatable-device-code", true, Action::Rdc},
    {"dc", "device-c", false, Action::DeviceC},
    {"optf", "options-file", true, Action::OptionsFile},
    // Dropped, with a value.
    {"x", "x", true, Action::Language},
    {"o", "output-file", true, Action::Drop},
    {"ccbin", "compiler-bindir", true, Action::Drop},
    {"Xcudafe", "Xcudafe", true, Action::Drop},
    {"Xptxas", "ptxas-options", true, Action::Drop},
    {"Xnvlink", "nvlink-options", true, Action::Drop},
    {"Xlinker", "linker-options", true, Action::Drop},
    {"Xarchive", "archive-options", true, Action::Drop},
    {"t", "threads", true, Action::Drop},
    {"default-stream", "default-stream", true, Action::Drop},
    {"keep-dir", "keep-dir", true, Action::Drop},
    {"diag-suppress", "diag-suppress", true, Action::Drop},
    {"diag_suppress", "diag_suppress", true, Action::Drop},
    {"diag-warn", "diag-warn", true, Action::Drop},
    {"diag_warn", "diag_warn", true, Action::Drop},
    {"diag-error", "diag-error", true, Action::Drop},
    {"diag_error", "diag_error", true, Action::Drop},
    {"Werror", "Werror", true, Action::Drop},
    {"MF", "dependency-output", true, Action::Drop},
    {"MT", "dependency-target-name", true, Action::Drop},
    {"MQ", "MQ", true, Action::Drop},
    {"odir", "output-directory", true, Action::Drop},
    {"m", "machine", true, Action::Drop},
    {"maxrregcount", "maxrregcount", true, Action::Drop},
    {"ftz", "ftz", true, Action::Drop},
    {"prec-div", "prec-div", true, Action::Drop},
    {"prec-sqrt", "prec-sqrt", true, Action::Drop},
    {"fmad", "fmad", true, Action::Drop},
    {"cudart", "cudart", true, Action::Drop},
    {"cudadevrt", "cudadevrt", true, Action::Drop},
    {"split-compile", "split-compile", true, Action::Drop},
    {"time", "time", true, Action::Drop},
    {"O", "optimize", true, Action::Drop},
    {"dopt", "dopt", true, Action::Drop},
    {"L", "library-path", true, Action::Drop},
    {"l", "library", true, Action::Drop},
    {"static-global-template-stub", "static-global-template-stub", true,
     Action::Drop},
    {"device-entity-has-hidden-visibility",
     "device-entity-has-hidden-visibility", true, Action::Drop},
    // Dropped, no value.
    {"c", "compile", false, Action::Drop},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false, Action::Drop},
    {"expt-extended-lambda", "expt-extended-lambda", false, Action::Drop},
    {"extended-lambda", "extended-lambda", false, Action::Drop},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler",
     false, Action::Drop},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false,
     Action::Drop},
    {"forward-unknown-opts", "forward-unknown-opts", false, Action::Drop},
    {"lineinfo", "generate-line-info", false, Action::Drop},
    {"use_fast_math", "use_fast_math", false, Action::Drop},
    {"G", "device-debug", false, Action::Drop},
    {"g", "debug", false, Action::Drop},
    {"keep", "keep", false, Action::Drop},
    {"MD", "generate-dependencies-with-compile", false, Action::Drop},
    {"MMD", "generate-nonsystem-dependencies-with-compile", false,
     Action::Drop},
    {"MP", "generate-dependency-targets", false, Action::Drop},
    {"M", "generate-dependencies", false, Action::Drop},
    {"MM", "generate-nonsystem-dependencies", false, Action::Drop},
    {"w", "disable-warnings", false, Action::Drop},
    {"res-usage", "resource-usage", false, Action::Drop},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false,
     Action::Drop},
    {"err-no", "display-error-number", false, Action::Drop},
    {"no-err-no", "no-display-error-number", false, Action::Drop},
    {"restrict", "restrict", false, Action::Drop},
    {"src-in-ptx", "source-in-ptx", false, Action::Drop},
    {"ewp", "extensible-whole-program", false, Action::Drop},
    {"dlto", "dlink-time-opt", false, Action::Drop},
    {"dlink", "device-link", false, Action::Drop},
    {"lib", "lib", false, Action::Drop},
    {"shared", "shared", false, Action::Drop},
    {"ptx", "ptx", false, Action::Drop},
    {"cubin", "cubin", false, Action::Drop},
    {"fatbin", "fatbin", false, Action::Drop},
    {"E", "preprocess", false, Action::Drop},
    {"v", "verbose", false, Action::Drop},
    {"m64", "m64", false, Action::Drop},
};

/// Option names whose value may be glued on (`-I/usr/include`, `-DX=1`).
constexpr StringLiteral GluedPrefixes[] = {"I", "D", "U", "O", "L", "l"};

/// Returns the table entry named \p Name (dashes stripped), if any.
const NvccOption *lookup(StringRef Name) {
  for (const NvccOption &O : Options)
    if (Name == O.Short || Name == O.Long)
      return &O;
  return nullptr;
}

/// Splits nvcc's comma-separated list values.
SmallVector<std::string, 4> splitList(StringRef Value) {
  SmallVector<StringRef, 4> Parts;
  Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
  SmallVector<std::string, 4> Result;
  for (StringRef P : Parts)
    Result.push_back(P.str());
  return Result;
}

/// Collects every `sm_XX`/`compute_XX`/`lto_XX` named in an arch value such as
/// `arch=compute_90,code=[compute_90,sm_90]`.
void collectArchNames(StringRef Value, std::vector<std::string> &Out) {
  SmallVector<StringRef, 8> Tokens;
  SplitString(Value, Tokens, ",=[]\"' ");
  for (StringRef T : Tokens)
    if (T.starts_with("sm_") || T.starts_with("compute_") ||
        T.starts_with("lto_"))
      Out.push_back(T.str());
}

/// Expands `--options-file`/`-optf` recursively; nvcc reads them as a plain
/// whitespace-separated argument list with shell-like quoting.
Error expandOptionFiles(ArrayRef<std::string> In, StringRef Directory,
                        const ReadFileFn &ReadFile, unsigned Depth,
                        std::vector<std::string> &Out) {
  if (Depth > 8)
    return createStringError(inconvertibleErrorCode(),
                             "options files nested too deeply");
  for (size_t I = 0; I < In.size(); ++I) {
    StringRef A = In[I];
    StringRef Name = A.ltrim('-');
    StringRef Value;
    bool Glued = false;
    if (A.starts_with("-")) {
      std::tie(Name, Value) = Name.split('=');
      Glued = A.contains('=');
    }
    const NvccOption *O = A.starts_with("-") ? lookup(Name) : nullptr;
    if (!O || O->Act != Action::OptionsFile) {
      Out.push_back(In[I]);
      continue;
    }
    if (!Glued) {
      if (I + 1 == In.size())
        return createStringError(inconvertibleErrorCode(),
                                 "'%s' without a file", A.str().c_str());
      Value = In[++I];
    }
    for (const std::string &File : splitList(Value)) {
      SmallString<256> Path(File);
      if (sys::path::is_relative(Path))
        sys::path::make_absolute(Directory, Path);
      Expected<std::string> Text = ReadFile(Path);
      if (!Text)
        return createStringError(
            inconvertibleErrorCode(), "cannot read options file '%s': %s",
            Path.c_str(), toString(Text.takeError()).c_str());
      BumpPtrAllocator Alloc;
      StringSaver Saver(Alloc);
      SmallVector<const char *, 32> Tokens;
      cl::TokenizeGNUCommandLine(*Text, Saver, Tokens);
      std::vector<std::string> Nested(Tokens.begin(), Tokens.end());
      if (Error E =
              expandOptionFiles(Nested, Directory, ReadFile, Depth + 1, Out))
        return E;
    }
  }
  return Error::success();
}

/// Host flags passed through -Xcompiler come as one comma-separated list in
/// which a flag needing a value takes the next element.
void translateHostOptions(StringRef Value, std::vector<std::string> &Out) {
  SmallVector<std::string, 4> Flags = splitList(Value);
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef F = Flags[I];
    if ((F == "-isystem" || F == "-I" || F == "-include") &&
        I + 1 < Flags.size()) {
      Out.push_back(F.str());
      Out.push_back(Flags[++I]);
      continue;
    }
    if (isKeptHostFlag(F))
      Out.push_back(F.str());
  }
}

} // namespace

bool isNvccCompiler(StringRef Argv0) {
  StringRef Name = sys::path::filename(Argv0);
  Name.consume_back_insensitive(".exe");
  return Name == "nvcc";
}

Expected<std::string> readFileFromDisk(StringRef Path) {
  // A FIFO or device named as an options file would block or never end.
  if (Error E = checkRegularFile(Path))
    return std::move(E);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return errorCodeToError(Buf.getError());
  return (*Buf)->getBuffer().str();
}

bool isKeptHostFlag(StringRef F) {
  if (F.starts_with("-D") || F.starts_with("-U") || F.starts_with("-I") ||
      F.starts_with("-isystem") || F.starts_with("-std=") ||
      F.starts_with("-fvisibility"))
    return true;
  return StringSwitch<bool>(F)
      .Cases({"-fPIC", "-fpic", "-fPIE", "-fpie"}, true)
      .Cases({"-pthread", "-fno-strict-aliasing"}, true)
      .Default(false);
}

std::string pickGpuArch(ArrayRef<std::string> ArchValues) {
  // Returns the number and suffix of "sm_90a" as (90, "a").
  auto Parse = [](StringRef Name, StringRef Prefix, unsigned &Number,
                  StringRef &Suffix) {
    if (!Name.consume_front(Prefix))
      return false;
    StringRef Digits = Name.take_while(isDigit);
    Suffix = Name.drop_front(Digits.size());
    // Only the arch-specific "a" variants are spelled the same by clang.
    if (Suffix != "a")
      Suffix = "";
    return !Digits.empty() && !Digits.getAsInteger(10, Number);
  };
  for (StringRef Prefix : {"sm_", "compute_", "lto_"}) {
    unsigned Best = 0;
    StringRef BestSuffix;
    for (StringRef A : ArchValues) {
      unsigned N;
      StringRef Suffix;
      if (Parse(A, Prefix, N, Suffix) && N >= Best) {
        if (N > Best || Suffix == "a")
          BestSuffix = Suffix;
        Best = N;
      }
    }
    if (Best)
      return "sm_" + std::to_string(Best) + BestSuffix.str();
  }
  return "";
}

Expected<std::vector<std::string>>
translateNvccCommand(ArrayRef<std::string> Args, StringRef File,
                     StringRef Directory, const ReadFileFn &ReadFile,
                     ArrayRef<std::string> NvccDefines) {
  std::vector<std::string> In;
  if (Error E =
          expandOptionFiles(Args.drop_front(), Directory, ReadFile, 0, In))
    return std::move(E);

  std::vector<std::string> Out = {"clang++"};
  Out.insert(Out.end(), NvccDefines.begin(), NvccDefines.end());
  std::vector<std::string> Archs;
  bool Rdc = false;
  for (size_t I = 0; I < In.size(); ++I) {
    StringRef A = In[I];
    if (!A.starts_with("-") || A.size() < 2)
      continue; // Inputs: the entry's own file is appended at the end.
    auto [Name, Value] = A.ltrim('-').split('=');
    bool HasValue = A.contains('=');
    const NvccOption *O = lookup(Name);
    if (!O && A.starts_with("-") && !A.starts_with("--")) {
      for (StringRef P : GluedPrefixes)
        if (Name.starts_with(P)) {
          O = lookup(P);
          Value = A.drop_front(1 + P.size());
          HasValue = true;
          break;
        }
    }
    if (!O) {
      // -W spellings are nvcc's own (-Werror=...) or host warnings; the
      // rest is forwarded to the host compiler by CMake's
      // -forward-unknown-to-host-compiler.
      if (!A.starts_with("-W") && isKeptHostFlag(A))
        Out.push_back(A.str());
      continue;
    }
    if (O->TakesValue && !HasValue) {
      if (I + 1 == In.size())
        continue; // A dangling option; nvcc would reject it, we ignore it.
      Value = In[++I];
    }
    switch (O->Act) {
    case Action::Include:
      Out.push_back(("-I" + Value).str());
      break;
    case Action::SystemInclude:
      Out.insert(Out.end(), {"-isystem", Value.str()});
      break;
    case Action::Define:
      Out.push_back(("-D" + Value).str());
      break;
    case Action::Undefine:
      Out.push_back(("-U" + Value).str());
      break;
    case Action::PreInclude:
      Out.insert(Out.end(), {"-include", Value.str()});
      break;
    case Action::Std:
      Out.push_back(("-std=" + Value).str());
      break;
    case Action::HostOptions:
      translateHostOptions(Value, Out);
      break;
    case Action::Arch:
      collectArchNames(Value, Archs);
      break;
    case Action::Language:
      if (Value == "cu")
        Out.insert(Out.end(), {"-x", "cuda"});
      break;
    case Action::Rdc:
      Rdc = Value.equals_insensitive("true");
      break;
    case Action::DeviceC:
      Rdc = true;
      break;
    case Action::OptionsFile: // Already expanded.
    case Action::Drop:
      break;
    }
  }
  if (Rdc)
    Out.push_back("-fgpu-rdc");
  std::string Arch = pickGpuArch(Archs);
  if (!Arch.empty())
    Out.push_back("--cuda-gpu-arch=" + Arch);
  Out.push_back(File.str());
  return Out;
}

} // namespace warplint
