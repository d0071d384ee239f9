//===--- ValueEvaluator.h - transfer functions for expressions --*- C++ -*-===//
//
// Computes the WarpValue of an expression from the values of the variables it
// reads: the sources of variance (threadIdx.x, lane ids, loads through varying
// addresses, atomics, match_any, clock) and of uniformity (constants, kernel
// parameters, blockIdx, blockDim, warpSize, threadIdx.x / 32, ballot/any/all/
// reduce results, shuffles from a uniform lane).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_VALUEEVALUATOR_H
#define WARP_LINT_ANALYSIS_VALUEEVALUATOR_H

#include "LocalDefinitions.h"
#include "WarpCollectives.h"
#include "WarpValue.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <tuple>

namespace clang::warp {

struct UniformityOptions {
  /// Treat threadIdx.y/z as warp-uniform (blockDim.x a multiple of 32).
  bool ThreadIdxYZUniform = false;

  /// Every member, for ordering and equality (add new options here).
  auto tie() const { return std::tie(ThreadIdxYZUniform); }
  bool operator<(const UniformityOptions &O) const { return tie() < O.tie(); }
  bool operator==(const UniformityOptions &O) const { return tie() == O.tie(); }
};

/// What a callee writes through one of its reference or pointer parameters.
struct ParamWrite {
  bool Written = false; ///< false: it never writes there
  WarpValue Value;      ///< joined over its writes
};

/// Answers what the evaluator cannot see locally: calls into other functions
/// and variables captured from an enclosing function.
class ValueOracle {
public:
  virtual ~ValueOracle() = default;
  /// The value \p Call returns given the values of its arguments and, for a
  /// method, of the object it is called on (\p Object, null otherwise), or
  /// nullopt when the callee has no body to summarise.
  virtual std::optional<WarpValue> callResult(const CallExpr *Call,
                                              const FunctionDecl *Callee,
                                              llvm::ArrayRef<WarpValue> Args,
                                              const WarpValue *Object) = 0;
  /// What the callee of \p Call writes through its reference or pointer
  /// parameter \p Param, given the values of its arguments, or nullopt when
  /// the callee has no body to summarise.
  virtual std::optional<ParamWrite> paramWrite(const CallExpr *Call,
                                               unsigned Param,
                                               llvm::ArrayRef<WarpValue> Args) {
    return std::nullopt;
  }
  /// The value of \p VD, a local of an enclosing function, where captured.
  virtual WarpValue capturedValue(const VarDecl *VD) = 0;
  /// Whether every launch of kernel \p Kernel in this translation unit uses
  /// a block whose x extent is a multiple of 32 (or a 1-D block), so that
  /// threadIdx.y/z are the same in all lanes of a warp.
  virtual bool launchedWarpAligned(const FunctionDecl *Kernel) { return false; }
  /// Tells the oracle where the variables of \p FD live while it is being
  /// analysed, so lambdas it calls can read their captures meanwhile.
  virtual void
  analysing(const FunctionDecl *FD,
            const llvm::DenseMap<const VarDecl *, WarpValue> *Vars) {}
  /// The value of \p E when it is an integer constant expression (a call
  /// is left to the evaluator, which knows the intrinsics). An oracle
  /// shared by the functions of a unit remembers the answers: each
  /// function is evaluated once per fixpoint round and call-site
  /// specialization, and folding a nested expression at every level is
  /// quadratic in its depth.
  virtual std::optional<int64_t> integerConstant(const Expr *E,
                                                 ASTContext &Ctx);
  /// How many answers so far read variables of a function whose analysis
  /// is under way: an answer that did may change as that analysis goes on.
  virtual unsigned unfinishedReads() const { return 0; }
};

/// Where the evaluator reads the locals and parameters of the function it
/// evaluates.
class LocalValues {
public:
  virtual ~LocalValues() = default;
  /// The value of \p Slot that \p Use reads (its root reference), or
  /// nullopt when nothing is known of it.
  virtual std::optional<WarpValue> read(const LocalSlot &Slot,
                                        const Expr *Use) = 0;
};

class ValueEvaluator {
public:
  using VarState = llvm::DenseMap<const VarDecl *, WarpValue>;

  ValueEvaluator(ASTContext &Ctx, const FunctionDecl *FD,
                 const UniformityOptions &Opts, LocalValues &Locals,
                 ValueOracle &Oracle)
      : Ctx(Ctx), FD(FD), Opts(Opts), Locals(Locals), Oracle(Oracle) {}

