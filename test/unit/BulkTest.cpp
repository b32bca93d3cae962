//===--- BulkTest.cpp - cuda-lint bulk-run helpers ------------------------===//

#include "cudalint/driver/Bulk.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cudalint;

namespace {

TEST(ShardTest, ParsesKOfN) {
  unsigned K, N;
  EXPECT_TRUE(parseShard("1/4", K, N));
  EXPECT_EQ(K, 1u);
  EXPECT_EQ(N, 4u);
  EXPECT_TRUE(parseShard("4/4", K, N));
  EXPECT_FALSE(parseShard("0/4", K, N));
  EXPECT_FALSE(parseShard("5/4", K, N));
  EXPECT_FALSE(parseShard("1/0", K, N));
  EXPECT_FALSE(parseShard("a/b", K, N));
  EXPECT_FALSE(parseShard("3", K, N));
}

TEST(ShardTest, EveryFileInExactlyOneShard) {
  std::vector<std::string> Files;
  for (int I = 0; I < 23; ++I)
    Files.push_back("/src/f" + std::to_string(I) + ".cu");
  std::vector<std::string> Reversed(Files.rbegin(), Files.rend());
  std::map<std::string, int> Count;
  for (unsigned K = 1; K <= 4; ++K) {
    std::vector<std::string> Share = selectShard(Files, K, 4);
    // Deterministic whatever the input order.
    EXPECT_EQ(Share, selectShard(Reversed, K, 4));
    EXPECT_GE(Share.size(), 5u);
    EXPECT_LE(Share.size(), 6u);
    for (const std::string &F : Share)
      ++Count[F];
  }
  EXPECT_EQ(Count.size(), Files.size());
  for (const auto &[F, C] : Count)
    EXPECT_EQ(C, 1) << F;
}

TEST(DiffTest, ReadsChangedLines) {
  const char *Diff = "diff --git a/src/k.cu b/src/k.cu\n"
                     "index 1..2 100644\n"
                     "--- a/src/k.cu\n"
                     "+++ b/src/k.cu\n"
                     "@@ -3,0 +4,2 @@ void f()\n"
                     "+a\n+b\n"
                     "@@ -10 +12 @@\n"
                     "-x\n+y\n"
                     "@@ -20,3 +21,0 @@\n"
                     "-gone\n"
                     "diff --git a/old.cu b/old.cu\n"
                     "--- a/old.cu\n"
                     "+++ /dev/null\n"
                     "@@ -1,2 +0,0 @@\n";
  LineRanges R = parseUnifiedDiff(Diff, "/repo");
  ASSERT_EQ(R.size(), 1u);
  const auto &Ranges = R["/repo/src/k.cu"];
  ASSERT_EQ(Ranges.size(), 2u);
  EXPECT_EQ(Ranges[0], std::make_pair(4u, 5u));
  EXPECT_EQ(Ranges[1], std::make_pair(12u, 12u));
  EXPECT_EQ(lineFilterJson(R),
            R"([{"lines":[[4,5],[12,12]],"name":"/repo/src/k.cu"}])");
}

class FixTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("bulk-test", Dir));
    File = (Dir + "/k.cu").str();
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    OS << "float x = 0.5;\nfloat y = 1.5;\n";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  Finding finding(std::string Check, unsigned Offset, unsigned Length,
                  std::string Text) {
    Finding F;
    F.Diag.DiagnosticName = Check;
    F.Diag.Message.FilePath = File;
    F.Diag.Message.FileOffset = Offset;
    llvm::consumeError(F.Diag.Message.Fix[File].add(
        clang::tooling::Replacement(File, Offset, Length, Text)));
    F.File = File;
    return F;
  }

  llvm::SmallString<128> Dir;
  std::string File;
};

TEST_F(FixTest, IdenticalEditsFromTwoUnitsApplyOnce) {
  std::vector<Finding> Fs{finding("cuda-a", 13, 0, "f"),
                          finding("cuda-a", 13, 0, "f"),
                          finding("cuda-a", 28, 0, "f")};
  FixPlan Plan = planFixes(Fs);
  EXPECT_TRUE(Plan.Conflicts.empty());
  EXPECT_EQ(Plan.NewContents[File], "float x = 0.5f;\nfloat y = 1.5f;\n");
  EXPECT_EQ(Plan.EditCount[File], 2u);
}

