//===--- UncoalescedAccessCheck.cpp - cuda-lint ---------------------------===//
//
// OpenCL best-practices guide for CUDA GPUs, 3.2.1 "Coalesced Access to
// Global Memory" and 3.2.1.4 "Strided Accesses": when consecutive threads
// access addresses a stride apart, a warp's request is served by many
// 32-byte sectors and most of the bandwidth is wasted.
//
// The check: matching, the warp-by-warp judgement of each access, and the
// diagnostics. What an access is lives in UncoalescedAccessCheckAccesses.cpp;
// the sector model and the per-kernel analyses in
// UncoalescedAccessCheckModel.cpp.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccessCheck.h"
#include "UncoalescedAccessAccesses.h"
#include "UncoalescedAccessModel.h"
#include "cudalint/analysis/DeviceCode.h"
#include "cudalint/analysis/LaneGuards.h"
#include "cudalint/analysis/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <set>
#include <tuple>
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using namespace uncoalesced_access;

UncoalescedAccessCheck::UncoalescedAccessCheck(StringRef Name,
                                               ClangTidyContext *Context)
    : CudaCheck(Name, Context), MinStride(Options.get("MinStride", int64_t(2))),
      MostlyReadPercent(Options.get("MostlyReadPercent", int64_t(75))),
      ReportWholeRecords(Options.get("ReportWholeRecords", false)),
      GroupLayouts(Options.get("GroupLayouts", true)) {}

void UncoalescedAccessCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinStride", MinStride);
  Options.store(Opts, "MostlyReadPercent", MostlyReadPercent);
  Options.store(Opts, "ReportWholeRecords", ReportWholeRecords);
  Options.store(Opts, "GroupLayouts", GroupLayouts);
}

