//===--- LockPatternsTest.cpp - spin locks taken and released -------------===//
//
// Each lock kind LockPatterns recognises, the traps that look like a lock
// and are none (a lock-free retry, a claim per row, a flag set without
// testing it), and what LockSections says about the holder: the critical
// section up to the release and who contends for the lock.
//
//===----------------------------------------------------------------------===//

#include "analysis/LockPatterns.h"
#include "AnalysisTestHarness.h"
#include "analysis/LockSections.h"
#include "clang/Lex/Lexer.h"

namespace clang::warp::test {
namespace {

class LockPatternsTest : public AnalysisTest {
protected:
  /// The \p Nth statement of kind \p T in the function \p Fn, in source
  /// order.
  template <typename T>
  const T *nth(llvm::StringRef Fn, unsigned Nth = 0,
               std::function<bool(const T *)> Pred = nullptr) {
    const FunctionDecl *FD = function(Fn);
    const T *Found = nullptr;
    walkStmts(FD ? FD->getBody() : nullptr, [&](const Stmt *S) {
      if (const auto *X = dyn_cast<T>(S);
          X && !Found && (!Pred || Pred(X)) && Nth-- == 0)
        Found = X;
    });
    EXPECT_TRUE(Found) << "not found in " << Fn.str();
    return Found;
  }
  /// The \p Nth call of \p Callee in \p Fn.
  const CallExpr *call(llvm::StringRef Fn, llvm::StringRef Callee,
                       unsigned Nth = 0) {
    return nth<CallExpr>(
        Fn, Nth, [&](const CallExpr *C) { return calleeName(C) == Callee; });
  }
  /// The first loop of \p Fn.
  const Stmt *loop(llvm::StringRef Fn) {
    return nth<Stmt>(Fn, 0, [](const Stmt *S) {
      return isa<WhileStmt, DoStmt, ForStmt>(S);
    });
  }
  /// The lock \p Fn's first loop spins to take, in words: "<callee of the
  /// take> at <line> on <lock>", or "none".
  std::string acquire(llvm::StringRef Fn) {
    const Stmt *L = loop(Fn);
    if (!L)
      return "?";
    std::optional<LockAcquire> A = Helpers.spinAcquire(L, context());
    if (!A)
      return "none";
    EXPECT_EQ(A->Loop, L);
    return calleeName(A->Atomic).str() + " at " +
           std::to_string(lineOf(A->Atomic)) + " on " + text(A->Lock);
  }
  /// \p E as written.
  std::string text(const Expr *E) {
    if (!E)
      return "null";
    const SourceManager &SM = context().getSourceManager();
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E->getSourceRange()), SM,
               context().getLangOpts())
        .str();
  }

  LockHelpers Helpers;
};

TEST_F(LockPatternsTest, AtomicsThatTakeALock) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *l, int *p, int *q) {
  atomicCAS(l, 0, 1);
  atomicExch(p, 1);
  atomicOr(q, 1);
  int old = *p;
  atomicCAS(p, old, old + 1);
  atomicCAS(p, 1, 1);
  atomicExch(p, 0);
  atomicAdd(p, 1);
}
)cu"));
  auto Takes = [&](llvm::StringRef Callee, unsigned Nth = 0) {
    return text(lockTaken(call("k", Callee, Nth), context()));
  };
  EXPECT_EQ(Takes("atomicCAS"), "l");
  EXPECT_EQ(Takes("atomicExch"), "p");
  EXPECT_EQ(Takes("atomicOr"), "q");
  // A CAS that writes a computed value is a lock-free retry; one that writes
  // what it compares with changes nothing; writing 0 releases.
  EXPECT_EQ(Takes("atomicCAS", 1), "null");
  EXPECT_EQ(Takes("atomicCAS", 2), "null");
  EXPECT_EQ(Takes("atomicExch", 1), "null");
  EXPECT_EQ(Takes("atomicAdd"), "null");
}

