//===--- WarpCollectives.cpp - the one table of warp intrinsics -----------===//

#include "WarpCollectives.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>

namespace clang::warp {

static const CollectiveInfo Collectives[] = {
    {"__shfl_sync", CollectiveKind::Shuffle, CollectiveResult::UniformIfSrc, 2,
     ShuffleLane::Absolute},
    {"__shfl_up_sync", CollectiveKind::Shuffle, CollectiveResult::Varying, -1,
     ShuffleLane::Up},
    {"__shfl_down_sync", CollectiveKind::Shuffle, CollectiveResult::Varying, -1,
     ShuffleLane::Down},
    {"__shfl_xor_sync", CollectiveKind::Shuffle, CollectiveResult::Varying, -1,
     ShuffleLane::Xor},
    {"__ballot_sync", CollectiveKind::Vote, CollectiveResult::Uniform, -1},
    {"__all_sync", CollectiveKind::Vote, CollectiveResult::Uniform, -1},
    {"__any_sync", CollectiveKind::Vote, CollectiveResult::Uniform, -1},
    {"__uni_sync", CollectiveKind::Vote, CollectiveResult::Uniform, -1},
    {"__match_any_sync", CollectiveKind::Match, CollectiveResult::Varying, -1},
    {"__match_all_sync", CollectiveKind::Match, CollectiveResult::Uniform, -1},
    {"__syncwarp", CollectiveKind::SyncWarp, CollectiveResult::None, -1},
    {"__reduce_add_sync", CollectiveKind::Reduce, CollectiveResult::Uniform,
     -1},
    {"__reduce_min_sync", CollectiveKind::Reduce, CollectiveResult::Uniform,
     -1},
    {"__reduce_max_sync", CollectiveKind::Reduce, CollectiveResult::Uniform,
     -1},
    {"__reduce_and_sync", CollectiveKind::Reduce, CollectiveResult::Uniform,
     -1},
    {"__reduce_or_sync", CollectiveKind::Reduce, CollectiveResult::Uniform, -1},
    {"__reduce_xor_sync", CollectiveKind::Reduce, CollectiveResult::Uniform,
     -1},
};

// Inline PTX: the member mask is the last operand of each instruction.
static const CollectiveInfo PtxShuffle = {"shfl.sync", CollectiveKind::Shuffle,
                                          CollectiveResult::Varying, -1};
static const CollectiveInfo PtxVote = {"vote.sync", CollectiveKind::Vote,
                                       CollectiveResult::Uniform, -1};
static const CollectiveInfo PtxBarWarp = {
    "bar.warp.sync", CollectiveKind::SyncWarp, CollectiveResult::None, -1};

const CollectiveInfo *lookupCollective(llvm::StringRef Name) {
  for (const CollectiveInfo &Info : Collectives)
    if (Info.Name == Name)
      return &Info;
  return nullptr;
}

bool expectsParticularLanes(const CollectiveInfo &Info) {
  return Info.Kind == CollectiveKind::Shuffle ||
         Info.Kind == CollectiveKind::Reduce;
}

uint32_t segmentsOf(uint32_t Lanes, unsigned Width) {
  uint32_t Segment = Width >= 32 ? ~0u : (1u << Width) - 1;
  uint32_t Out = 0;
  for (unsigned First = 0; First < 32; First += std::max(Width, 1u))
    if (Lanes >> First & Segment)
      Out |= Segment << First;
  return Out;
}

unsigned shuffleSourceLane(ShuffleLane Kind, unsigned Lane, int64_t Operand,
                           unsigned Width) {
  // PTX shfl.sync with c = ((32 - width) << 8) | clamp, where clamp is 0 for
  // .up and 31 otherwise; segmask selects the bits that name the segment.
  unsigned SegMask = (32 - Width) & 31;
  unsigned MinLane = Lane & SegMask;
  unsigned MaxLane = MinLane | (31 & ~SegMask);
  uint64_t B = uint64_t(Operand) & 31;
  int64_t J;
  bool InBounds;
  switch (Kind) {
  case ShuffleLane::Up:
    J = int64_t(Lane) - int64_t(B);
    InBounds = J >= int64_t(MinLane);
    break;
  case ShuffleLane::Down:
    J = Lane + B;
    InBounds = J <= int64_t(MaxLane);
    break;
  case ShuffleLane::Xor:
    J = Lane ^ B;
    InBounds = J <= int64_t(MaxLane);
    break;
  case ShuffleLane::Absolute:
    J = MinLane | (B & ~SegMask);
    InBounds = J <= int64_t(MaxLane);
    break;
  case ShuffleLane::None:
    return Lane;
  }
  return InBounds ? unsigned(J) : Lane;
}

static const LegacyIntrinsic LegacyIntrinsics[] = {
    {"__shfl", "__shfl_sync"},
    {"__shfl_up", "__shfl_up_sync"},
    {"__shfl_down", "__shfl_down_sync"},
    {"__shfl_xor", "__shfl_xor_sync"},
    {"__ballot", "__ballot_sync"},
    {"__any", "__any_sync"},
    {"__all", "__all_sync"},
};

const LegacyIntrinsic *lookupLegacyIntrinsic(llvm::StringRef Name) {
  for (const LegacyIntrinsic &L : LegacyIntrinsics)
    if (L.Name == Name)
      return &L;
  return nullptr;
}

llvm::StringRef calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee()) {
    if (const IdentifierInfo *II = FD->getIdentifier())
      return II->getName();
    return {};
  }
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    if (const IdentifierInfo *II = ULE->getName().getAsIdentifierInfo())
      return II->getName();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    if (const IdentifierInfo *II = DRE->getDecl()->getIdentifier())
      return II->getName();
  return {};
}