TEST_F(FixTest, OverlappingDifferentEditsAreRefused) {
  std::vector<Finding> Fs{finding("cuda-a", 10, 3, "0.5f"),
                          finding("cuda-b", 11, 2, "25"),
                          finding("cuda-a", 28, 0, "f")};
  FixPlan Plan = planFixes(Fs);
  ASSERT_EQ(Plan.Conflicts.size(), 1u);
  EXPECT_NE(Plan.Conflicts[0].find("k.cu:1:12: conflicting fixes: cuda-a"),
            std::string::npos)
      << Plan.Conflicts[0];
  // Nothing at all is applied to a file with a conflict.
  EXPECT_EQ(Plan.NewContents.count(File), 0u);
}

TEST_F(FixTest, TwoInsertionsAtOnePlaceConflict) {
  std::vector<Finding> Fs{finding("cuda-a", 13, 0, "f"),
                          finding("cuda-b", 13, 0, "F")};
  EXPECT_EQ(planFixes(Fs).Conflicts.size(), 1u);
}

TEST_F(FixTest, FindingSetMergesDuplicates) {
  FindingSet Set;
  Finding F = finding("cuda-a", 13, 0, "f");
  EXPECT_TRUE(Set.add(F.Diag));
  EXPECT_FALSE(Set.add(F.Diag));
  std::vector<Finding> All = Set.findings();
  ASSERT_EQ(All.size(), 1u);
  EXPECT_EQ(All[0].Line, 1u);
  EXPECT_EQ(All[0].Column, 14u);
}

TEST_F(FixTest, OneLocationTwoUnitsKeepsTheBetterReport) {
  // Through a.cu the block shape was known (a fix); through b.cu it was not.
  Finding WithFix = finding("cuda-a", 13, 0, "f");
  WithFix.Diag.Message.Message = "8-way";
  Finding Without = WithFix;
  Without.Diag.Message.Message = "up to 16-way";
  Without.Diag.Message.Fix.clear();
  for (bool FixFirst : {true, false}) {
    FindingSet Set;
    Set.add(FixFirst ? WithFix.Diag : Without.Diag, "b.cu");
    Set.add(FixFirst ? Without.Diag : WithFix.Diag, "a.cu");
    std::vector<Finding> All = Set.findings();
    ASSERT_EQ(All.size(), 1u);
    EXPECT_EQ(All[0].Diag.Message.Message, "8-way");
  }
  // Both with a fix: the first translation unit by name, whatever the order.
  Finding Other = WithFix;
  Other.Diag.Message.Message = "4-way";
  FindingSet Set;
  Set.add(Other.Diag, "b.cu");
  Set.add(WithFix.Diag, "a.cu");
  ASSERT_EQ(Set.findings().size(), 1u);
  EXPECT_EQ(Set.findings()[0].Diag.Message.Message, "8-way");
  // Two messages at one place from one translation unit are two findings.
  FindingSet One;
  One.add(WithFix.Diag, "a.cu");
  One.add(Other.Diag, "a.cu");
  EXPECT_EQ(One.findings().size(), 2u);
}

class UnitsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("units", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return std::string(P);
  }
  llvm::SmallString<128> Dir;
};

TEST_F(UnitsTest, IncludedCuFilesAreNotUnits) {
  std::string Main = write("a/main.cu", "#include \"kernel.cu\"\n");
  std::string Kernel = write("a/kernel.cu", "#include \"k/more.cu\"\n");
  std::string More = write("a/k/more.cu", "\n");
  std::string Lone = write("a/lone.cu", "\n");
  // A file of the same name in a sibling project is not what main.cu
  // includes.
  std::string Sibling = write("b/kernel.cu", "\n");
  // Files that include each other and nothing else includes stay units.
  std::string X = write("c/x.cu", "#include \"y.cu\"\n");
  std::string Y = write("c/y.cu", "#include \"x.cu\"\n");
  IncludeSearch Search;
  Search.SuffixRoot = std::string(Dir);
  std::vector<std::string> Units =
      translationUnits({Main, Kernel, More, Lone, Sibling, X, Y}, Search);
  EXPECT_EQ(Units, (std::vector<std::string>{Main, Lone, Sibling, X, Y}));
}