TEST_F(LockPatternsTest, SpinLoopsOfEachKind) {
  ASSERT_TRUE(analyze(R"cu(
__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__global__ void cas_while(int *l) {
  while (atomicCAS(l, 0, 1) != 0)
    ;
}
__global__ void exch_do(int *l) {
  do {
  } while (atomicExch(l, 1) != 0);
}
__global__ void break_out(int *l) {
  for (;;) {
    int old = atomicCAS(l, 0, 1);
    if (old == 0)
      break;
  }
}
__global__ void test_and_set(unsigned *l) {
  while (atomicOr(l, 1u) & 1u)
    ;
}
__global__ void via_try_lock(int *locks) {
  while (!try_lock(&locks[blockIdx.x]))
    ;
}
)cu"));
  EXPECT_EQ(acquire("cas_while"), "atomicCAS at 4 on l");
  EXPECT_EQ(acquire("exch_do"), "atomicExch at 9 on l");
  EXPECT_EQ(acquire("break_out"), "atomicCAS at 13 on l");
  EXPECT_EQ(acquire("test_and_set"), "atomicOr at 19 on l");
  // Through a try-lock helper: the take inside it, the lock the caller
  // passes, and the helper's call as the take site.
  EXPECT_EQ(acquire("via_try_lock"), "atomicCAS at 2 on &locks[blockIdx.x]");
  std::optional<LockAcquire> A =
      Helpers.spinAcquire(loop("via_try_lock"), context());
  ASSERT_TRUE(A);
  EXPECT_EQ(A->TakeSite, call("via_try_lock", "try_lock"));
  std::pair<const CallExpr *, const Expr *> Take =
      tryLockTake(call("via_try_lock", "try_lock"), context());
  EXPECT_EQ(Take.first, A->Atomic);
  EXPECT_EQ(text(Take.second), "&locks[blockIdx.x]");
}

TEST_F(LockPatternsTest, LoopsThatAreNoSpinAcquire) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void retry(int *p) {
  int old;
  do {
    old = *p;
  } while (atomicCAS(p, old, old * 2) != old);
}
__global__ void claim_rows(int *lock, int n) {
  for (int row = 0; row < n; ++row)
    if (atomicCAS(&lock[row], 0, 1) == 0)
      lock[n + row] = 1;
}
__global__ void result_ignored(int *overflow, const int *in, int n) {
  for (int i = 0; i < n; ++i)
    if (in[i] > 9)
      atomicOr(overflow, 1);
}
__global__ void waits_for_another_bit(unsigned *l) {
  while (atomicOr(l, 2u) & 1u)
    ;
}
__global__ void lane_safe(int *l, int *data) {
  while (true) {
    if (atomicCAS(l, 0, 1) == 0) {
      *data += 1;
      atomicExch(l, 0);
      break;
    }
  }
}
)cu"));
  EXPECT_EQ(acquire("retry"), "none");
  EXPECT_EQ(acquire("claim_rows"), "none");
  EXPECT_EQ(acquire("result_ignored"), "none");
  EXPECT_EQ(acquire("waits_for_another_bit"), "none");
  // Released inside the loop: no lane leaves holding the lock.
  EXPECT_EQ(acquire("lane_safe"), "none");
}

TEST_F(LockPatternsTest, ReleasesAndTheirOrder) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void k(int *l, int *other) {
  atomicExch(l, 0);
  *(volatile int *)l = 0;
  atomicExch(other, 0);
  atomicExch(l, 1);
}
)cu"));
  const Expr *Lock = call("k", "atomicExch")->getArg(0);
  auto Releases = [&](const Stmt *S) {
    return findRelease(S, Lock, context()) != nullptr;
  };
  EXPECT_TRUE(Releases(call("k", "atomicExch", 0)));
  EXPECT_TRUE(Releases(nth<BinaryOperator>("k")));
  EXPECT_FALSE(Releases(call("k", "atomicExch", 1)));
  EXPECT_FALSE(Releases(call("k", "atomicExch", 2)));
  // The intrinsics are relaxed: ordering needs a fence.
  EXPECT_FALSE(isOrderedRelease(call("k", "atomicExch", 0)));
}

