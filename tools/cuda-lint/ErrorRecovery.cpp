//===--- ErrorRecovery.cpp - analyse what compiles ------------------------===//
//
// Real code often does not compile in full where cuda-lint runs: a
// third-party header is missing (`mpi.h`, `GL/glew.h`, `gsl/...`), or a few
// host declarations do not parse. clang stops at a missing include (a fatal
// error that silences every later diagnostic while the parse goes on), and
// every check would then run over functions whose bodies lost statements or
// hold recovery expressions, and report what those do not show.
//
// This frontend plugin, which runs before clang-tidy's checks in every
// translation unit cuda-lint analyses, makes the best of it:
//  * an `#include` that is not found is skipped, and reported as a
//    (non-fatal) error `'mpi.h' file not found`, so the rest of the file is
//    parsed and the file counts as having compile errors (no fix is applied
//    in it); the errors that follow a skipped include (its missing
//    declarations) are not printed, as clang does not print them after its
//    fatal error, and there is no limit on the number of errors;
//  * a function whose body a compile error touches (an error reported inside
//    it, an invalid declaration, an expression that contains errors, a
//    reference to an invalid declaration) loses its body before the checks
//    run: it is not analysed, and a call to it is a call to a function
//    defined elsewhere. The other functions of the file are analysed as
//    usual;
//  * what nvcc accepts and clang calls an error is not an error (nvcc's
//    dialect; see nvccAccepts): a `__shared__` variable whose type has a
//    constructor (nvcc warns that it is not initialized), a variable-sized
//    array with an initializer (g++ compiles nvcc's host code), a `%` that
//    is not an operand in inline assembly (passed to ptxas as it is). The
//    diagnostic is not printed, and the declaration clang marked invalid is
//    made valid again before the code after it is parsed, so that the
//    functions that use it are analysed.
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include <memory>

using namespace clang;

namespace {

/// What the recovery has seen of one translation unit.
struct ErrorLog {
  /// Where each compile error was reported (file locations).
  std::vector<SourceLocation> Errors;
  /// An include was skipped: the errors after it are recorded, not printed.
  bool Quiet = false;
  /// Declarations that an error nvcc does not report made invalid, to be
  /// made valid again (by their location) once the parser moves on.
  std::vector<SourceLocation> Revalidate;
};

/// Errors of clang's that nvcc does not report for the same code: the
/// declaration they name stays valid (\p Revalidate) or the statement was
/// built as it is.
bool nvccAccepts(const Diagnostic &Info, bool &Revalidate) {
  unsigned ID = Info.getID();
  // A `__shared__` variable of a class type default-constructed (the range
  // of its initializer is the variable's name): nvcc warns that the
  // constructor is not run. An initializer written out stays an error, as
  // it is for nvcc.
  bool ImplicitInit = Info.getNumRanges() == 0 ||
                      (Info.getRange(0).getBegin() == Info.getLocation() &&
                       Info.getRange(0).getEnd() == Info.getLocation());
  Revalidate = (ID == diag::err_shared_var_init && ImplicitInit) ||
               ID == diag::err_variable_object_no_init;
  return Revalidate || ID == diag::err_asm_invalid_escape;
}

/// Makes the declarations in Log.Revalidate valid again: called on the first
/// token after the declaration, when clang has marked it invalid and the
/// code that uses it is not parsed yet. The declaration is the last invalid
/// variable of the current context declared at or before the error (which
/// is at the variable's name, or at its initializer). A variable-sized array
/// loses the initializer clang could not build.
void revalidate(Sema &S, ErrorLog &Log) {
  SourceManager &SM = S.getSourceManager();
  for (SourceLocation Loc : Log.Revalidate)
    for (DeclContext *DC = S.CurContext; DC; DC = DC->getParent()) {
      VarDecl *Last = nullptr;
      for (Decl *D : DC->decls())
        if (auto *VD = dyn_cast<VarDecl>(D);
            VD &&
            (VD->isInvalidDecl() ||
             (VD->getInit() && VD->getInit()->containsErrors())) &&
            (VD->getLocation() == Loc ||
             SM.isBeforeInTranslationUnit(VD->getLocation(), Loc)))
          Last = VD;
      if (Last) {
        Last->setInvalidDecl(false);
        if (Last->getInit() && Last->getInit()->containsErrors())
          Last->setInit(nullptr);
        break;
      }
      if (DC->isFileContext())
        break;
    }
  Log.Revalidate.clear();
}

/// Forwards every diagnostic to clang-tidy's consumer, recording where the
/// errors are; after a skipped include, its errors (and their notes) are
/// recorded but not forwarded, as clang does not print the errors that follow
/// its fatal `file not found`.
class RecordingConsumer : public DiagnosticConsumer {
public:
  RecordingConsumer(DiagnosticConsumer &Target,
                    std::unique_ptr<DiagnosticConsumer> Owned,
                    std::shared_ptr<ErrorLog> Log)
      : Target(Target), Owned(std::move(Owned)), Log(std::move(Log)) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Target.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Target.EndSourceFile(); }
  void finish() override { Target.finish(); }
  void clear() override {
    Target.clear();
    DiagnosticConsumer::clear();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Target.IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    bool Revalidate = false;
    if (Level >= DiagnosticsEngine::Error && nvccAccepts(Info, Revalidate)) {
      // Not an error for nvcc: not printed (nor its notes), not recorded.
      if (Revalidate && Info.getLocation().isValid())
        Log->Revalidate.push_back(Info.getLocation());
      Silenced = true;
      return;
    }
    if (Level >= DiagnosticsEngine::Error) {
      if (Info.getLocation().isValid() && Info.hasSourceManager())
        Log->Errors.push_back(
            Info.getSourceManager().getFileLoc(Info.getLocation()));
      bool Missing = Info.getID() == diag::err_pp_file_not_found;
      Silenced = Log->Quiet && !Missing;
      Log->Quiet |= Missing;
    } else if (Level != DiagnosticsEngine::Note) {
      Silenced = false;
    }
    if (Silenced)
      return;
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Target.HandleDiagnostic(Level, Info);
  }

private:
  DiagnosticConsumer &Target;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::shared_ptr<ErrorLog> Log;
  bool Silenced = false;
};