/// Whether \p FD is a function of the user's own (defined outside the
/// system headers) that only shares an intrinsic's name, such as a
/// project's `__shfl_down(v, d)` template that calls `__shfl_down_sync`:
/// its body, not its name, says what it does.
static bool isUserLookalike(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || Def->getBuiltinID())
    return false;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(Def->getLocation());
  return Loc.isValid() && !SM.isInSystemHeader(Loc);
}

llvm::StringRef intrinsicName(const CallExpr *Call) {
  llvm::StringRef Name = calleeName(Call);
  // Only a name an intrinsic has can belong to a lookalike; asking where
  // every callee is defined would cost a source-manager lookup per call.
  if (!Name.starts_with("__") ||
      (!lookupCollective(Name) && !lookupLegacyIntrinsic(Name)))
    return Name;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return isUserLookalike(FD) ? llvm::StringRef() : Name;
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee)) {
    // A dependent call names the intrinsic unless every candidate is the
    // user's own function.
    bool AllUser = ULE->getNumDecls() > 0;
    for (const NamedDecl *D : ULE->decls()) {
      const Decl *U = D->getUnderlyingDecl();
      if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(U))
        U = FTD->getTemplatedDecl();
      const auto *FD = dyn_cast<FunctionDecl>(U);
      AllUser &= FD && isUserLookalike(FD);
    }
    if (AllUser)
      return {};
  }
  return Name;
}

/// Splits the operand list of the PTX instruction starting at \p Pos in
/// \p Asm and returns its last operand, trimmed.
static llvm::StringRef lastPtxOperand(llvm::StringRef Asm, size_t Pos) {
  llvm::StringRef Rest = Asm.substr(Pos);
  Rest = Rest.take_until([](char C) { return C == ';'; });
  size_t Comma = Rest.rfind(',');
  if (Comma == llvm::StringRef::npos) {
    // bar.warp.sync has a single operand after the opcode.
    size_t Space = Rest.find_first_of(" \t");
    if (Space == llvm::StringRef::npos)
      return {};
    return Rest.substr(Space).trim();
  }
  return Rest.substr(Comma + 1).trim();
}

