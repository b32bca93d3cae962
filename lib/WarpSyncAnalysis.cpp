//===--- WarpSyncAnalysis.cpp - cuda-lint ---------------------------------===//

#include "cudalint/WarpSyncAnalysis.h"

namespace clang::tidy::cuda::warpsync {

namespace {
const char *const BarrierNames[] = {
    "__syncthreads",       "__syncthreads_count", "__syncthreads_and",
    "__syncthreads_or",    "__syncwarp",          "__barrier_sync",
    "__barrier_sync_count"};

} // namespace

bool isBarrierCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (llvm::is_contained(BarrierNames, Name))
    return true;
  // cooperative_groups: g.sync(), cg::sync(g), grid.sync(), barrier_wait.
  if (Name == "sync" || Name == "barrier_wait" || Name == "arrive_and_wait") {
    const DeclContext *DC = FD->getDeclContext();
    for (; DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
        if (NS->getName() == "cooperative_groups" || NS->getName() == "cuda")
          return true;
  }
  return false;
}

bool isGridSyncCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  if (Name == "__threadfence" || Name == "__threadfence_system" ||
      Name == "atomic_thread_fence")
    return true;
  if (Name != "sync")
    return false;
  auto isGrid = [](QualType T) {
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD) {
      if (const auto *PT = T->getAs<PointerType>())
        RD = PT->getPointeeType()->getAsCXXRecordDecl();
    }
    return RD && RD->getIdentifier() &&
           (RD->getName() == "grid_group" ||
            RD->getName() == "multi_grid_group");
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return isGrid(MC->getImplicitObjectArgument()->getType());
  return Call->getNumArgs() == 1 &&
         isGrid(Call->getArg(0)->getType().getNonReferenceType());
}

bool isThreadIdxX(const Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E);
  if (!POE)
    return false;
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm());
  if (!Prop || Prop->getPropertyDecl()->getName() != "x")
    return false;
  const Expr *B = Prop->getBaseExpr()->IgnoreImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(B))
    B = OVE->getSourceExpr()->IgnoreImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(B);
  return DRE && DRE->getDecl()->getName() == "threadIdx";
}

const Expr *stripCasts(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast || !Cast->getType()->isIntegerType())
      return E;
    E = Cast->getSubExpr();
  }
}

std::optional<Race> raceBetween(const Access &W, const Access &R) {
  if (!W.Write || R.Write || W.Array != R.Array || W.Idx.B != R.Idx.B ||
      W.Idx.B == Base::None || W.Idx.Xor)
    return std::nullopt;
  bool Tid = W.Idx.B == Base::Tid;
  int64_t RLo = Tid ? R.G.TidLo : R.G.LaneLo,
          RHi = Tid ? R.G.TidHi : R.G.LaneHi;
  int64_t WLo = Tid ? W.G.TidLo : W.G.LaneLo,
          WHi = Tid ? W.G.TidHi : W.G.LaneHi;
  if (R.Idx.Xor) {
    if (W.Idx.Off != 0 || std::max(RLo, WLo) >= std::min(RHi, WHi))
      return std::nullopt;
    return Race{&W, &R, R.Idx.Off > 0 && R.Idx.Off < WarpSize};
  }
  // Thread t reads element t + R.Off, written by thread t + D.
  int64_t D = R.Idx.Off - W.Idx.Off;
  if (D == 0)
    return std::nullopt;
  if (std::max(RLo, WLo - D) >= std::min(RHi, WHi - D))
    return std::nullopt;
  bool SameWarp = false;
  if (!Tid)
    SameWarp = D > -WarpSize && D < WarpSize;
  else if (RHi < Inf && WHi < Inf &&
           std::min(RLo, WLo) / WarpSize == (std::max(RHi, WHi) - 1) / WarpSize)
    SameWarp = true;
  else if (D < 0 && R.G.LaneLo >= -D)
    SameWarp = true;
  else if (D > 0 && D < WarpSize && R.G.LaneHi <= WarpSize - D)
    SameWarp = true;
  return Race{&W, &R, SameWarp};
}

} // namespace clang::tidy::cuda::warpsync