void UncoalescedAccessCheck::registerMatchers(MatchFinder *Finder) {
  limitParentMapToUserCode(Finder);
  Finder->addMatcher(
      arraySubscriptExpr(
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("access"),
      this);
  // `*(p + i)`, and a member of an element: `p[i].x`, `(p + i)->x`.
  Finder->addMatcher(
      unaryOperator(
          hasOperatorName("*"),
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("deref"),
      this);
  Finder->addMatcher(
      memberExpr(
          hasAncestor(functionDecl(matchers::isCudaKernel(), hasBody(stmt()))
                          .bind("kernel")))
          .bind("member"),
      this);
}

void UncoalescedAccessCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  ASTContext &Ctx = *Result.Context;
  // The access, the pointer it goes through and its subscript (none for
  // `*p`); for a member of an element, the member's place in the element.
  const Expr *Access = nullptr, *BasePtr = nullptr, *Idx = nullptr;
  const FieldDecl *Member = nullptr;
  if (const auto *ASE = Result.Nodes.getNodeAs<ArraySubscriptExpr>("access")) {
    Access = ASE;
    elementAccess(ASE, BasePtr, Idx);
  } else if (const auto *UO = Result.Nodes.getNodeAs<UnaryOperator>("deref")) {
    Access = UO;
    elementAccess(UO, BasePtr, Idx);
  } else if (const auto *ME = Result.Nodes.getNodeAs<MemberExpr>("member")) {
    if (!memberAccess(ME, BasePtr, Idx, Member))
      return;
    Access = ME;
  }
  if (!Access || Kernel->isDependentContext())
    return;
  // Every launch the translation unit has of the kernel is one thread wide
  // (`<<<rows, 1>>>`): each warp holds one thread of a block, and there is
  // no neighbour to coalesce with.
  if (!Launches)
    Launches = std::make_unique<KernelLaunches>(Ctx);
  if (std::optional<int64_t> X = Launches->onlyX(Kernel); X && *X == 1)
    return;
  std::unique_ptr<ThreadIndexAnalysis> &Slot = Analyses[Kernel];
  if (!Slot)
    Slot = std::make_unique<ThreadIndexAnalysis>(Ctx, Kernel);
  ThreadIndexAnalysis &TIA = *Slot;
  std::optional<AccessInfo> Info =
      describeAccess(Ctx, Kernel, Access, BasePtr, Idx, Member, TIA);
  if (!Info)
    return;
  applyLaunchValues(*Info, Kernel, TIA, [&](const ParmVarDecl *P) {
    return launchValue(Ctx, Kernel, P);
  });
  AccessKind Kind = Info->Kind;
  // The same thread stored these bytes just before: the value is still in
  // a register, and no load is issued (`p[x] *= d; s += p[x];`); a
  // load-and-store is then a store.
  if (Kind != AccessKind::Store &&
      loadedFromOwnStore(Ctx, Kernel, Access, TIA)) {
    if (Kind == AccessKind::Load)
      return;
    Kind = AccessKind::Store;
  }
  const ParmVarDecl *Param = Info->Param;
  const IndexForm &Index = Info->Index;
  int64_t ElemSize = Info->ElemSize, AccessSize = Info->AccessSize;
  int64_t Offset = memberOffset(Ctx, Member);
  LaneStride Stride = TIA.laneStride(Index);
  std::string StrideText;
  bool WholeRecordLoop = false;
  // The consecutive offsets of its record a thread reads, where the record's
  // length is not known.
  std::optional<std::pair<int64_t, int64_t>> ReadOffsets;
  // Whether each lane may need two sectors (an access that may straddle a
  // sector boundary) where the stride is not a constant.
  bool Inside = true;
  if (Stride.isConstant()) {
    int64_t S = Stride.Value < 0 ? -Stride.Value : Stride.Value;
    // Elements: at least MinStride apart. Members: their bytes at least
    // MinStride times their size apart.
    if (S == 0 || S * ElemSize < std::max<int64_t>(MinStride, 2) * AccessSize)
      return;
    StrideText =
        Member ? std::to_string(S * ElemSize) + " bytes" : std::to_string(S);
    // A run-time stride that every launch passes one value for.
    if (Info->LaunchStride)
      StrideText = Member
                       ? StrideText + " ('" + Info->LaunchStride->str() +
                             "' is " + std::to_string(S) + " at every launch)"
                       : "'" + Info->LaunchStride->str() + "' (" +
                             std::to_string(S) + " at every launch)";
  } else if (Stride.isSymbolic() && isRunTimeWidth(Stride.Symbols)) {
    // Each thread reads its whole record, element by element in a loop:
    // the sectors fetched are used across the loop while L1 keeps them,
    // which depends on the record's run-time length (said in a note).
    WholeRecordLoop = Kind == AccessKind::Load && Index.Poly &&
                      walksWholeRecord(Ctx, *Index.Poly, Stride.Symbols, TIA);
    StrideText = "'" + Stride.Symbols.str() + "'";
    if (Member)
      StrideText += " elements of " + std::to_string(ElemSize) + " bytes";
    // The elements of its record each thread reads at constant offsets
    // (`img[i * nc + 0]`, `img[i * nc + 1]`, ...): with the value every
    // launch passes for the stride, mostly read records are exempt as for
    // a constant stride; with no such value, a note says what it depends
    // on.
    if (!Member && Kind == AccessKind::Load && Index.Poly) {
      int64_t C = Index.Poly->constantTerm();
      std::set<int64_t> Offsets =
          recordOffsets(Ctx, Kernel, TIA, Param, ElemSize, Stride.Symbols,
                        *Index.Poly - IndexPoly::constant(C));
      std::optional<int64_t> Width;
      const auto &Terms = Stride.Symbols.terms();
      if (Terms.size() == 1 && Terms.begin()->first.size() == 1 &&
          Terms.begin()->first[0].Kind == IndexSymbol::Variable)
        if (const auto *P = dyn_cast_or_null<ParmVarDecl>(
                Terms.begin()->first[0].getDecl()))
          if (std::optional<int64_t> V = launchValue(Ctx, Kernel, P))
            Width = *V * Terms.begin()->second;
      if (Width && *Width > 0) {
        std::set<int64_t> Residues;
        for (int64_t O : Offsets)
          Residues.insert(((O % *Width) + *Width) % *Width);
        if (static_cast<int64_t>(Residues.size()) * 100 >=
                MostlyReadPercent * *Width &&
            !ReportWholeRecords)
          return;
      } else if (Offsets.size() >= 2 &&
                 *Offsets.rbegin() - *Offsets.begin() + 1 ==
                     static_cast<int64_t>(Offsets.size()) &&
                 startsRecords(*Index.Poly - IndexPoly::constant(C),
                               Stride.Symbols)) {
        ReadOffsets = std::make_pair(*Offsets.begin(), *Offsets.rbegin());
      }
    }
    // At worst every lane has sectors of its own: one for an access whose
    // power-of-two size and alignment keep it inside a sector, two for one
    // that may straddle a sector boundary.
    Inside = llvm::isPowerOf2_64(AccessSize) && AccessSize <= 32 &&
             Offset % AccessSize == 0 && ElemSize % AccessSize == 0;
  } else {
    return;
  }
  // The warps of the block: with every launch's shape known, its threads in
  // order (a block narrower than 32 puts several rows of threadIdx.x in a
  // warp); else warps of 32 consecutive threadIdx.x. Only the lanes that
  // the thread-index guards on the way let in take part (`if (tid == 0)`:
  // one lane, no strided request).
  std::optional<BlockShape> Shape = Launches->onlyShape(Kernel);
  auto Guards = [&] {
    return LaneGuards(
        Ctx, TIA, Shape, Access,
        [&](const ParmVarDecl *P) { return launchValue(Ctx, Kernel, P); },
        Launches->onlyGrid(Kernel));
  };
  WarpCount Count = countSectors(Index, Stride, ElemSize, AccessSize, Offset,
                                 Inside, Shape, Guards());
  if (Count.Lanes <= 1)
    return;
  int64_t Sectors = Count.Sectors, Coalesced = Count.Coalesced;
  // Elements of 32 bytes fill whole sectors whatever the stride.
  if (Sectors <= Coalesced)
    return;
  // A run-time record of which each thread reads the consecutive offsets
  // First..Last: it holds at least Last + 1 elements, so the lanes are at
  // least that far apart. The fewest sectors a request can then touch.
  std::string CountText = std::to_string(Sectors);
  int64_t FewestSectors = Sectors;
  if (ReadOffsets && ReadOffsets->first >= 0) {
    LaneStride Shortest;
    Shortest.Kind = LaneStride::Constant;
    Shortest.Value = ReadOffsets->second + 1;
    FewestSectors = countSectors(Index, Shortest, ElemSize, AccessSize, Offset,
                                 Inside, Shape, Guards())
                        .Sectors;
    if (FewestSectors < Sectors)
      CountText = std::to_string(FewestSectors) + " to " + CountText;
    else
      FewestSectors = Sectors;
  }
  std::string ShapeText;
  if (Shape && (*Shape)[0] < 32) {
    ShapeText = " (blocks of " + std::to_string((*Shape)[0]);
    if ((*Shape)[1] > 1 || (*Shape)[2] > 1)
      ShapeText += "x" + std::to_string((*Shape)[1]);
    if ((*Shape)[2] > 1)
      ShapeText += "x" + std::to_string((*Shape)[2]);
    ShapeText += " threads)";
  }
  // A field the same thread already loaded: the same bytes through the
  // same pointer and index, read again (the compiler keeps the value in a
  // register, or L1 serves it). The first read carries the finding.
  if (Kind == AccessKind::Load && Index.Poly) {
    auto &Seen = LoadsSeen[Kernel];
    auto Same = llvm::find_if(Seen, [&](const SeenLoad &L) {
      return L.Param == Param && L.Index == *Index.Poly && L.Offset == Offset &&
             L.Size == AccessSize && L.ElemSize == ElemSize &&
             L.Access != Access;
    });
    if (Same != Seen.end())
      return;
    Seen.push_back({Param, *Index.Poly, Offset, AccessSize, ElemSize, Access});
  }
  // Each thread reads most of its record of S elements (the bytes its reads
  // cover, through the same pointer with the same non-constant part of the
  // index): the sectors the first read fetches serve the others from L1,
  // so DRAM traffic is close to that of the coalesced layout. Each thread
  // writes all of its record: the warp's stores together fill every sector
  // they touch, and L2 merges them before DRAM.
  std::optional<RecordRead> Record;
  if (Stride.isConstant() && Kind != AccessKind::LoadStore) {
    const auto &Records = recordAccesses(Ctx, Kernel, TIA);
    auto It = Records.find(Access);
    if (It != Records.end()) {
      if (It->second.Cheap && !ReportWholeRecords)
        return;
      Record = It->second;
    }
  }

  SourceLocation Loc = Access->getBeginLoc();
  if (Reported.contains(Loc))
    return;
  // One finding per layout: the first access of it reported carries the
  // finding, and a note on the others (bitcracker's 256-byte records,
  // written and read field by field, made 112 findings of one cause).
  const Layout *Same = nullptr;
  if (GroupLayouts) {
    const auto &KernelLayouts = layouts(Ctx, Kernel, TIA);
    auto It = KernelLayouts.find(Access);
    if (It != KernelLayouts.end() && It->second.Count > 1)
      Same = &It->second;
  }
  if (Same && !ReportedLayouts.insert({Kernel, Same->Id}).second)
    return;
  Reported.insert(Loc);
  static const char *const KindNames[] = {"load from", "store to",
                                          "load from and store to"};
  diag(Loc, "uncoalesced %0 global memory: consecutive threads access "
            "%select{elements|member '%6'}5 %1 apart, so a warp "
            "request touches %select{|up to }2%3 32-byte sectors instead of "
            "%4%7")
      << KindNames[static_cast<int>(Kind)] << StrideText
      << (!Stride.isConstant() && FewestSectors == Sectors) << CountText
      << Coalesced << (Member != nullptr)
      << (Member ? Member->getName() : StringRef()) << ShapeText
      << Access->getSourceRange();
  for (const IndexDefinition &D : Index.Definitions) {
    if (isa<ParmVarDecl>(D.Var))
      continue;
    // Only the definitions that carry threadIdx.x.
    LaneStride Own = TIA.laneStride(D.Value);
    if (Own.isConstant() && Own.Value == 0)
      continue;
    diag(D.Loc, "index '%0' is computed here", DiagnosticIDs::Note)
        << D.Var->getName();
  }
  if (ReadOffsets && FewestSectors < Sectors && ReadOffsets->first == 0)
    diag(Loc,
         "each thread reads the %0 consecutive elements at offsets 0 to %1 "
         "of its record of %2: if the record is %0 elements long, that is "
         "all of it, the request touches %3 sectors and every byte fetched "
         "is used (the cost is in L1 requests, not DRAM traffic); the "
         "longer the record, the more of each sector is wasted",
         DiagnosticIDs::Note)
        << static_cast<int>(ReadOffsets->second + 1)
        << static_cast<int>(ReadOffsets->second) << StrideText
        << static_cast<int>(FewestSectors);
  else if (ReadOffsets)
    diag(Loc,
         "each thread reads the %0 consecutive elements at offsets %1 to %2 "
         "of its record of %3: the fewer elements the record has beyond "
         "them, the more of each sector fetched is used",
         DiagnosticIDs::Note)
        << static_cast<int>(ReadOffsets->second - ReadOffsets->first + 1)
        << static_cast<int>(ReadOffsets->first)
        << static_cast<int>(ReadOffsets->second) << StrideText;
  if (WholeRecordLoop)
    diag(Loc,
         "each thread reads all %0 elements of its record in this loop: "
         "the sectors fetched are used across its iterations while L1 keeps "
         "them, so for short records the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << StrideText;
  if (Record)
    noteRecord(Loc, Kind == AccessKind::Store, *Record);
  if (Same)
    diag(Loc,
         "the kernel has %0 more %select{load%s0 from|store%s0 to|load%s0 "
         "from and store%s0 to}1 '%2' with this lane stride and an index a "
         "constant away from this one (%select{lines %3 to %4|line %3}5): "
         "one layout, one finding",
         DiagnosticIDs::Note)
        << Same->Count - 1 << static_cast<int>(Info->Kind) << Param->getName()
        << Same->FirstLine << Same->LastLine
        << (Same->FirstLine == Same->LastLine);
  if (Kind == AccessKind::Load && isReadOnly(Ctx, Param, Kernel, TIA))
    diag(Loc,
         "'%0' is only read: load it with consecutive threads reading "
         "consecutive elements into a __shared__ tile, then read the tile",
         DiagnosticIDs::Note)
        << Param->getName();
}

void UncoalescedAccessCheck::noteRecord(SourceLocation Loc, bool Store,
                                        const RecordRead &Record) {
  if (!Record.Cheap)
    diag(Loc,
         "each thread %select{reads|writes}0 %1 of the %2 bytes of its "
         "record, so DRAM traffic is close to a coalesced layout's, but each "
         "request still touches a sector per lane: on an H200 a kernel bound "
         "by such %select{loads|stores}0 ran %select{up to 2x|5x to 13x}0 "
         "slower than with a coalesced layout",
         DiagnosticIDs::Note)
        << Store << static_cast<int>(Record.Bytes)
        << static_cast<int>(Record.RecordBytes);
  else if (Store)
    diag(Loc,
         "each thread writes all %0 elements of its record, so the warp's "
         "stores together fill the sectors they touch: the cost is in L2 "
         "requests, not DRAM traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record.Stride);
  else if (Record.Whole)
    diag(Loc,
         "each thread reads all %0 elements of its record, so the sectors "
         "fetched are used in full: the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record.Stride);
  else
    diag(Loc,
         "each thread reads %0 of the %1 bytes of its record, so most of "
         "each sector fetched is used: the cost is in L1 requests, not DRAM "
         "traffic",
         DiagnosticIDs::Note)
        << static_cast<int>(Record.Bytes)
        << static_cast<int>(Record.RecordBytes);
}

void UncoalescedAccessCheck::onEndOfTranslationUnit() {
  WholeRecords.clear();
  Layouts.clear();
  ReportedLayouts.clear();
  LoadsSeen.clear();
  Analyses.clear();
  Reported.clear();
  Launches.reset();
  KernelLoads.clear();
  ParamValues.clear();
  Calls.clear();
  CallsCollected = false;
}

} // namespace clang::tidy::cuda