static std::optional<CollectiveUse> matchAsm(const GCCAsmStmt *Asm) {
  std::string AsmText = Asm->getAsmString();
  llvm::StringRef Text = AsmText;
  const CollectiveInfo *Info = nullptr;
  size_t Pos = llvm::StringRef::npos;
  for (const CollectiveInfo *Candidate : {&PtxShuffle, &PtxVote, &PtxBarWarp})
    if ((Pos = Text.find(Candidate->Name)) != llvm::StringRef::npos) {
      Info = Candidate;
      break;
    }
  if (!Info)
    return std::nullopt;
  CollectiveUse Use;
  Use.Info = Info;
  Use.Site = Asm;
  llvm::StringRef Operand = lastPtxOperand(Text, Pos);
  unsigned Index;
  if (Operand.consume_front("%") && !Operand.getAsInteger(10, Index)) {
    unsigned Outputs = Asm->getNumOutputs();
    if (Index < Outputs)
      return std::nullopt;
    if (Index - Outputs < Asm->getNumInputs())
      Use.Mask = Asm->getInputExpr(Index - Outputs);
  } else {
    uint64_t Imm;
    if (!Operand.getAsInteger(0, Imm))
      Use.ImmediateMask = Imm;
    else if (Operand == "-1")
      Use.ImmediateMask = 0xffffffffu;
  }
  return Use;
}

std::optional<CollectiveUse> matchCollective(const Stmt *S) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return matchAsm(Asm);
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || isa<CXXMemberCallExpr>(Call))
    return std::nullopt;
  const CollectiveInfo *Info = lookupCollective(intrinsicName(Call));
  if (!Info)
    return std::nullopt;
  CollectiveUse Use;
  Use.Info = Info;
  Use.Site = Call;
  if (Call->getNumArgs() > 0) {
    Use.Mask = Call->getArg(0);
    Use.MaskIsDefaultArg = isa<CXXDefaultArgExpr>(Use.Mask);
  } else if (Info->Kind == CollectiveKind::SyncWarp) {
    // A dependent __syncwarp() call in a template has no default argument yet.
    Use.ImmediateMask = 0xffffffffu;
    Use.MaskIsDefaultArg = true;
  }
  return Use;
}

bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getName() == "cooperative_groups")
      return true;
  return false;
}

/// The cooperative-groups class \p T is (or points to), if any.
static const CXXRecordDecl *groupClass(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && inCooperativeGroups(RD) ? RD : nullptr;
}

/// The threads of the cooperative-groups tile \p T is (thread_block_tile<N>
/// or one of its bases), if it is one of at most a warp; 0 for a
/// coalesced_group; nullopt for anything else.
static std::optional<unsigned> groupWidth(QualType T) {
  const CXXRecordDecl *RD = groupClass(T);
  if (!RD)
    return std::nullopt;
  if (RD->getName() == "coalesced_group")
    return 0u;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->getName().contains("tile") ||
      Spec->getTemplateArgs().size() == 0)
    return std::nullopt;
  const TemplateArgument &Size = Spec->getTemplateArgs()[0];
  if (Size.getKind() != TemplateArgument::Integral)
    return std::nullopt;
  uint64_t N = Size.getAsIntegral().getZExtValue();
  if (!isValidShuffleWidth(int64_t(N)))
    return std::nullopt;
  return unsigned(N);
}

/// The method \p Call calls and the object it is called on, also for a
/// static method called through an object (a tile's `thread_rank()` and
/// `sync()` are static); the object is null for `T::method()`.
static std::pair<const CXXMethodDecl *, const Expr *>
methodCall(const CallExpr *Call) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return {MC->getMethodDecl(), MC->getImplicitObjectArgument()};
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!M || !M->isStatic())
    return {nullptr, nullptr};
  const auto *ME = dyn_cast<MemberExpr>(Call->getCallee()->IgnoreImpCasts());
  return {M, ME ? ME->getBase() : nullptr};
}

