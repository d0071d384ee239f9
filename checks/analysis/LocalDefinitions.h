//===--- LocalDefinitions.h - where each local gets its value ---*- C++ -*-===//
//
// The definitions of a function's locals and parameters, found once over its
// CFG, and which of them reach each read. A local of record type is kept per
// field (`s.tile = …` leaves `s.block` alone), so that one field written by
// one lane does not make the others vary; an array is kept whole.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LINT_ANALYSIS_LOCALDEFINITIONS_H
#define WARP_LINT_ANALYSIS_LOCALDEFINITIONS_H

#include "ReachingDefinitions.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <deque>
#include <optional>

namespace clang::warp {

/// Storage of this lane that an lvalue designates: a local (or parameter), or
/// one field of a local record.
struct LocalSlot {
  const VarDecl *Var = nullptr;
  const FieldDecl *Field = nullptr; ///< null: the whole variable
  /// The lvalue is part of the slot (an element, a nested field).
  bool Partial = false;
  const DeclRefExpr *Root = nullptr; ///< the reference to Var
};

/// Returns the slot \p E designates, through `.field` and subscripts of local
/// arrays. A reference local is a slot only to read (\p ForWrite false):
/// writes through it go to what it refers to.
std::optional<LocalSlot> localSlot(const Expr *E, bool ForWrite);

class LocalDefinitions {
public:
  enum class Kind : uint8_t {
    Entry,     ///< a parameter's value on entry
    Init,      ///< a declaration, with or without initializer
    Assign,    ///< `=` and compound assignments
    IncDec,    ///< `++`/`--`
    AsmOutput, ///< an output operand of inline asm
    CallOut    ///< passed by non-const reference or address to a call
  };
  struct Definition {
    Kind K;
    const Stmt *Site = nullptr; ///< the CFG element; null for Entry
    const VarDecl *Var = nullptr;
    const FieldDecl *Field = nullptr; ///< null: the whole variable
    bool Partial = false;             ///< writes only part of the slot
    const Expr *Operand = nullptr;    ///< AsmOutput: the output expression
    unsigned Arg = 0;                 ///< CallOut: the argument index
  };

  /// \p Cfg and \p Elements (its index) outlive this object.
  LocalDefinitions(const FunctionDecl *FD, const CFG &Cfg,
                   const ElementPositions &Elements);

  llvm::ArrayRef<Definition> all() const { return Defs; }
  /// The definitions made by the CFG element \p Site, as indices in all().
  llvm::ArrayRef<unsigned> at(const Stmt *Site) const;
  /// The definitions of \p Var (any field), as indices in all().
  llvm::ArrayRef<unsigned> of(const VarDecl *Var) const;
  /// The definitions that may have given \p Var (or its \p Field) the value
  /// read at \p Use, as indices in all(); nullopt when \p Use is not an
  /// element of the CFG (callers then take every definition of the slot).
  std::optional<llvm::SmallVector<unsigned, 2>>
  reaching(const VarDecl *Var, const FieldDecl *Field, const Stmt *Use);

private:
  void collect(const FunctionDecl *FD, const CFG &Cfg);
  void add(Definition D);
  void registerSlots();
  const void *key(const VarDecl *Var, const FieldDecl *Field);

  std::vector<Definition> Defs;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 1>> BySite;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<unsigned, 2>> ByVar;
  /// One key object per slot; its address is the ReachingDefinitions key.
  std::deque<std::pair<const VarDecl *, const FieldDecl *>> Keys;
  llvm::DenseMap<std::pair<const VarDecl *, const FieldDecl *>, const void *>
      KeyOf;
  /// Per key: ReachingDefinitions' index -> index in Defs.
  llvm::DenseMap<const void *, llvm::SmallVector<unsigned, 2>> Members;
  ReachingDefinitions Reaching;
};

} // namespace clang::warp

#endif