TEST_F(LockPatternsTest, BareSpinConditions) {
  ASSERT_TRUE(analyze(R"cu(
__device__ void backoff();
__global__ void bare(int *l) {
  while (atomicCAS(l, 0, 1) != 0) {
  }
}
__global__ void with_body(int *l) {
  while (atomicCAS(l, 0, 1) != 0)
    backoff();
}
__global__ void for_loop(int *l) {
  for (; atomicCAS(l, 0, 1) != 0;)
    ;
}
)cu"));
  const Expr *Cond = bareSpinCondition(loop("bare"));
  ASSERT_TRUE(Cond);
  EXPECT_EQ(text(Cond), "atomicCAS(l, 0, 1) != 0");
  EXPECT_EQ(bareSpinCondition(loop("with_body")), nullptr);
  EXPECT_EQ(bareSpinCondition(loop("for_loop")), nullptr);
}

TEST_F(LockPatternsTest, LockHelpersAreFunctionsThatTakeOrSpin) {
  ASSERT_TRUE(analyze(R"cu(
__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void lock(int *l) {
  while (!try_lock(l))
    ;
}
__device__ int plain(int x) { return x + 1; }
__device__ void lock_then_work(int *l, int *d) {
  while (atomicExch(l, 1))
    ;
  *d = plain(*d);
}
__global__ void k(int *l, int *d) {
  lock(l);
  *d = plain(1);
  atomicAdd(d, 1);
  lock_then_work(l, d);
}
)cu"));
  EXPECT_TRUE(Helpers.mayTakeLock(call("k", "atomicAdd")));
  EXPECT_TRUE(Helpers.mayTakeLock(call("lock", "try_lock")));
  EXPECT_FALSE(Helpers.mayTakeLock(call("k", "plain")));
  // An acquire helper ends with its spin loop; one that works after it
  // holding the lock is no helper.
  EXPECT_EQ(Helpers.helperAcquire(function("lock"), context()), loop("lock"));
  EXPECT_EQ(Helpers.helperAcquire(function("lock_then_work"), context()),
            nullptr);
  EXPECT_EQ(Helpers.helperAcquire(function("plain"), context()), nullptr);
  // Asked again, the same answer from what was remembered.
  EXPECT_EQ(Helpers.helperAcquire(function("lock"), context()), loop("lock"));
}

TEST_F(LockPatternsTest, CriticalSectionUpToTheRelease) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void fenced(int *l, int *d) {
  while (atomicCAS(l, 0, 1) != 0)
    ;
  *d += 1;
  __threadfence();
  atomicExch(l, 0);
  *d += 2;
}
__global__ void unfenced(int *l, int *d) {
  while (atomicCAS(l, 0, 1) != 0)
    ;
  *d += 1;
  atomicExch(l, 0);
}
__global__ void synced(int *l, int *d) {
  while (atomicCAS(l, 0, 1) != 0)
    ;
  *d += __shfl_sync(0xffffffff, *d, 0);
  atomicExch(l, 0);
}
__global__ void never_released(int *l, int *d) {
  while (atomicCAS(l, 0, 1) != 0)
    ;
  *d += 1;
  *d += __shfl_sync(__activemask(), *d, 0);
}
)cu"));
  auto Section = [&](llvm::StringRef Fn) {
    const Stmt *L = loop(Fn);
    std::optional<LockAcquire> A = Helpers.spinAcquire(L, context());
    EXPECT_TRUE(A);
    return A ? criticalSection(*A, L, *uniformity(Fn), analysis())
             : CriticalSection{};
  };
  CriticalSection Fenced = Section("fenced");
  EXPECT_EQ(Fenced.End, 2u);
  EXPECT_EQ(Fenced.After.size(), 4u);
  EXPECT_EQ(Fenced.Release, call("fenced", "atomicExch"));
  EXPECT_EQ(Fenced.Sync, nullptr);
  EXPECT_FALSE(releaseNeedsFence(Fenced));
  CriticalSection Unfenced = Section("unfenced");
  EXPECT_EQ(Unfenced.End, 1u);
  EXPECT_TRUE(releaseNeedsFence(Unfenced));
  CriticalSection Synced = Section("synced");
  EXPECT_EQ(Synced.Sync, call("synced", "__shfl_sync"));
  EXPECT_EQ(Synced.Release, call("synced", "atomicExch"));
  // No release seen; a collective over __activemask() waits for no one.
  CriticalSection Never = Section("never_released");
  EXPECT_EQ(Never.Release, nullptr);
  EXPECT_EQ(Never.End, Never.After.size());
  EXPECT_EQ(Never.Sync, nullptr);
}

TEST_F(LockPatternsTest, WhoContendsForTheLock) {
  ASSERT_TRUE(analyze(R"cu(
__global__ void one_lock(int *l) {
  while (atomicCAS(l, 0, 1) != 0)
    ;
}
__global__ void per_lane(int *locks) {
  while (atomicCAS(&locks[threadIdx.x], 0, 1) != 0)
    ;
}
__global__ void by_data(int *locks, const int *bucket) {
  while (atomicCAS(&locks[bucket[threadIdx.x]], 0, 1) != 0)
    ;
}
__global__ void leader(int *l) {
  if (threadIdx.x == 0)
    while (atomicCAS(l, 0, 1) != 0)
      ;
}
)cu"));
  auto Address = [&](llvm::StringRef Fn) -> std::optional<WarpValue> {
    const Stmt *L = loop(Fn);
    std::optional<LockAcquire> A = Helpers.spinAcquire(L, context());
    EXPECT_TRUE(A);
    if (!A)
      return std::nullopt;
    return contendedAddress(*A, L, *uniformity(Fn), analysis());
  };
  std::optional<WarpValue> One = Address("one_lock");
  ASSERT_TRUE(One);
  EXPECT_TRUE(One->isUniform());
  std::optional<WarpValue> Data = Address("by_data");
  ASSERT_TRUE(Data);
  EXPECT_EQ(Data->V, Variance::Data);
  // A lock per lane, and a leader's lock, have no contending lanes.
  EXPECT_FALSE(Address("per_lane"));
  EXPECT_FALSE(Address("leader"));
}

} // namespace
} // namespace clang::warp::test