std::optional<GroupCollective> matchGroupCollective(const CallExpr *Call) {
  StringRef Method, Intrinsic;
  const Expr *Group = nullptr;
  std::string Owner;
  if (auto [M, Object] = methodCall(Call); M) {
    Group = Object;
    if (!M->getIdentifier() || !Group)
      return std::nullopt;
    Method = M->getName();
    Intrinsic = llvm::StringSwitch<StringRef>(Method)
                    .Case("shfl", "__shfl_sync")
                    .Case("shfl_down", "__shfl_down_sync")
                    .Case("shfl_up", "__shfl_up_sync")
                    .Case("shfl_xor", "__shfl_xor_sync")
                    .Case("sync", "__syncwarp")
                    .Case("ballot", "__ballot_sync")
                    .Case("any", "__any_sync")
                    .Case("all", "__all_sync")
                    .Case("match_any", "__match_any_sync")
                    .Case("match_all", "__match_all_sync")
                    .Default("");
  } else if (const FunctionDecl *F = Call->getDirectCallee();
             F && F->getIdentifier() && Call->getNumArgs() >= 2 &&
             inCooperativeGroups(F)) {
    Method = F->getName();
    Group = Call->getArg(0);
    // The reductions and scans read the other lanes' values by shuffles.
    if (Method == "reduce" || Method == "inclusive_scan" ||
        Method == "exclusive_scan")
      Intrinsic = "__shfl_xor_sync";
    Owner = "cooperative_groups::";
  }
  const CollectiveInfo *Info =
      Intrinsic.empty() ? nullptr : lookupCollective(Intrinsic);
  std::optional<unsigned> Width =
      Info ? groupWidth(Group->IgnoreImpCasts()->getType()) : std::nullopt;
  if (!Width)
    return std::nullopt;
  GroupCollective G;
  G.Use.Info = Info;
  G.Use.Site = Call;
  G.Use.GroupWidth = *Width;
  if (*Width == 32)
    G.Use.ImmediateMask = 0xffffffffu;
  G.Group = Group;
  G.TileWidth = *Width;
  if (Owner.empty())
    Owner = *Width ? "thread_block_tile<" + std::to_string(*Width) + ">::"
                   : "coalesced_group::";
  G.Spelling = Owner + Method.str();
  return G;
}

std::optional<CollectiveUse> collectiveAt(const Stmt *S) {
  if (std::optional<CollectiveUse> Use = matchCollective(S))
    return Use;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (std::optional<GroupCollective> G = matchGroupCollective(Call))
      return G->Use;
  return std::nullopt;
}

std::optional<unsigned> groupRankWidth(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E);
  auto [M, Object] = Call ? methodCall(Call)
                          : std::pair<const CXXMethodDecl *, const Expr *>();
  if (!M || !M->getIdentifier() || Call->getNumArgs() != 0 ||
      (M->getName() != "thread_rank" && M->getName() != "thread_index"))
    return std::nullopt;
  return groupWidth(
      Object ? Object->IgnoreImpCasts()->getType()
             : M->getASTContext().getCanonicalTagType(M->getParent()));
}

const Expr *collectiveOperand(const CollectiveUse &Use, unsigned Index) {
  const auto *Call = dyn_cast<CallExpr>(Use.Site);
  if (!Call)
    return nullptr;
  unsigned Arg = Index;
  if (methodCall(Call).first) {
    // A group's method has no mask and no width: its operands come first.
    if (Index == 0 || Index == CollectiveInfo::WidthArg)
      return nullptr;
    Arg = Index - 1;
  } else if (const FunctionDecl *F = Call->getDirectCallee();
             F && inCooperativeGroups(F)) {
    // `cooperative_groups::reduce(tile, v, op)`: the value, no lane.
    if (Index != CollectiveInfo::ValueArg || Call->getNumArgs() < 2)
      return nullptr;
    Arg = 1;
  }
  if (Arg >= Call->getNumArgs() || isa<CXXDefaultArgExpr>(Call->getArg(Arg)))
    return nullptr;
  return Call->getArg(Arg);
}