/// Whether a compile error touches a function body: an invalid declaration,
/// an expression that contains errors, a reference to an invalid declaration.
class FindsErrors : public RecursiveASTVisitor<FindsErrors> {
public:
  bool Found = false;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDecl(Decl *D) {
    Found |= D->isInvalidDecl();
    return !Found;
  }
  bool VisitExpr(Expr *E) {
    Found |= E->containsErrors();
    return !Found;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Found |= E->getDecl() && E->getDecl()->isInvalidDecl();
    return !Found;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    Found |= E->getMemberDecl() && E->getMemberDecl()->isInvalidDecl();
    return !Found;
  }
};

/// Collects the function definitions of the translation unit.
class CollectFunctions : public RecursiveASTVisitor<CollectFunctions> {
public:
  std::vector<FunctionDecl *> Functions;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isFromASTFile())
      Functions.push_back(FD);
    return true;
  }
};

class DropErroneousBodies : public ASTConsumer {
public:
  explicit DropErroneousBodies(std::shared_ptr<ErrorLog> Log)
      : Log(std::move(Log)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Log->Errors.empty() && !Ctx.getDiagnostics().hasErrorOccurred())
      return;
    SourceManager &SM = Ctx.getSourceManager();
    CollectFunctions Collect;
    Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
    std::vector<FunctionDecl *> Drop;
    for (FunctionDecl *FD : Collect.Functions) {
      if (touchedByError(FD, SM))
        Drop.push_back(FD);
    }
    for (FunctionDecl *FD : Drop)
      FD->setBody(nullptr);
  }

private:
  bool touchedByError(FunctionDecl *FD, SourceManager &SM) {
    if (FD->isInvalidDecl())
      return true;
    if (const auto *Parent = dyn_cast<Decl>(FD->getDeclContext()))
      if (Parent->isInvalidDecl())
        return true;
    // An error reported inside the function (its pattern, for an
    // instantiation: clang reports instantiation errors there).
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    SourceRange R = (Pattern ? Pattern : FD)->getSourceRange();
    SourceLocation B = SM.getFileLoc(R.getBegin()),
                   E = SM.getFileLoc(R.getEnd());
    if (B.isValid() && E.isValid())
      for (SourceLocation L : Log->Errors)
        if (L.isValid() && !SM.isBeforeInTranslationUnit(L, B) &&
            !SM.isBeforeInTranslationUnit(E, L))
          return true;
    FindsErrors Finder;
    Finder.TraverseDecl(FD);
    return Finder.Found;
  }

  std::shared_ptr<ErrorLog> Log;
};

class ErrorRecoveryAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    auto Log = std::make_shared<ErrorLog>();
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    // Every error is recorded; clang would stop at 20.
    Diags.setErrorLimit(0);
    // An include that is not found is an error, not a fatal one: the
    // preprocessor skips it and goes on.
    Diags.setSeverity(diag::err_pp_file_not_found, diag::Severity::Error,
                      SourceLocation());
    DiagnosticConsumer *Target = Diags.getClient();
    if (!Target || !CI.hasPreprocessor())
      return std::make_unique<ASTConsumer>();
    std::unique_ptr<DiagnosticConsumer> Owned;
    if (Diags.ownsClient())
      Owned = Diags.takeClient();
    auto *Recording = new RecordingConsumer(*Target, std::move(Owned), Log);
    Diags.setClient(Recording, /*ShouldOwnClient=*/true);
    // The declarations of errors nvcc accepts are made valid again on the
    // next token (the parser has finished the declaration by then).
    CI.getPreprocessor().setTokenWatcher([&CI, Log](const Token &) {
      if (!Log->Revalidate.empty() && CI.hasSema())
        revalidate(CI.getSema(), *Log);
    });
    return std::make_unique<DropErroneousBodies>(Log);
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<ErrorRecoveryAction>
    X("cuda-lint-error-recovery",
      "analyse what compiles: skip missing includes and functions with errors");