TEST_F(UnitsTest, IncludeDirectoriesAndSuffixes) {
  std::string Main = write("p/src/main.cu", "#include \"kernels/k.cu\"\n"
                                            "#include \"util.cuh\"\n");
  std::string K = write("p/inc/kernels/k.cu", "\n");
  std::string U = write("p/other/util.cuh", "\n");
  std::string Far = write("q/util.cuh", "\n");
  IncludeSearch Search;
  std::string Inc = std::string(Dir) + "/p/inc";
  Search.IncludeDirs = [&](llvm::StringRef) {
    return std::vector<std::string>{Inc};
  };
  // util.cuh: by suffix, the one in the same project (p), not q's.
  Search.SuffixRoot = std::string(Dir);
  EXPECT_EQ(translationUnits({Main, K, U, Far}, Search),
            (std::vector<std::string>{Main, Far}));
  // Without a suffix root (a compile database), names resolve only beside
  // the includer and in its include directories.
  Search.SuffixRoot.clear();
  EXPECT_EQ(translationUnits({Main, K, U, Far}, Search),
            (std::vector<std::string>{Main, U, Far}));
}

TEST(SanitizerTest, FindsTheFirstReportLine) {
  EXPECT_EQ(firstSanitizerReport("warning: x\n"), "");
  EXPECT_EQ(firstSanitizerReport(
                "a\n==12==ERROR: AddressSanitizer: heap-use-after-free on x\n"
                "b: runtime error: y\n"),
            "==12==ERROR: AddressSanitizer: heap-use-after-free on x");
  EXPECT_EQ(firstSanitizerReport("/s/l.cpp:3:5: runtime error: signed integer "
                                 "overflow\n"),
            "/s/l.cpp:3:5: runtime error: signed integer overflow");
}

TEST(CompileErrorTest, NoCheckFixWhereTheUnitDoesNotCompile) {
  auto Diag = [](const char *Name, clang::tooling::Diagnostic::Level Level) {
    clang::tooling::Diagnostic D;
    D.DiagnosticName = Name;
    D.DiagLevel = Level;
    clang::tooling::Replacement R("a.cu", 0, 1, "x");
    llvm::cantFail(D.Message.Fix["a.cu"].add(R));
    clang::tooling::DiagnosticMessage Note;
    llvm::cantFail(Note.Fix["a.cu"].add(R));
    D.Notes.push_back(Note);
    return D;
  };
  using Level = clang::tooling::Diagnostic::Level;
  std::vector<clang::tooling::Diagnostic> Clean = {
      Diag("cuda-launch-shape", Level::Warning)};
  EXPECT_FALSE(dropFixesOnCompileErrors(Clean));
  EXPECT_FALSE(Clean[0].Message.Fix.empty());
  // A failed unit (a crash, a timeout) gets none either.
  EXPECT_TRUE(dropFixesOnCompileErrors(Clean, /*Anyway=*/true));
  EXPECT_TRUE(Clean[0].Message.Fix.empty());
  EXPECT_TRUE(Clean[0].Notes[0].Fix.empty());

  std::vector<clang::tooling::Diagnostic> Broken = {
      Diag("cuda-missing-restrict", Level::Warning),
      Diag("clang-diagnostic-error", Level::Error)};
  EXPECT_TRUE(isCompileError(Broken[1]));
  EXPECT_FALSE(isCompileError(Broken[0]));
  EXPECT_TRUE(dropFixesOnCompileErrors(Broken));
  EXPECT_TRUE(Broken[0].Message.Fix.empty());
  EXPECT_TRUE(Broken[0].Notes[0].Fix.empty());
  // The compiler's own fix-it stays.
  EXPECT_FALSE(Broken[1].Message.Fix.empty());
}

} // namespace