/// Returns the class of \p T (or of what it points to) if it is one of
/// libcu++'s atomic types: cuda::atomic, cuda::atomic_ref,
/// cuda::std::atomic(_ref|_flag).
static const CXXRecordDecl *libcuxxAtomic(QualType T) {
  if (T.isNull())
    return nullptr; // a dependent expression without a type (ParenListExpr)
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return nullptr;
  StringRef Name = RD->getName();
  if (Name != "atomic" && Name != "atomic_ref" && Name != "atomic_flag")
    return nullptr;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getName() == "cuda" && NS->getParent()->isTranslationUnit())
      return RD;
  return nullptr;
}

/// libcu++ members: `obj.fetch_add(v)`, `obj.compare_exchange_strong(e, d)`,
/// `flag.test_and_set()`, `obj += v`, `++obj`.
static std::optional<AtomicInfo> matchLibcuxxAtomic(const CallExpr *Call) {
  const Expr *Object = nullptr;
  llvm::ArrayRef<const Expr *> Args = callArguments(Call);
  std::optional<AtomicOp> Op;
  int64_t Implied = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || !M->getIdentifier())
      return std::nullopt;
    Object = MC->getImplicitObjectArgument();
    StringRef Name = M->getName();
    Op = llvm::StringSwitch<std::optional<AtomicOp>>(Name)
             .Case("fetch_add", AtomicOp::Add)
             .Case("fetch_sub", AtomicOp::Sub)
             .Case("fetch_min", AtomicOp::Min)
             .Case("fetch_max", AtomicOp::Max)
             .Case("fetch_and", AtomicOp::And)
             .Case("fetch_or", AtomicOp::Or)
             .Case("fetch_xor", AtomicOp::Xor)
             .Case("exchange", AtomicOp::Exch)
             .Case("compare_exchange_strong", AtomicOp::CAS)
             .Case("compare_exchange_weak", AtomicOp::CAS)
             .Case("test_and_set", AtomicOp::Exch)
             .Case("store", AtomicOp::Store)
             .Case("clear", AtomicOp::Store)
             .Default(std::nullopt);
    if (Name == "test_and_set" || Name == "clear") {
      Implied = Name == "test_and_set" ? 1 : 0;
      Args = {}; // their only parameter is the memory order
    }
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
    // libcu++'s operators are members: the object comes first.
    if (Call->getNumArgs() == 0 ||
        !isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee()))
      return std::nullopt;
    Object = Call->getArg(0);
    switch (OC->getOperator()) {
    case OO_PlusEqual:
    case OO_PlusPlus:
      Op = AtomicOp::Add;
      break;
    case OO_MinusEqual:
    case OO_MinusMinus:
      Op = AtomicOp::Sub;
      break;
    case OO_AmpEqual:
      Op = AtomicOp::And;
      break;
    case OO_PipeEqual:
      Op = AtomicOp::Or;
      break;
    case OO_CaretEqual:
      Op = AtomicOp::Xor;
      break;
    default:
      return std::nullopt;
    }
    Implied = 1;
    if (OC->getOperator() == OO_PlusPlus || OC->getOperator() == OO_MinusMinus)
      Args = {}; // the postfix form's dummy int is not an operand
  }
  // The members live in base classes: look through the derived-to-base cast.
  if (Object)
    Object = Object->IgnoreParenImpCasts();
  if (!Op || !Object || !libcuxxAtomic(Object->getType()))
    return std::nullopt;
  AtomicInfo Info{*Op};
  Info.Address = Object;
  Info.Member = true;
  Info.ImpliedValue = Implied;
  if (*Op == AtomicOp::CAS) {
    if (Args.size() < 2)
      return std::nullopt;
    Info.Compare = Args[0];
    Info.Value = Args[1];
  } else if (!Args.empty()) {
    Info.Value = Args[0];
  }
  return Info;
}

