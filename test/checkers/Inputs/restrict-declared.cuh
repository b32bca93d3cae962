// A kernel declared here and defined in cuda-missing-restrict-observed.cu:
// other translation units that include this header see its type.
__global__ void declaredInHeader(float *out, float *in, int n);
