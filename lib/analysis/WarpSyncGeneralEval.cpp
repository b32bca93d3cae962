//===--- WarpSyncGeneralEval.cpp - cuda-lint
//--------------------------------===//
//
// The general race analysis of cuda-warp-synchronous: the compiled trees
// evaluated per thread, and the model block (and grid) they are evaluated
// for.
//
//===----------------------------------------------------------------------===//

#include "WarpSyncGeneralImpl.h"
#include "cudalint/analysis/IntegerFold.h"

namespace clang::tidy::cuda::warpsync {

int64_t wrap(int64_t V, unsigned Width, bool Unsigned) {
  if (Width >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (Unsigned)
    return int64_t(U);
  if (U & (uint64_t(1) << (Width - 1)))
    return int64_t(U) - int64_t(uint64_t(1) << Width);
  return int64_t(U);
}

std::optional<int64_t> GeneralRaces::Impl::eval(int N, const Env &En) const {
  const Node &Nd = Nodes[N];
  switch (Nd.Kind) {
  case Node::Const:
    return Nd.C;
  case Node::Tid:
    return En.T[Nd.Dim];
  case Node::Bid:
    return En.B[Nd.Dim];
  case Node::BDim:
    return En.BD[Nd.Dim];
  case Node::GDim:
    return En.GD[Nd.Dim];
  case Node::Var:
    for (const auto &[V, Val] : En.Vars)
      if (V == Nd.V)
        return Val;
    return std::nullopt;
  case Node::Unknown:
    if (Nd.Loaded && En.Loaded)
      return *En.Loaded;
    return std::nullopt;
  case Node::Sym:
    if (!En.Symbols)
      return std::nullopt;
    return Nd.C;
  case Node::Wrap: {
    auto V = eval(Nd.L, En);
    if (!V)
      return std::nullopt;
    // A symbol's value is a point, not a size: sums and products of it
    // are taken as they would be without overflow.
    if (Nd.HasSym)
      return V;
    return wrap(*V, Nd.Width, Nd.Unsigned);
  }
  case Node::Neg: {
    auto V = eval(Nd.L, En);
    if (!V)
      return std::nullopt;
    return wrap(int64_t(0 - uint64_t(*V)), Nd.Width, Nd.Unsigned);
  }
  case Node::Not: {
    if (Nd.HasSym)
      return std::nullopt;
    auto V = eval(Nd.L, En);
    if (!V)
      return std::nullopt;
    return wrap(~*V, Nd.Width, Nd.Unsigned);
  }
  case Node::LNot: {
    if (Nd.HasSym)
      return std::nullopt;
    auto V = eval(Nd.L, En);
    if (!V)
      return std::nullopt;
    return int64_t(*V == 0);
  }
  case Node::Cond: {
    if (Nodes[Nd.X].HasSym)
      return std::nullopt;
    auto C = eval(Nd.X, En);
    if (!C)
      return std::nullopt;
    return eval(*C ? Nd.L : Nd.R, En);
  }
  case Node::Bin:
    break;
  }
  // A symbol's value is a point at which sums, differences and products
  // are compared; what it compares or divides to says nothing.
  if (Nd.HasSym && Nd.Op != BO_Add && Nd.Op != BO_Sub && Nd.Op != BO_Mul &&
      Nd.Op != BO_LAnd && Nd.Op != BO_LOr)
    return std::nullopt;
  // Short-circuit operators: a known side can decide alone.
  if (Nd.Op == BO_LAnd || Nd.Op == BO_LOr) {
    auto side = [&](int S) -> std::optional<int64_t> {
      if (Nodes[S].HasSym)
        return std::nullopt;
      return eval(S, En);
    };
    auto L = side(Nd.L);
    bool Decides = Nd.Op == BO_LAnd ? false : true;
    if (L && bool(*L) == Decides)
      return int64_t(Decides);
    auto R = side(Nd.R);
    if (R && bool(*R) == Decides)
      return int64_t(Decides);
    if (L && R)
      return int64_t(!Decides);
    return std::nullopt;
  }
  auto L = eval(Nd.L, En);
  auto R = eval(Nd.R, En);
  if (!L || !R)
    return std::nullopt;
  uint64_t UL = uint64_t(*L), UR = uint64_t(*R);
  if (Nd.HasSym)
    return int64_t(Nd.Op == BO_Add   ? UL + UR
                   : Nd.Op == BO_Sub ? UL - UR
                                     : UL * UR);
  std::optional<int64_t> V = foldIntegerOperator(Nd.Op, *L, *R);
  if (!V || BinaryOperator::isComparisonOp(Nd.Op))
    return V;
  return wrap(*V, Nd.Width, Nd.Unsigned);
}

bool GeneralRaces::Impl::extents(const Access &X,
                                 SmallVectorImpl<int64_t> &Out) const {
  QualType T = accessedType(X);
  for (size_t I = 0; I < X.Subs.size(); ++I) {
    if (const auto *CAT = Ctx.getAsConstantArrayType(T)) {
      Out.push_back(int64_t(CAT->getSize().getZExtValue()));
      T = CAT->getElementType();
    } else if (const auto *AT = Ctx.getAsArrayType(T)) {
      Out.push_back(0);
      T = AT->getElementType();
    } else if (const auto *PT = T->getAs<PointerType>(); PT && I == 0) {
      Out.push_back(0);
      T = PT->getPointeeType();
    } else {
      return false;
    }
  }
  // Inner extents must be known to linearise.
  for (size_t I = 1; I < Out.size(); ++I)
    if (Out[I] == 0)
      return false;
  return true;
}

bool GeneralRaces::Impl::gridWide(const Access &X) const {
  const auto *VD = dyn_cast<VarDecl>(X.Array);
  if (!VD)
    return false;
  if (VD->hasAttr<CUDASharedAttr>())
    return false;
  if (const auto *P = dyn_cast<ParmVarDecl>(VD))
    return Kernel && P->getDeclContext() == FD;
  return VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>();
}

std::optional<int64_t> GeneralRaces::Impl::element(const Compiled &C,
                                                   const Env &En) const {
  int64_t Elem = 0;
  for (size_t I = 0; I < C.Subs.size(); ++I) {
    auto V = eval(C.Subs[I], En);
    // A subscript with a symbol is a point of no size: only into a
    // pointer, whose elements may be anywhere.
    bool Sym = Nodes[C.Subs[I]].HasSym;
    if (!V || (Sym && (I != 0 || C.Ext[I])) || (!Sym && *V < 0) ||
        (C.Ext[I] && *V >= C.Ext[I]))
      return std::nullopt;
    Elem = I == 0 ? *V
                  : int64_t(uint64_t(Elem) * uint64_t(C.Ext[I]) + uint64_t(*V));
  }
  return Elem;
}

bool GeneralRaces::Impl::reaches(const Compiled &C, const Env &En,
                                 bool &Maybe) const {
  Maybe = false;
  for (const auto &[N, Want] : C.Conds) {
    auto V = eval(N, En);
    if (V && bool(*V) != Want)
      return false;
    if (!V && (StrictConds || hasData(N)))
      Maybe = true;
  }
  return true;
}

void GeneralRaces::Impl::setBlock(Env &En) const {
  for (unsigned D = 0; D < 3; ++D) {
    En.BD[D] = Shape[D];
    En.GD[D] = Grid[D];
  }
}

const std::optional<std::vector<Instance>> &
GeneralRaces::Impl::instances(const Access &X, bool OneWarp,
                              ArrayRef<const VarDecl *> Corr,
                              const VarDecl *Next) {
  InstanceKey Key{&X, OneWarp,
                  std::vector<const VarDecl *>(Corr.begin(), Corr.end()), Next,
                  StrictConds};
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return It->second;
  std::optional<std::vector<Instance>> Out;
  std::optional<Compiled> C = compiled(X);
  SmallVector<const VarDecl *, 2> Vars(Corr.begin(), Corr.end());
  if (C && !addDomains(*C, X, Vars))
    C.reset();
  if (C) {
    auto iteration = [&](const Env &En) {
      uint64_t H = 0x9e3779b97f4a7c15ull;
      for (const VarDecl *V : Corr) {
        int64_t Val = 0;
        for (const auto &[D, Value] : En.Vars)
          if (D == V)
            Val = Value;
        if (V == Next)
          for (const LoopDomain &D : C->Doms)
            if (D.V == V)
              if (auto Step = eval(D.Step, En))
                Val -= *Step;
        H = (H ^ uint64_t(Val)) * 0x100000001b3ull;
      }
      return H;
    };
    Out.emplace();
    bool OK = true;
    uint64_t Evaluations = 0;
    forEachThread(gridWide(X) && !OneWarp, OneWarp, [&](Env &En, uint32_t Key) {
      En.Symbols = true;
      OK = forEachLoopValue(C->Doms, En, [&] {
        if (++Evaluations > MaxEvaluations)
          return false;
        bool Maybe;
        if (!reaches(*C, En, Maybe))
          return true;
        if (!C->AnyIndex) {
          if (auto E = element(*C, En))
            Out->push_back({*E, Key, iteration(En), Maybe});
          return Out->size() < MaxInstances;
        }
        // An index read from memory: each sample, each a maybe.
        for (int64_t V : DataSamples) {
          En.Loaded = V;
          std::optional<int64_t> E = element(*C, En);
          En.Loaded.reset();
          if (!E)
            continue;
          uint64_t Iter = iteration(En);
          bool Seen = false;
          for (auto I = Out->rbegin(); I != Out->rend() && I->Thread == Key;
               ++I)
            Seen |= I->Elem == *E && I->Iter == Iter;
          if (!Seen)
            Out->push_back({*E, Key, Iter, true});
        }
        return Out->size() < MaxInstances;
      });
      return OK;
    });
    if (!OK)
      Out.reset();
  }
  return Cache[Key] = std::move(Out);
}

void GeneralRaces::Impl::computeShape() {
  if (ShapeKnown)
    return;
  ShapeKnown = true;
  forEachDescendant(FD->getBody(), [&](const Stmt *S) {
    if (const auto *E = dyn_cast<Expr>(S))
      if (auto Sym = ThreadIndexAnalysis::builtinSymbol(E)) {
        if (Sym->Kind == IndexSymbol::ThreadIdx)
          UsedT[Sym->Dim] = true;
        else if (Sym->Kind == IndexSymbol::BlockIdx)
          UsedB[Sym->Dim] = true;
      }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (std::optional<GroupQuery> Q = groupQueryCall(Call);
          Q &&
          (Q->Query == GroupQuery::Rank || Q->Query == GroupQuery::MetaRank)) {
        UsedT[0] = true;
        UsedB[0] |= Q->Group.Kind == ThreadRank::Grid;
      }
  });
  for (const auto &KV : A.OwnVars)
    if (const auto *P = dyn_cast<ParmVarDecl>(KV.first);
        P && P->getDeclContext() == FD)
      UsedT[0] = true;
  int64_t Max = 1024;
  if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult R;
    if (LB->getMaxThreads() && !LB->getMaxThreads()->isValueDependent() &&
        LB->getMaxThreads()->EvaluateAsInt(R, Ctx))
      Max = std::clamp<int64_t>(R.Val.getInt().getExtValue(), 1, 1024);
  }
  int64_t Bound[3] = {Inf, Inf, Inf};
  // Probe each subscript of an access that every thread makes: a
  // subscript linear in the thread index, s.x * threadIdx.x + s.y *
  // threadIdx.y + s.z * threadIdx.z + c (each s >= 0), into an extent N
  // bounds the block: the last thread's subscript is below N, assuming
  // that the program accesses the array in bounds. `A[threadIdx.x + c]`
  // bounds x by N - c; `A[threadIdx.x * 8 + threadIdx.y]` of 64 elements
  // bounds x by 8 and, once x is 8, y by 8.
  struct Linear {
    int64_t S[3];
    int64_t Last; ///< N - 1 - c: the largest in-bounds s . t.
  };
  SmallVector<Linear, 4> Lins;
  for (int D = 0; D < 3; ++D)
    Shape[D] = 1024;
  for (const auto &Region : A.Regions)
    for (const Access &X : Region) {
      if (X.Side || X.Carried || !X.G.BlockUniform || !X.G.Conds.empty())
        continue;
      SmallVector<int64_t, 2> Ext;
      if (!X.Root || !extents(X, Ext))
        continue;
      for (size_t I = 0; I < X.Subs.size(); ++I) {
        if (!Ext[I])
          continue;
        SmallVector<const VarDecl *, 2> Vars;
        int N = compileSub(X, I, Vars);
        if (!known(N))
          continue;
        SmallVector<LoopDomain, 2> Doms;
        bool OK = true;
        for (size_t J = 0; J < Vars.size() && OK; ++J) {
          std::optional<LoopDomain> Dm =
              domain(loopOf(X, Vars[J]), Vars[J], X, Vars);
          OK = Dm.has_value();
          if (OK)
            Doms.push_back(*Dm);
        }
        if (!OK)
          continue;
        // v(t) = s . t + c for t = 0, 1, 7, ... in each dimension with
        // the others 0, and at a point that moves all three at once.
        Env En;
        setBlock(En);
        int64_t MaxC = std::numeric_limits<int64_t>::min();
        int64_t S[3] = {-1, -1, -1};
        bool Moves = true;
        forEachLoopValue(Doms, En, [&] {
          std::optional<int64_t> V0 = eval(N, En);
          if (!V0)
            return Moves = false;
          for (unsigned D = 0; D < 3 && Moves; ++D) {
            En.T[D] = 1;
            std::optional<int64_t> V1 = eval(N, En);
            int64_t Slope = V1 ? *V1 - *V0 : -1;
            if (Slope < 0 || (S[D] >= 0 && S[D] != Slope))
              Moves = false;
            S[D] = Slope;
            for (int64_t T : {7, 31, 100, 1000}) {
              En.T[D] = T;
              std::optional<int64_t> V = eval(N, En);
              if (!Moves || !V || *V != *V0 + Slope * T)
                Moves = false;
            }
            En.T[D] = 0;
          }
          if (Moves) {
            for (unsigned D = 0; D < 3; ++D)
              En.T[D] = 3 + D;
            std::optional<int64_t> V = eval(N, En);
            Moves = V && *V == *V0 + 3 * S[0] + 4 * S[1] + 5 * S[2];
            for (unsigned D = 0; D < 3; ++D)
              En.T[D] = 0;
          }
          if (!Moves)
            return false;
          MaxC = std::max(MaxC, *V0);
          return true;
        });
        if (!Moves || MaxC == std::numeric_limits<int64_t>::min() ||
            Ext[I] - MaxC <= 0 || (S[0] <= 0 && S[1] <= 0 && S[2] <= 0))
          continue;
        Lins.push_back({{S[0], S[1], S[2]}, Ext[I] - 1 - MaxC});
        for (unsigned D = 0; D < 3; ++D)
          if (S[D] > 0)
            Bound[D] = std::min(Bound[D], Lins.back().Last / S[D] + 1);
      }
    }
  // Given the shape in the dimensions before \p D, the most threads in
  // D that keep every linear subscript in bounds.
  auto jointBound = [&](unsigned D) {
    int64_t B = Inf;
    for (const Linear &L : Lins) {
      if (L.S[D] <= 0)
        continue;
      int64_t Rest = L.Last;
      for (unsigned E = 0; E < D; ++E)
        Rest -= L.S[E] * (Shape[E] - 1);
      if (Rest >= 0)
        B = std::min(B, Rest / L.S[D] + 1);
    }
    return B;
  };
  for (unsigned D = 0; D < 3; ++D)
    Grid[D] = !UsedB[D]    ? 1
              : LaunchGrid ? std::min<int64_t>(2, (*LaunchGrid)[D])
                           : 2;
  // The launches in this file say how large the blocks are.
  if (Launched) {
    for (unsigned D = 0; D < 3; ++D)
      Shape[D] = UsedT[D] ? (*Launched)[D] : 1;
    // A kernel that never asks which thread it is still runs in every
    // thread of the block: all of them do the same accesses (`p[0]++`).
    // Modelled in x.
    if (Kernel && !UsedT[0] && !UsedT[1] && !UsedT[2])
      Shape[0] = std::min<int64_t>(1024, (*Launched)[0] * (*Launched)[1] *
                                             (*Launched)[2]);
    return;
  }
  blockStrideBounds(Bound);
  ownElementBounds(Bound);
  auto round = [](int64_t V) { return V > 32 ? V - V % 32 : V; };
  bool TwoD = UsedT[1] || UsedT[2];
  Shape[0] = !UsedT[0]        ? 1
             : Bound[0] < Inf ? std::min(Bound[0], Max)
             : TwoD           ? std::min<int64_t>(32, Max)
                              : Max;
  Shape[0] = round(Shape[0]);
  Bound[1] = std::min(Bound[1], jointBound(1));
  Shape[1] = !UsedT[1] ? 1
             : Bound[1] < Inf
                 ? std::min(Bound[1], std::max<int64_t>(1, Max / Shape[0]))
                 : std::min<int64_t>(32, std::max<int64_t>(1, Max / Shape[0]));
  Bound[2] = std::min(Bound[2], jointBound(2));
  Shape[2] = !UsedT[2]
                 ? 1
                 : std::min<int64_t>(
                       Bound[2] < Inf ? std::min<int64_t>(Bound[2], 64) : 4,
                       std::max<int64_t>(1, Max / (Shape[0] * Shape[1])));
}

void GeneralRaces::Impl::ownElementBounds(int64_t (&Bound)[3]) {
  constexpr size_t MaxFootprint = 512;
  for (const auto &Region : A.Regions)
    for (const Access &X : Region) {
      if (!X.Write || X.Side || X.Carried || !X.Root)
        continue;
      const std::optional<Compiled> &C = compiled(X);
      if (!C || C->AnyIndex || C->Doms.empty() ||
          llvm::any_of(X.Loops, [&](const Stmt *L) { return barrierLoop(L); }))
        continue;
      // Thread 0's elements, with the loop values, for two block shapes:
      // the domains must not depend on it.
      struct Point {
        int64_t Elem;
        Env En;
      };
      std::vector<Point> Foot;
      bool OK = true;
      for (int64_t Dim : {1024, 512}) {
        Env En;
        for (unsigned D = 0; D < 3; ++D) {
          En.BD[D] = Dim;
          En.GD[D] = 2;
        }
        size_t I = 0;
        OK &= forEachLoopValue(C->Doms, En, [&] {
          auto E = element(*C, En);
          if (Dim == 1024) {
            if (!E || Foot.size() >= MaxFootprint)
              return false;
            Foot.push_back({*E, En});
            return true;
          }
          return E && I < Foot.size() && Foot[I++].Elem == *E;
        });
        OK &= Foot.size() > 1 && (Dim == 1024 || I == Foot.size());
        if (!OK)
          break;
      }
      if (!OK)
        continue;
      for (unsigned D = 0; D < 3; ++D) {
        if (!UsedT[D])
          continue;
        // The element is thread 0's plus Slope * t in dimension D.
        auto at = [&](const Point &P, int64_t T) {
          Env En = P.En;
          for (unsigned E = 0; E < 3; ++E)
            En.BD[E] = 1024;
          En.T[D] = T;
          return element(*C, En);
        };
        std::optional<int64_t> One = at(Foot[0], 1);
        int64_t Slope = One ? *One - Foot[0].Elem : 0;
        bool Linear = Slope > 0;
        for (const Point &P : Foot)
          for (int64_t T : {1, 7, 31}) {
            std::optional<int64_t> V = Linear ? at(P, T) : std::nullopt;
            Linear = V && *V == P.Elem + Slope * T;
          }
        if (!Linear)
          continue;
        // The first thread t > 0 in D that writes an element of thread
        // 0: Slope * t + Foot[b] == Foot[a], both reaching the write.
        int64_t Best = Bound[D];
        for (const Point &Pa : Foot)
          for (const Point &Pb : Foot) {
            int64_t Diff = Pa.Elem - Pb.Elem;
            if (Diff <= 0 || Diff % Slope || Diff / Slope >= Best)
              continue;
            Env Eb = Pb.En;
            Eb.T[D] = Diff / Slope;
            bool Maybe;
            if (reaches(*C, Pa.En, Maybe) && reaches(*C, Eb, Maybe))
              Best = Diff / Slope;
          }
        Bound[D] = Best;
      }
    }
}

void GeneralRaces::Impl::blockStrideBounds(int64_t (&Bound)[3]) {
  for (const auto &Region : A.Regions)
    for (const Access &X : Region) {
      if (X.Side || X.Carried || !X.Root)
        continue;
      if (const std::optional<Compiled> &C = compiled(X); C && C->Symbolic) {
        for (int N : C->Subs)
          if (Nodes[N].HasSym)
            symbolicStrideBounds(*C, N, Bound);
        continue;
      }
      for (size_t I = 0; I < X.Subs.size(); ++I) {
        SmallVector<const VarDecl *, 2> Vars;
        int N = compileSub(X, I, Vars);
        if (!Vars.empty() || !known(N))
          continue;
        for (unsigned D = 0; D < 3; ++D) {
          Env En;
          setBlock(En);
          auto V0 = eval(N, En);
          En.B[D] = 1;
          auto V1 = eval(N, En);
          En.B[D] = 0;
          if (!V0 || !V1 || *V1 - *V0 <= 0 || *V1 - *V0 >= Bound[D])
            continue;
          bool Moves = true;
          for (int64_t T : {1, 7, 31}) {
            En.T[D] = T;
            auto V = eval(N, En);
            Moves &= V && *V == *V0 + T;
          }
          if (Moves)
            Bound[D] = *V1 - *V0;
        }
      }
    }
}

void GeneralRaces::Impl::symbolicStrideBounds(const Compiled &C, int N,
                                              int64_t (&Bound)[3]) {
  // With a symbol, the subscript is s_b * b + s_t * t + c at a point of the
  // symbols, modulo 2^64 (`(blockIdx.x * 16 + threadIdx.x) * height`: s_t =
  // height, s_b = 16 * height). An odd s_t is invertible there: s_b / s_t
  // is then exact, a small block extent if the block's stride is one, a
  // value as random as the symbols if not. Loop variables take their
  // first values.
  for (unsigned D = 0; D < 3; ++D) {
    Env En;
    setBlock(En);
    En.Symbols = true;
    bool Known = true;
    for (const LoopDomain &Dom : C.Doms) {
      std::optional<int64_t> First = eval(Dom.Init, En);
      Known &= First.has_value();
      En.Vars.push_back({Dom.V, First.value_or(0)});
    }
    if (!Known)
      continue;
    auto V0 = eval(N, En);
    En.B[D] = 1;
    auto V1 = eval(N, En);
    En.B[D] = 0;
    En.T[D] = 1;
    auto VT = eval(N, En);
    if (!V0 || !V1 || !VT)
      continue;
    uint64_t St = uint64_t(*VT) - uint64_t(*V0);
    if (!(St & 1))
      continue;
    bool Moves = true;
    for (int64_t T : {7, 31}) {
      En.T[D] = T;
      auto V = eval(N, En);
      Moves &= V && uint64_t(*V) == uint64_t(*V0) + uint64_t(T) * St;
    }
    if (!Moves)
      continue;
    // The inverse of St modulo 2^64, by Newton's iteration.
    uint64_t Inv = St;
    for (int K = 0; K < 6; ++K)
      Inv *= 2 - St * Inv;
    uint64_t Q = (uint64_t(*V1) - uint64_t(*V0)) * Inv;
    if (Q > 0 && Q < uint64_t(Bound[D]) && Q <= 1024)
      Bound[D] = int64_t(Q);
  }
}

} // namespace clang::tidy::cuda::warpsync