/// nvcc's atomics with memory order and scope (CUDA 12.8):
/// `__nv_atomic_fetch_add(p, v, order, scope)`, `__nv_atomic_add(...)`,
/// `__nv_atomic_exchange_n`, `__nv_atomic_store_n`.
static std::optional<AtomicInfo> matchNvAtomic(const CallExpr *Call,
                                               llvm::StringRef Name) {
  Name.consume_front("fetch_");
  std::optional<AtomicOp> Op = llvm::StringSwitch<std::optional<AtomicOp>>(Name)
                                   .Case("add", AtomicOp::Add)
                                   .Case("sub", AtomicOp::Sub)
                                   .Case("min", AtomicOp::Min)
                                   .Case("max", AtomicOp::Max)
                                   .Case("and", AtomicOp::And)
                                   .Case("or", AtomicOp::Or)
                                   .Case("xor", AtomicOp::Xor)
                                   .Case("exchange_n", AtomicOp::Exch)
                                   .Case("store_n", AtomicOp::Store)
                                   .Default(std::nullopt);
  if (!Op || Call->getNumArgs() < 2)
    return std::nullopt;
  AtomicInfo Info{*Op};
  Info.Address = Call->getArg(0);
  Info.Value = Call->getArg(1);
  return Info;
}

std::optional<AtomicInfo> matchAtomic(const CallExpr *Call) {
  llvm::StringRef Name = calleeName(Call);
  if (Name.consume_front("__nv_atomic_"))
    return matchNvAtomic(Call, Name);
  if (!Name.consume_front("atomic"))
    return matchLibcuxxAtomic(Call);
  if (!Name.consume_back("_block"))
    Name.consume_back("_system");
  std::optional<AtomicOp> Op = llvm::StringSwitch<std::optional<AtomicOp>>(Name)
                                   .Case("Add", AtomicOp::Add)
                                   .Case("Sub", AtomicOp::Sub)
                                   .Case("Inc", AtomicOp::Inc)
                                   .Case("Dec", AtomicOp::Dec)
                                   .Case("Min", AtomicOp::Min)
                                   .Case("Max", AtomicOp::Max)
                                   .Case("And", AtomicOp::And)
                                   .Case("Or", AtomicOp::Or)
                                   .Case("Xor", AtomicOp::Xor)
                                   .Case("CAS", AtomicOp::CAS)
                                   .Case("Exch", AtomicOp::Exch)
                                   .Default(std::nullopt);
  if (!Op || Call->getNumArgs() < 2)
    return std::nullopt;
  AtomicInfo Info{*Op};
  Info.Address = Call->getArg(0);
  if (*Op == AtomicOp::CAS) {
    if (Call->getNumArgs() < 3)
      return std::nullopt;
    Info.Compare = Call->getArg(1);
    Info.Value = Call->getArg(2);
  } else {
    Info.Value = Call->getArg(1);
  }
  return Info;
}

bool sameExpr(const Expr *A, const Expr *B, ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

llvm::ArrayRef<const Expr *> callArguments(const CallExpr *Call) {
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()))
      if (!MD->isStatic() && !Args.empty())
        return Args.drop_front();
  return Args;
}

const Expr *callObject(const CallExpr *Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD || MD->isStatic())
    return nullptr;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call))
    return MCE->getImplicitObjectArgument();
  if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0)
    return Call->getArg(0);
  return nullptr;
}

std::string atomicName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getNameAsString();
  return calleeName(Call).str();
}

bool isAtomicRef(QualType T) {
  const CXXRecordDecl *RD = libcuxxAtomic(T);
  return RD && RD->getName() == "atomic_ref";
}

std::optional<IntrinsicValue> lookupIntrinsicValue(llvm::StringRef Name) {
  using IV = IntrinsicValue;
  if (Name.consume_front("__nvvm_read_ptx_sreg_")) {
    if (Name == "laneid")
      return IV::LaneId;
    if (Name == "tid_x")
      return IV::ThreadIndexX;
    if (Name == "tid_y")
      return IV::ThreadIndexY;
    if (Name.starts_with("tid_"))
      return IV::ThreadIndexZ;
    if (Name.starts_with("lanemask"))
      return IV::LaneMask;
    if (Name.starts_with("clock") || Name.starts_with("globaltimer") ||
        Name == "smid" || Name == "nsmid")
      return IV::Clock;
    return IV::Uniform; // ctaid, ntid, nctaid, warpid, …
  }
  return llvm::StringSwitch<std::optional<IV>>(Name)
      .Cases({"__syncthreads_or", "__syncthreads_and", "__syncthreads_count"},
             IV::BlockUniform)
      .Cases({"__nvvm_bar0_or", "__nvvm_bar0_and", "__nvvm_bar0_popc"},
             IV::BlockUniform)
      .Cases({"__activemask", "__nvvm_activemask"}, IV::ActiveMask)
      .Cases({"__lanemask_lt", "__lanemask_le", "__lanemask_gt",
              "__lanemask_ge", "__lanemask_eq"},
             IV::LaneMask)
      .Cases({"__popc", "__popcll", "__nv_popc", "__nv_popcll"}, IV::PopCount)
      .Cases({"__builtin_popcount", "__builtin_popcountll"}, IV::PopCount)
      .Cases({"clock", "clock64", "__globaltimer"}, IV::Clock)
      .Default(std::nullopt);
}

