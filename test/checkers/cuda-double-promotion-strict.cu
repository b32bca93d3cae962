// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.StrictNumerics: true}}"

// With StrictNumerics, only literals that are exactly representable in float
// are rewritten: the fixed code then computes exactly what nvcc would have
// computed had it kept the operation in double and narrowed the result.

__device__ float strict(float v) {
  float a = v * 0.5 + v * 0.1;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float a = v * 0.5f + v * 0.1;{{$}}
  float b = v * 1e-3 + v * 0x1p-3;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: double-precision literal '1e-3'
  // CHECK-NOTES: :[[@LINE-2]]:17: note: '1e-3' is not exactly representable in float
  // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the value is not exactly representable in float and StrictNumerics is on
  // CHECK-NOTES: :[[@LINE-4]]:28: warning: double-precision literal '0x1p-3'
  // CHECK-FIXES: {{^}}  float b = v * 1e-3 + v * 0x1p-3f;{{$}}
  float c = powf(v, 2.0f) + pow(v, 0.1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: call to 'pow' computes float data in double precision; use the float function 'powf'
  // CHECK-FIXES: {{^}}  float c = powf(v, 2.0f) + pow(v, 0.1);{{$}}
  return a + b + c;
}
