//===--- FindingNotes.cpp - the facts every finding carries ---------------===//

#include "FindingNotes.h"
#include "FixItText.h"
#include "llvm/Support/Format.h"

namespace clang::tidy::warp {

llvm::StringRef consequenceName(Consequence C) {
  switch (C) {
  case Consequence::Hang:
    return "hang";
  case Consequence::Trap:
    return "trap";
  case Consequence::WrongValues:
    return "wrong-values";
  case Consequence::Race:
    return "race";
  case Consequence::Undefined:
    return "undefined";
  case Consequence::Slow:
    return "slow";
  case Consequence::Portability:
    return "portability";
  }
  return "undefined";
}

/// \p What ("do not reach it") said of one lane ("does not reach it").
static std::string singular(llvm::StringRef What) {
  std::string Out = (" " + What).str();
  for (auto [Plural, One] :
       {std::pair<llvm::StringRef, llvm::StringRef>{" do not ", " does not "},
        {" are ", " is "},
        {" leave ", " leaves "}})
    for (size_t At = Out.find(Plural.str()); At != std::string::npos;
         At = Out.find(Plural.str(), At + One.size()))
      Out.replace(At, Plural.size(), One.str());
  return Out.substr(1);
}

/// "lanes 16..31 of the warp of threads 0..31" in \p W.
static std::string absentLanes(const LaneWitness &W) {
  std::string Warp =
      W.Block ? "warp " + std::to_string(W.Warp % W.Block->warps()) +
                    " of block " + std::to_string(W.Warp / W.Block->warps())
              : "the warp of threads " + std::to_string(32 * W.Warp) + ".." +
                    std::to_string(32 * W.Warp + 31);
  std::string Lanes =
      clang::warp::describeLanes(W.absent() & W.Named) + " of " + Warp;
  if (W.Iteration)
    Lanes += " in iteration " + std::to_string(*W.Iteration + 1) +
             " of the loop around it";
  return Lanes;
}

void noteWitness(ClangTidyCheck &Check, SourceLocation At, const LaneWitness &W,
                 llvm::StringRef What, ASTContext &Ctx) {
  std::string Text;
  std::string Verb =
      llvm::popcount(W.absent() & W.Named) == 1 ? singular(What) : What.str();
  switch (W.T) {
  case Tier::Proven:
    Text = "witness: in " + clang::warp::describeBlock(W.Block) + ", " +
           absentLanes(W) + " " + Verb;
    break;
  case Tier::Conditional: {
    std::string Name =
        W.ByLaunchShape ? "blockDim.x" : shownText(W.Runtime, Ctx);
    if (W.Runtime2) {
      std::string Other = shownText(W.Runtime2, Ctx);
      Text = "condition: lanes split only for some values of '" + Name +
             "' and '" + Other + "'; with '" + Name +
             "' = " + std::to_string(W.RuntimeValue) + " and '" + Other +
             "' = " + std::to_string(W.RuntimeValue2) + ", " + absentLanes(W) +
             " " + Verb;
      break;
    }
    Text =
        "condition: lanes split only when '" + Name + "' " + W.Condition + "; ";
    if (W.ByLaunchShape || !W.Runtime)
      Text += "in " + clang::warp::describeBlock(W.Block) + ", ";
    else
      Text += "with '" + Name + "' = " + std::to_string(W.RuntimeValue) +
              (W.Block ? " in " + clang::warp::describeBlock(W.Block) : "") +
              ", ";
    Text += absentLanes(W) + " " + Verb;
    break;
  }
  case Tier::Data:
    Text = "data: which lanes get here depends on '" +
           shownText(W.DataLoad, Ctx) +
           (isa<CallExpr>(W.DataLoad)
                ? "', which differs between lanes with their data"
                : "', which each lane loads from its own address");
    break;
  case Tier::Potential:
    Text = "potential: the analysis cannot tell which lanes get here; it "
           "found no lane, runtime value or per-lane load that splits them";
    break;
  }
  Check.diag(At, "%0", DiagnosticIDs::Note) << Text;
}

void noteTier(ClangTidyCheck &Check, SourceLocation At, Tier T,
              llvm::StringRef Text) {
  static constexpr llvm::StringLiteral Prefix[] = {"witness", "condition",
                                                   "data", "potential"};
  Check.diag(At, "%0: %1", DiagnosticIDs::Note) << Prefix[unsigned(T)] << Text;
}

void noteConsequence(ClangTidyCheck &Check, SourceLocation At, Consequence C,
                     llvm::StringRef Text) {
  Check.diag(At, "consequence: %0: %1", DiagnosticIDs::Note)
      << consequenceName(C) << Text;
}

void noteNoCallerNamed(ClangTidyCheck &Check, SourceLocation At,
                       llvm::StringRef Mask, llvm::StringRef Why) {
  noteTier(Check, At, Tier::Proven,
           ("any lane that gets here fails the condition of " + Why + ", so '" +
            Mask + "' does not name it")
               .str());
  noteConsequence(Check, At, Consequence::Trap,
                  "the calling lanes are not in the mask: an illegal "
                  "instruction in -O3 and -G builds alike");
}

void noteLanes(ClangTidyCheck &Check, SourceLocation At, LaneSet Mask,
               LaneSet Arrive) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "lanes: mask " << llvm::format_hex(Mask, 10) << " arrive "
     << llvm::format_hex(Arrive, 10);
  Check.diag(At, "%0", DiagnosticIDs::Note) << Text;
}

} // namespace clang::tidy::warp