std::optional<IntrinsicValue> lookupGroupMethod(llvm::StringRef Group,
                                                llvm::StringRef Method) {
  using IV = IntrinsicValue;
  bool Tile = Group.contains("tile") || Group.contains("coalesced");
  if (Method == "thread_rank" || Method == "thread_index")
    return Tile                      ? IV::TileRank
           : Group == "thread_block" ? IV::BlockRank
                                     : IV::GridRank;
  if ((Method == "size" || Method == "num_threads") &&
      Group.contains("coalesced"))
    return IV::ActiveCount;
  if (Method == "shfl")
    return IV::ShuffleResult;
  return llvm::StringSwitch<std::optional<IV>>(Method)
      .Cases({"reduce", "ballot", "any", "all", "size", "num_threads",
              "meta_group_rank", "meta_group_size", "group_index", "group_dim",
              "dim_threads", "block_rank", "this_thread_block",
              "tiled_partition", "this_grid"},
             IV::Uniform)
      .Default(std::nullopt);
}

std::optional<IntrinsicValue> lookupSpecialRegister(llvm::StringRef Asm) {
  using IV = IntrinsicValue;
  if (Asm.contains("%laneid"))
    return IV::LaneId;
  if (Asm.contains("%tid.x"))
    return IV::ThreadIndexX;
  if (Asm.contains("%lanemask"))
    return IV::LaneMask;
  if (Asm.contains("%tid.y"))
    return IV::ThreadIndexY;
  if (Asm.contains("%tid."))
    return IV::ThreadIndexZ;
  if (Asm.contains("%clock") || Asm.contains("%globaltimer") ||
      Asm.contains("%smid"))
    return IV::Clock;
  return std::nullopt;
}

std::optional<LaunchApi> lookupLaunchApi(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<LaunchApi>>(Name)
      .Cases({"cudaLaunchKernel", "cudaLaunchCooperativeKernel"},
             LaunchApi{0, 2, -1})
      .Cases({"cudaLaunchKernelEx", "cudaLaunchKernelExC"}, LaunchApi{1, -1, 0})
      .Default(std::nullopt);
}

bool isBarrierName(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Case("__syncthreads", true)
      .Case("__syncthreads_count", true)
      .Case("__syncthreads_and", true)
      .Case("__syncthreads_or", true)
      .Case("__barrier_sync", true)
      .Default(false);
}

IntrinsicValue lookupBuiltinVariable(llvm::StringRef Var,
                                     llvm::StringRef Field) {
  if (Var == "threadIdx")
    return Field == "x"   ? IntrinsicValue::ThreadIndexX
           : Field == "y" ? IntrinsicValue::ThreadIndexY
                          : IntrinsicValue::ThreadIndexZ;
  if (Var == "blockDim" && Field == "x")
    return IntrinsicValue::BlockDimX;
  return IntrinsicValue::Uniform; // blockIdx, gridDim, blockDim.y/z, warpSize
}

