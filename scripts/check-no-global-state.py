#!/usr/bin/env python3
"""Fails when checks/ holds mutable state that outlives one analysis.

The analysis of a unit is a value its front end owns (docs/architecture.md):
two units analysed in one process (clangd, an embedding tool, the unit
tests) must not see each other. So no source under checks/ may declare

  - a `static` or `thread_local` variable that is not const or constexpr,
    at namespace scope, in a class or in a function;
  - a namespace-scope variable that is not const or constexpr.

clang-tidy's module registration (`...Registry::Add<...>`) is the one
namespace-scope object allowed: it is written once, when the library loads.

    scripts/check-no-global-state.py [root]     # exit 1 and one line per hit
    scripts/check-no-global-state.py --self-test
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
ALLOWED = re.compile(r"Registry::Add<")
NOT_VARIABLE = re.compile(
    r"^(using|typedef|template|friend|class|struct|union|enum|namespace|"
    r"extern\s+template|static_assert|return)\b")
IMMUTABLE = re.compile(r"\b(const|constexpr|constinit\s+const)\b")


def strip(text):
    """Source without comments, string and character literals (same length
    of lines, so that line numbers stay right)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * max(0, j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def untemplated(decl):
    """\p decl without template argument lists (two levels deep)."""
    return re.sub(r"<[^<>;]*>", "", re.sub(r"<[^<>;]*>", "", decl))


def declarator_is_variable(decl):
    """`T Name = …`, `T Name{…}`, `T Name;`, `T Name[…]`: a variable; a
    parenthesis before any of those: a function."""
    decl = untemplated(decl)
    m = re.search(r"[(={;\[]", decl)
    return m is not None and m.group(0) != "("


def hits(path):
    text = strip(open(path, encoding="utf-8", errors="replace").read())
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # preprocessor lines
    scopes = []  # 'namespace' or 'other', one per open brace
    start = 0  # where the current declaration began
    for i, c in enumerate(text):
        if c not in "{};":
            continue
        decl = " ".join(text[start:i + 1].split())
        first = start + len(text[start:i]) - len(text[start:i].lstrip())
        line = text.count("\n", 0, first) + 1
        if c == "{":
            if re.match(r"^(inline\s+)?namespace\b|^extern\s*\"", decl):
                scopes.append("namespace")
                start = i + 1
                continue
            # An initializer brace of a variable declaration is checked as
            # a whole when its `;` comes; a body brace opens a scope.
            if NOT_VARIABLE.match(decl) or not (declarator_is_variable(decl) and not re.search(r"\)\s*(const\s*)?(override\s*)?\{$", decl)
                    and re.search(r"=\s*\{$|\w\s*\{$", decl)
                    and (not scopes or scopes[-1] == "namespace" or decl.startswith(("static ", "thread_local ")))):
                scopes.append("other")
                start = i + 1
                continue
            scopes.append("init")
            continue
        if c == "}":
            kind = scopes.pop() if scopes else "namespace"
            if kind != "init":
                start = i + 1
            continue
        if scopes and scopes[-1] == "init":
            continue
        start = i + 1
        if not decl or NOT_VARIABLE.match(decl) or ALLOWED.search(decl):
            continue
        at_namespace = all(s == "namespace" for s in scopes)
        storage = re.match(r"^(inline\s+)?(static|thread_local)\b", decl) or \
            re.search(r"\bthread_local\b", decl)
        if not (storage or at_namespace):
            continue
        if not declarator_is_variable(decl) or not re.search(r"\w\s*[={;\[]", decl):
            continue
        if IMMUTABLE.search(untemplated(decl).split("=")[0].split("{")[0]):
            continue
        yield line, decl[:100]


# What the checker must find (the lines marked BAD) and leave alone.
SAMPLE = """namespace clang::warp {
static int Counter = 0;                      // BAD
static const int K = 3;
static constexpr int K2 = 3;
std::mutex M;                                // BAD
const char *const Name = "x;{";
static llvm::DenseMap<const Expr *, int> Cache;  // BAD
inline constexpr llvm::StringLiteral S = "s";
static bool f(int X) {
  static int Calls;                          // BAD
  static const int L[] = {1, 2};
  int Local = 0;
  return X + Local;
}
class C : public B {
  static int Member;                         // BAD
  static int fn();
  int Field = 0;
  std::vector<int> V{1, 2};
  void g(bool On = false) const { (void)On; }
};
enum class E { A, B };
thread_local std::string T;                  // BAD
std::string g(const FunctionDecl *FD);
std::vector<int> Table = {1, 2, 3};          // BAD
namespace { int Anon; }                      // BAD
static ClangTidyModuleRegistry::Add<Mod> X("a", "b");
}
"""


def self_test():
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write(SAMPLE)
    found = {line for line, _ in hits(f.name)}
    os.unlink(f.name)
    want = {i + 1 for i, l in enumerate(SAMPLE.splitlines()) if "// BAD" in l}
    if found != want:
        print(f"self-test: flagged lines {sorted(found)}, expected {sorted(want)}")
        return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    bad = 0
    for base in ["checks"]:
        for dirpath, _, files in os.walk(os.path.join(ROOT, base)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".h", ".def")):
                    continue
                path = os.path.join(dirpath, f)
                for line, decl in hits(path):
                    print(f"{os.path.relpath(path, ROOT)}:{line}: mutable state "
                          f"outside an analysis: {decl}")
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
