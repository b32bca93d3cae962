// The note "nvcc already narrows ..." says what nvcc 13 does: it is given
// exactly where `nvcc -ptx` shows no f64 instruction, and every kernel the
// note is not given for keeps f64 arithmetic.
// REQUIRES: nvcc
// RUN: %cuda_lint %s --checks='-*,cuda-double-promotion' --config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low -- 2>&1 | FileCheck --check-prefix=NOTES %s
// With ReportNarrowed off the narrowed cases are not reported: the suffix
// changes no instruction there (the PTX lines below).
// RUN: %cuda_lint %s --checks='-*,cuda-double-promotion' --config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: false}}" -- 2>&1 | FileCheck --check-prefix=DEFAULT %s
// DEFAULT-NOT: nvcc computes in float
// DEFAULT-NOT: nvcc converts to float
// DEFAULT: warning: double-precision literal
// The default profile (MinImpact medium) hides them as well, with
// ReportNarrowed on: they rank low, the fix changing no instruction.
// RUN: %cuda_lint %s --checks='-*,cuda-double-promotion' -- 2>&1 | FileCheck --check-prefix=DEFAULT %s
// RUN: %cuda_lint %s --checks='-*,cuda-double-promotion' --min-impact=low -- 2>&1 | FileCheck --check-prefix=RANK %s
// RANK: :[[@LINE+10]]:{{[0-9]+}}: warning: double-precision literal '0.5' in a float operation that nvcc computes in float
// RANK: :[[@LINE+9]]:{{[0-9]+}}: note: impact: low (rank {{[0-5]}}/100): the fix changes no instruction: nvcc already computes this in float
// RUN: %nvcc -ptx -arch=sm_90 %s -o %t.ptx
// RUN: FileCheck --check-prefix=PTX --input-file=%t.ptx %s

#define K extern "C" __global__ void

// Narrowed: one + - * / of float data and a literal exactly representable in
// float, its result straight back to float; compound assignments; comparisons;
// division.
K mul(float *p, float a) { p[0] = a * 0.5; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry mul(
// PTX-NOT: f64
// PTX: ret;
K rsub(float *p, float a) { p[0] = -0.5 - a; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry rsub(
// PTX-NOT: f64
// PTX: ret;
K div3(float *p, float a) { p[0] = a / 3.0; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '3.0'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry div3(
// PTX-NOT: f64
// PTX: div.rn.f32
// PTX-NOT: f64
// PTX: ret;
K addAssign(float *p, float a) { a += 0.5; p[0] = a; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry addAssign(
// PTX-NOT: f64
// PTX: ret;
K subAssign(float *p, float a) { a -= 0.5; p[0] = a; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry subAssign(
// PTX-NOT: f64
// PTX: ret;
K mulAssign(float *p, float a) { a *= 0.5; p[0] = a; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry mulAssign(
// PTX-NOT: f64
// PTX: ret;
K divAssign(float *p, float a) { a /= 3.0; p[0] = a; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '3.0'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry divAssign(
// PTX-NOT: f64
// PTX: ret;
K less(int *q, float a) { q[0] = a < 0.5; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry less(
// PTX-NOT: f64
// PTX: ret;
K equal(int *q, float a) { q[0] = a == 0.5; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already narrows this single operation back to float
// PTX-LABEL: .entry equal(
// PTX-NOT: f64
// PTX: ret;
// A branch of a conditional converted back to float: any literal.
K cond(float *p, float a, int c) { p[0] = c ? a : 0.1; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.1'
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: note: nvcc already converts this branch to float
// PTX-LABEL: .entry cond(
// PTX-NOT: f64
// PTX: ret;

// Not narrowed: inexact literals, chains, results that stay double.
K mulInexact(float *p, float a) { p[0] = a * 0.1; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.1'
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry mulInexact(
// PTX: mul.f64
// PTX: ret;
K addAssignInexact(float *p, float a) { a += 0.1; p[0] = a; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.1'
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry addAssignInexact(
// PTX: add.f64
// PTX: ret;
K lessInexact(int *q, float a) { q[0] = a < 0.1; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.1'
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry lessInexact(
// PTX: setp.lt.f64
// PTX: ret;
K chain(float *p, float a, float b) { p[0] = 0.5 * a * b; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry chain(
// PTX: mul.f64
// PTX: ret;
K mulAdd(float *p, float a, float b) { p[0] = a * 0.5 + b; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5'
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry mulAdd(
// PTX: f64
// PTX: ret;
K tiny(float *p, float a) { p[0] = a * 1e-50; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '1e-50'
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry tiny(
// PTX: mul.f64
// PTX: ret;
// Integer data made double by a literal and narrowed into a float: nvcc
// keeps the f64 arithmetic, whatever the integer's width.
K recipUnsigned(float *p, unsigned w) { p[0] = 1.0 / w; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '1.0' promotes integer data
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry recipUnsigned(
// PTX: rcp.rn.f64
// PTX: ret;
K halfInt(float *p, int n) { p[0] = 0.5 * n; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5' promotes integer data
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry halfInt(
// PTX: mul.f64
// PTX: ret;
K halfShort(float *p, short n) { p[0] = 0.5 * n; }
// NOTES: :[[@LINE-1]]:{{[0-9]+}}: warning: double-precision literal '0.5' promotes integer data
// NOTES-NOT: nvcc already
// PTX-LABEL: .entry halfShort(
// PTX: mul.f64
// PTX: ret;
// Every operand a constant: a float local assigned one literal, a float
// local initialised with one, `sqrt` of such values. nvcc folds the double
// computation, no f64 instruction is left, and nothing is reported.
K folded(float *p, const float *x) {
  float kbi, kib;
  kbi = 2.2;
  kib = kbi / 33.5e-3;
  float Ko = 5.4f;
  float g = 0.03 * sqrt(Ko / 5.4);
  p[0] = x[0] * kib + g;
}
// PTX-LABEL: .entry folded(
// PTX-NOT: f64
// PTX: ret;
// The same with one operand from memory: the f64 arithmetic stays.
K notFolded(float *p, const float *x) {
  float kbi = x[1];
  p[0] = x[0] * (kbi / 33.5e-3);
}
// NOTES: :[[@LINE-2]]:{{[0-9]+}}: warning: double-precision literal '33.5e-3' promotes float arithmetic to double
// PTX-LABEL: .entry notFolded(
// PTX: f64
// PTX: ret;
// NOTES-NOT: warning:
