//===--- PageableAsyncCopyCheck.cpp - cuda-lint ---------------------------===//
//
// OpenCL best-practices guide 3.1.1 ("Pinned Memory") and 3.1.3
// ("Overlapping Transfers and Device Computation"): overlapping transfers
// with kernels requires "host side memory buffers using pinned memory". An
// asynchronous copy from or to pageable memory is staged through a pinned
// buffer by the driver and does not overlap.
//
//===----------------------------------------------------------------------===//

#include "PageableAsyncCopyCheck.h"
#include "cudalint/DeviceCode.h"
#include "cudalint/HostMemory.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

// cudaMemcpyKind.
enum : int64_t {
  HostToHost = 0,
  HostToDevice = 1,
  DeviceToHost = 2,
  DeviceToDevice = 3,
  Default = 4
};

/// The host-side pointer arguments of a copy and its kind argument.
struct CopyShape {
  int Dst = -1, Src = -1, Kind = -1;
  /// `cudaMemcpy3DAsync(&parms, stream)`: the pointers and the kind are
  /// fields of a `cudaMemcpy3DParms`.
  bool Parms = false;
};

CopyShape shapeOf(StringRef Name) {
  CopyShape S;
  if (Name == "cudaMemcpyAsync") {
    S.Dst = 0, S.Src = 1, S.Kind = 3;
  } else if (Name == "cudaMemcpy2DAsync") {
    S.Dst = 0, S.Src = 2, S.Kind = 6;
  } else if (Name == "cudaMemcpyToSymbolAsync") {
    S.Src = 1, S.Kind = 4;
  } else if (Name == "cudaMemcpyFromSymbolAsync") {
    S.Dst = 0, S.Kind = 4;
  } else if (Name == "cudaMemcpy3DAsync") {
    S.Parms = true;
  }
  return S;
}

std::optional<int64_t> evaluateKind(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    E = D->getExpr();
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The values assigned to the fields of a local `cudaMemcpy3DParms`:
/// `p.srcPtr = make_cudaPitchedPtr(h, ...)`, `p.srcPtr.ptr = h`,
/// `p.kind = cudaMemcpyHostToDevice`. Unknown (false) when the variable is
/// used otherwise than so and by cudaMemcpy3D calls.
struct ParmsFields {
  llvm::SmallVector<const Expr *, 2> Src, Dst, Kind;
};

bool collectParms(const VarDecl *V, const Stmt *Body, ParmsFields &Out) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const VarDecl *V;
    ParmsFields &Out;
    bool OK = true;
    Visitor(const VarDecl *V, ParmsFields &Out) : V(V), Out(Out) {}
    /// `p.a.b` -> p, with the names of the members.
    const DeclRefExpr *base(const Expr *E, SmallVectorImpl<StringRef> &Path) {
      E = E->IgnoreParenImpCasts();
      while (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (!ME->getMemberDecl()->getIdentifier())
          return nullptr;
        Path.insert(Path.begin(), ME->getMemberDecl()->getName());
        E = ME->getBase()->IgnoreParenImpCasts();
      }
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE && DRE->getDecl() == V ? DRE : nullptr;
    }
    void assign(const Expr *LHS, const Expr *RHS) {
      SmallVector<StringRef, 2> Path;
      if (!base(LHS, Path))
        return;
      if (Path.size() == 1 && Path[0] == "kind")
        Out.Kind.push_back(RHS);
      else if (!Path.empty() && (Path[0] == "srcPtr" || Path[0] == "dstPtr") &&
               (Path.size() == 1 || (Path.size() == 2 && Path[1] == "ptr")))
        (Path[0] == "srcPtr" ? Out.Src : Out.Dst).push_back(RHS);
      else if (Path.empty() || Path[0] == "srcPtr" || Path[0] == "dstPtr")
        OK = false; // The whole struct, or a part of a pointer field.
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), BO->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      // Struct fields (`p.srcPtr = make_cudaPitchedPtr(...)`) are assigned
      // through the implicit copy assignment operator.
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        assign(Op->getArg(0), Op->getArg(1));
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      SmallVector<StringRef, 2> Path;
      if (UO->getOpcode() == UO_AddrOf && base(UO->getSubExpr(), Path) &&
          !Path.empty())
        OK = false; // `&p.srcPtr` escapes.
      return true;
    }
  } Vis(V, Out);
  Vis.TraverseStmt(const_cast<Stmt *>(Body));
  return Vis.OK;
}

/// The expression of the pointer in a `cudaPitchedPtr` value:
/// `make_cudaPitchedPtr(h, ...)` gives h; a `.ptr` assignment is the pointer
/// itself.
const Expr *pitchedPointer(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (E->getType()->isPointerType())
    return E;
  if (const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit()))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() && FD->getName() == "make_cudaPitchedPtr" &&
        Call->getNumArgs() >= 1)
      return Call->getArg(0);
  return nullptr;
}

} // namespace

void PageableAsyncCopyCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName(
                   "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpy3DAsync",
                   "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync"))),
               unless(isExpansionInSystemHeader()))
          .bind("copy"),
      this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("cudaHostRegister"))),
                              unless(isExpansionInSystemHeader()))
                         .bind("register"),
                     this);
}

void PageableAsyncCopyCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("copy");
  bool IsRegister = false;
  if (!Call) {
    Call = Result.Nodes.getNodeAs<CallExpr>("register");
    IsRegister = true;
  }
  const FunctionDecl *F = enclosingFunction(*Ctx, *Call);
  // Device-side copies (dynamic parallelism) are another matter; templates
  // are judged per instantiation.
  if (!F || isDeviceFunction(F) || F->isDependentContext())
    return;
  (IsRegister ? Registrations : Copies).push_back({Call, F});
}

void PageableAsyncCopyCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  // Registered ranges: the variables they are reached through; a range of
  // unknown origin (a parameter) may be any buffer.
  llvm::DenseSet<const ValueDecl *> Registered;
  bool RegisteredUnknown = false;
  for (const Copy &R : Registrations) {
    if (R.Call->getNumArgs() == 0)
      continue;
    HostMemoryOrigin O = hostMemoryOrigin(R.Call->getArg(0), R.Function, *Ctx);
    if (O.Vars.empty())
      RegisteredUnknown = true;
    Registered.insert(O.Vars.begin(), O.Vars.end());
  }

  llvm::DenseSet<SourceLocation> Reported;
  for (const Copy &C : Copies) {
    if (RegisteredUnknown)
      break;
    const FunctionDecl *Callee = C.Call->getDirectCallee();
    CopyShape S = shapeOf(Callee->getName());
    // The candidate host pointers and their direction ("from", "to").
    SmallVector<std::pair<const Expr *, bool>, 2> Candidates;
    std::optional<int64_t> Kind;
    if (S.Parms) {
      if (C.Call->getNumArgs() < 1)
        continue;
      const auto *AddrOf =
          dyn_cast<UnaryOperator>(C.Call->getArg(0)->IgnoreParenImpCasts());
      const auto *DRE =
          AddrOf && AddrOf->getOpcode() == UO_AddrOf
              ? dyn_cast<DeclRefExpr>(AddrOf->getSubExpr()->IgnoreParens())
              : nullptr;
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      ParmsFields Fields;
      if (!V || !V->hasLocalStorage() || !C.Function->getBody() ||
          !collectParms(V, C.Function->getBody(), Fields) ||
          Fields.Kind.size() != 1 || Fields.Src.size() > 1 ||
          Fields.Dst.size() > 1)
        continue;
      Kind = evaluateKind(Fields.Kind.front(), *Ctx);
      if (!Fields.Src.empty())
        if (const Expr *P = pitchedPointer(Fields.Src.front()))
          Candidates.push_back({P, true});
      if (!Fields.Dst.empty())
        if (const Expr *P = pitchedPointer(Fields.Dst.front()))
          Candidates.push_back({P, false});
    } else {
      if (S.Kind < 0 || static_cast<unsigned>(S.Kind) >= C.Call->getNumArgs())
        continue;
      Kind = evaluateKind(C.Call->getArg(S.Kind), *Ctx);
      if (S.Src >= 0)
        Candidates.push_back({C.Call->getArg(S.Src), true});
      if (S.Dst >= 0)
        Candidates.push_back({C.Call->getArg(S.Dst), false});
    }
    // Which side is on the host: the kind says; cudaMemcpyDefault and a
    // kind not known here leave both (a pageable allocation is host memory
    // whatever the kind says).
    if (Kind && (*Kind == HostToHost || *Kind == DeviceToDevice))
      continue;
    for (auto &[Arg, From] : Candidates) {
      if (Kind && *Kind == HostToDevice && !From)
        continue;
      if (Kind && *Kind == DeviceToHost && From)
        continue;
      HostMemoryOrigin O = hostMemoryOrigin(Arg, C.Function, *Ctx);
      if (O.Kind != HostMemoryKind::Pageable ||
          llvm::any_of(O.Vars,
                       [&](const ValueDecl *V) { return Registered.count(V); }))
        continue;
      SourceLocation Loc = C.Call->getBeginLoc();
      if (!Reported.insert(Loc).second)
        break;
      diag(Loc, "'%0' %select{to|from}1 pageable host memory is not "
                "asynchronous: the driver stages it through a pinned buffer, "
                "so it cannot overlap with kernels or other copies")
          << Callee->getName() << From;
      diag(O.Where,
           "%0 is pageable: allocate it with 'cudaMallocHost' or "
           "'cudaHostAlloc', or pin it with 'cudaHostRegister'",
           DiagnosticIDs::Note)
          << (O.What.empty() ? std::string("the buffer") : O.What);
      break;
    }
  }
  Copies.clear();
  Registrations.clear();
  Ctx = nullptr;
}

} // namespace clang::tidy::cuda