  WarpValue eval(const Expr *E);
  /// The value field \p Field of a record gets from \p Source, the
  /// initializer or right-hand side that writes the whole record: its
  /// element of an init list, or what the constructor's member initializer
  /// gives it from the constructor's arguments. Nullopt when unknown.
  std::optional<WarpValue> fieldValue(const Expr *Source,
                                      const FieldDecl *Field);
  /// The value of intrinsic \p K called at \p Site with \p Args.
  WarpValue intrinsic(IntrinsicValue K, const Stmt *Site,
                      llvm::ArrayRef<WarpValue> Args);
  /// The address of the object \p LValue designates (`&LValue`).
  WarpValue addressOf(const Expr *LValue);
  /// The value the callee of \p Call leaves in the object bound to its
  /// reference or pointer parameter \p Param: nullopt if it never writes
  /// there, per-lane data if it cannot be seen.
  std::optional<WarpValue> writtenThrough(const CallExpr *Call, unsigned Param);
  /// Forgets memoised values (after variables changed).
  void reset() { Memo.clear(); }
  /// Forgets the memoised values and frees their memory, which reset keeps
  /// for the next evaluation.
  void release() { Memo = decltype(Memo)(); }

  /// Whether a parameter of type \p T lets the callee write the caller's
  /// object: a reference to non-const.
  static bool isMutableReference(QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }

private:
  WarpValue evalUncached(const Expr *E);
  /// Whether clang might fold \p E to an integer, judged from the values
  /// of its operands: an operator folds only where its integer operands do,
  /// and a variable neither const nor constexpr never does. Asking clang
  /// walks down the operands, at every level of a nested expression, and
  /// almost always fails; this asks only where the answer can be yes.
  bool mayFold(const Expr *E);
  /// Whether operand \p Op of a fold candidate may fold: false only when
  /// the evaluator asks clang about \p Op itself and got no constant.
  bool operandMayFold(const Expr *Op);
  /// `this` in a method: uniform if the object the callers call it on is
  /// (callResult binds it). A lambda's `this` is its enclosing method's.
  WarpValue evalThis();
  WarpValue evalCast(const CastExpr *Cast);
  WarpValue evalUnary(const UnaryOperator *UO);
  /// `a[i]`: an element of a local array, or a load at a computed address.
  WarpValue evalSubscript(const ArraySubscriptExpr *ASE);
  /// `p->f` loads through p; `s.f` is a field of a local, or the value of s.
  WarpValue evalMember(const MemberExpr *ME);
  WarpValue evalConditional(const AbstractConditionalOperator *CO);
  /// The forms only template patterns and error recovery have.
  WarpValue evalDependent(const Expr *E);
  WarpValue evalBinary(const BinaryOperator *BO);
  /// Arithmetic that keeps lane-index shapes (threadIdx.x + c, lane id,
  /// warp id) where it can.
  static WarpValue arithmetic(BinaryOperatorKind Op, const WarpValue &L,
                              const WarpValue &R);
  /// The linear thread index built from threadIdx.y * blockDim.x, when
  /// \p Op makes one of \p L and \p R part of it (\p C: their combination).
  static std::optional<WarpValue> linearIndex(BinaryOperatorKind Op,
                                              const WarpValue &L,
                                              const WarpValue &R,
                                              const WarpValue &C);
  WarpValue evalCompare(BinaryOperatorKind Op, const WarpValue &L,
                        const WarpValue &R, const Expr *E);
  WarpValue evalCall(const CallExpr *Call);
  std::optional<WarpValue> evalInlined(const FunctionDecl *Callee,
                                       llvm::ArrayRef<WarpValue> Args);
  WarpValue evalBuiltinRegister(const Expr *E);
  WarpValue evalDeclRef(const DeclRefExpr *DRE);
  /// The value of the local storage \p LValue designates (`s.f`, `a[i]`),
  /// with the subscripts on the way.
  WarpValue evalLocal(const LocalSlot &Slot, const Expr *LValue);
  WarpValue load(const WarpValue &Address, const Expr *E);
  /// Whether \p Sub is `x - x % m` with m a multiple of 32 (\p Remainder:
  /// the value of `x % m`).
  bool roundsDown(const BinaryOperator *Sub, const WarpValue &Remainder);
  /// The address \p Offset elements past \p Base.
  WarpValue offsetAddress(const WarpValue &Base, const WarpValue &Offset);
  /// threadIdx.y/z are warp-uniform: by option, or because every launch of
  /// this kernel in the translation unit has a warp-aligned block.
  bool yzUniform();

  ASTContext &Ctx;
  const FunctionDecl *FD;
  const UniformityOptions &Opts;
  LocalValues &Locals;
  ValueOracle &Oracle;
  llvm::DenseMap<const Expr *, WarpValue> Memo;
  bool YZKnown = false, YZUniform = false;
  /// How many one-line helpers deep this evaluator is (0: the function's
  /// own); an inlined evaluator's parameters are the caller's arguments.
  unsigned InlineDepth = 0;
  unsigned AddressDepth = 0; ///< reference locals followed by addressOf
};

} // namespace clang::warp

#endif
