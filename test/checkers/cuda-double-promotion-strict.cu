// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.StrictNumerics: true, cuda-double-promotion.ReportNarrowed: true, cuda-double-promotion.FunctionGroupMin: 0}}" --min-impact=low

// With StrictNumerics, a fix is made only where the fixed code computes the
// same values as the original: a single operation (compound assignment and
// comparison included) of float data and a literal exactly representable in
// float, its result straight back to float, which nvcc narrows to float
// anyway; a branch of a conditional converted straight back to float; a math
// function whose float form returns the double result rounded to float.
// (FunctionGroupMin: 0: each finding on its own, as this file tests them.)

__device__ float strict(float v, bool c) {
  float a = v * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float a = v * 0.5f;{{$}}
  a += 0.25;
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: double-precision literal '0.25'
  // CHECK-FIXES: {{^}}  a += 0.25f;{{$}}
  a /= 3.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: double-precision literal '3.0'
  // CHECK-FIXES: {{^}}  a /= 3.0f;{{$}}
  if (a < -2.0)
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: double-precision literal '2.0'
    // CHECK-FIXES: {{^}}  if (a < -2.0f){{$}}
    a = 0;
  // Inexact literals change values.
  float b = v * 0.1;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: double-precision literal '0.1'
  // CHECK-NOTES: :[[@LINE-2]]:17: note: '0.1' is not exactly representable in float; '0.1f' differs by a relative 1.5e-08, which can change the last bits of results
  // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the value is not exactly representable in float and StrictNumerics is on
  // CHECK-FIXES: {{^}}  float b = v * 0.1;{{$}}
  // Chains stay in double in nvcc: the float arithmetic rounds differently.
  float e = 0.5 * v * b + v * 0x1p-3;
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: double-precision literal '0.5'
  // CHECK-NOTES: :[[@LINE-2]]:13: note: no automatic fix: StrictNumerics is on, and float arithmetic can round differently here from double arithmetic
  // CHECK-NOTES: :[[@LINE-3]]:31: warning: double-precision literal '0x1p-3'
  // CHECK-NOTES: :[[@LINE-4]]:31: note: no automatic fix: StrictNumerics is on, and float arithmetic can round differently here from double arithmetic
  // CHECK-FIXES: {{^}}  float e = 0.5 * v * b + v * 0x1p-3;{{$}}
  // A conditional converted back to float: the same value, inexact or not.
  float f = c ? v : 0.1;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: double-precision literal '0.1'
  // CHECK-NOTES: :[[@LINE-2]]:21: note: nvcc already converts this branch to float; the suffix makes that explicit
  // CHECK-FIXES: {{^}}  float f = c ? v : 0.1f;{{$}}
  return a + b + e + f;
}

// powf is not pow rounded to float; fmodf is fmod rounded to float.
__device__ float strictMath(float v) {
  float c = powf(v, 2.0f) + pow(v, 2.0);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: call to 'pow' computes float data in double precision; use the float function 'powf'
  // CHECK-NOTES: :[[@LINE-2]]:29: note: no automatic fix: StrictNumerics is on, and 'powf' need not return the value of 'pow' rounded to float
  // CHECK-FIXES: {{^}}  float c = powf(v, 2.0f) + pow(v, 2.0);{{$}}
  float d = fmod(v, 2.0) + floor(v * 0.5);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: call to 'fmod' computes float data in double precision; use the float function 'fmodf'
  // CHECK-NOTES: :[[@LINE-2]]:28: warning: call to 'floor' computes float data in double precision; use the float function 'floorf'
  // CHECK-NOTES: :[[@LINE-3]]:28: note: no automatic fix: an argument is neither float data nor a literal, and the float function would narrow it
  // CHECK-NOTES: :[[@LINE-4]]:38: warning: double-precision literal '0.5'
  // CHECK-NOTES: :[[@LINE-5]]:38: note: no automatic fix: StrictNumerics is on, and float arithmetic can round differently here from double arithmetic
  // CHECK-FIXES: {{^}}  float d = fmodf(v, 2.0f) + floor(v * 0.5);{{$}}
  float g = copysign(v, -0.1);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: call to 'copysign'
  // CHECK-NOTES: :[[@LINE-2]]:26: note: '0.1' is not exactly representable in float
  // CHECK-NOTES: :[[@LINE-3]]:13: note: no automatic fix: a literal argument is not exactly representable in float and StrictNumerics is on
  // CHECK-FIXES: {{^}}  float g = copysign(v, -0.1);{{$}}
  return c + d + g;
}