/// The built-in variable named \p Var with member \p Field.
static std::optional<BuiltinRegister> builtinNamed(StringRef Var,
                                                   StringRef Field) {
  using BR = BuiltinRegister;
  std::optional<BR::Variable> V =
      llvm::StringSwitch<std::optional<BR::Variable>>(Var)
          .Case("threadIdx", BR::ThreadIdx)
          .Case("blockIdx", BR::BlockIdx)
          .Case("blockDim", BR::BlockDim)
          .Case("gridDim", BR::GridDim)
          .Default(std::nullopt);
  if (!V || Field.size() != 1 || Field[0] < 'x' || Field[0] > 'z')
    return std::nullopt;
  return BR{*V, unsigned(Field[0] - 'x')};
}

std::optional<BuiltinRegister> matchBuiltinRegister(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    const auto *Prop =
        dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
    if (!Prop)
      return std::nullopt;
    const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
      Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(Base);
    if (!DRE)
      return std::nullopt;
    return builtinNamed(DRE->getDecl()->getName(),
                        Prop->getPropertyDecl()->getName());
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  StringRef Name = Call ? calleeName(Call) : StringRef();
  if (!Name.consume_front("__nvvm_read_ptx_sreg_") || Name.size() < 3)
    return std::nullopt;
  static constexpr std::pair<StringRef, StringRef> Sregs[] = {
      {"tid_", "threadIdx"},
      {"ctaid_", "blockIdx"},
      {"ntid_", "blockDim"},
      {"nctaid_", "gridDim"}};
  for (auto [Prefix, Var] : Sregs)
    if (Name.consume_front(Prefix))
      return builtinNamed(Var, Name);
  return std::nullopt;
}

llvm::StringRef launchConfigBlockField() { return "blockDim"; }

bool isDeviceFence(llvm::StringRef Name) { return Name == "__threadfence"; }

std::optional<MaskSourceKind> maskSourceKind(const CallExpr *Call) {
  if (!Call)
    return std::nullopt;
  StringRef Name = calleeName(Call);
  if (lookupIntrinsicValue(Name) == IntrinsicValue::ActiveMask)
    return MaskSourceKind::ActiveLanes;
  if (Name == "coalesced_threads" && Call->getNumArgs() == 0 &&
      Call->getDirectCallee() && inCooperativeGroups(Call->getDirectCallee()))
    return MaskSourceKind::CoalescedGroup;
  if (Call->getNumArgs() != 2)
    return std::nullopt;
  if (Name == "__ballot_sync")
    return MaskSourceKind::Ballot;
  if (Name == "__match_any_sync")
    return MaskSourceKind::PeerGroup;
  return std::nullopt;
}

bool isRepeatableIntrinsic(llvm::StringRef Name) {
  if (Name.starts_with("__fetch_builtin_") ||
      Name.starts_with("__nvvm_read_ptx_sreg_"))
    return true;
  return llvm::StringSwitch<bool>(Name)
      .Cases({"__ffs", "__ffsll", "__popc", "__popcll", "__clz", "__brev"},
             true)
      .Cases({"min", "max", "abs", "__float_as_int", "__int_as_float"}, true)
      .Cases({"thread_rank", "meta_group_rank", "size", "num_threads"}, true)
      .Default(false);
}

std::optional<llvm::StringRef> warpReductionFor(AtomicOp Op) {
  switch (Op) {
  case AtomicOp::Add:
    return llvm::StringRef("__reduce_add_sync");
  case AtomicOp::Min:
    return llvm::StringRef("__reduce_min_sync");
  case AtomicOp::Max:
    return llvm::StringRef("__reduce_max_sync");
  case AtomicOp::And:
    return llvm::StringRef("__reduce_and_sync");
  case AtomicOp::Or:
    return llvm::StringRef("__reduce_or_sync");
  case AtomicOp::Xor:
    return llvm::StringRef("__reduce_xor_sync");
  default:
    return std::nullopt;
  }
}

bool isFloatingRecordName(llvm::StringRef Name) {
  return Name.starts_with("__half") || Name.starts_with("__nv_bfloat") ||
         Name.starts_with("__nv_fp8") ||
         ((Name.consume_front("float") || Name.consume_front("double")) &&
          Name.size() == 1 && llvm::isDigit(Name[0]));
}

} // namespace clang::warp
