// What a CUDA kernel needs from CUDA's headers, spelled so that clang
// compiles it to LLVM IR the Oclgrind simulator runs (the tracer's
// runner/trace/cuda_oclgrind.c includes it before a kernel; clang runs with
// -nocudainc -nocudalib -fno-builtin, so nothing of NVIDIA's is read). The
// thread indices, barriers and math become calls to the OpenCL built-ins
// Oclgrind implements, by their mangled names; runner/trace/cuda_ir.cpp
// does the rest (address spaces, kernels). Atomics are a read and a write:
// Oclgrind runs a work-group's work-items one at a time, so no other
// work-item comes between them, and the trace sees the load and the store
// an atomic makes.
#ifndef WARPLAB_CUDA_OCLGRIND_H
#define WARPLAB_CUDA_OCLGRIND_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
// __constant__ memory as a __device__ variable: global memory, as an
// OpenCL __constant argument is traced.
#define __constant__ __attribute__((device))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __CUDACC__ 1
#define __CUDA_ARCH__ 700

#define WL_CL extern "C" __device__

// What NVRTC defines without a header.
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;

WL_CL unsigned long _Z12get_local_idj(unsigned);
WL_CL unsigned long _Z12get_group_idj(unsigned);
WL_CL unsigned long _Z14get_local_sizej(unsigned);
WL_CL unsigned long _Z14get_num_groupsj(unsigned);
WL_CL void _Z7barrierj(unsigned);
WL_CL void _Z9mem_fencej(unsigned);

struct uint3 {
	unsigned x, y, z;
};
struct dim3 {
	unsigned x, y, z;
	__host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};

// threadIdx.x and its kin read the work-item functions, as CUDA's own
// header reads the special registers.
#define WL_INDEX(type, fn)                                                                                    \
	struct type {                                                                                         \
		__device__ unsigned get_x() const { return (unsigned)fn(0); }                                 \
		__device__ unsigned get_y() const { return (unsigned)fn(1); }                                 \
		__device__ unsigned get_z() const { return (unsigned)fn(2); }                                 \
		__declspec(property(get = get_x)) unsigned x;                                                 \
		__declspec(property(get = get_y)) unsigned y;                                                 \
		__declspec(property(get = get_z)) unsigned z;                                                 \
		__device__ operator dim3() const { return dim3(get_x(), get_y(), get_z()); }                  \
		__device__ operator uint3() const { return uint3{ get_x(), get_y(), get_z() }; }              \
	}
WL_INDEX(wl_thread_idx, _Z12get_local_idj);
WL_INDEX(wl_block_idx, _Z12get_group_idj);
WL_INDEX(wl_block_dim, _Z14get_local_sizej);
WL_INDEX(wl_grid_dim, _Z14get_num_groupsj);
#undef WL_INDEX
extern const __device__ wl_thread_idx threadIdx;
extern const __device__ wl_block_idx blockIdx;
extern const __device__ wl_block_dim blockDim;
extern const __device__ wl_grid_dim gridDim;
#define warpSize 32

// clang knows these names as NVPTX built-ins: macros come before them.
// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE; one work-item at a time, a
// warp is always in step.
#define __syncthreads() _Z7barrierj(3)
#define __threadfence() _Z9mem_fencej(3)
#define __threadfence_block() _Z9mem_fencej(3)
#define __syncwarp(...) ((void)0)

// Vector types, laid out as CUDA's (vector_types.h).
#define WL_VEC2(name, t, a)                                                                                  \
	struct __attribute__((aligned(a))) name {                                                            \
		t x, y;                                                                                      \
	};                                                                                                   \
	static __device__ __forceinline__ name make_##name(t x, t y) { return name{ x, y }; }
#define WL_VEC4(name, t, a)                                                                                  \
	struct __attribute__((aligned(a))) name {                                                            \
		t x, y, z, w;                                                                                \
	};                                                                                                   \
	static __device__ __forceinline__ name make_##name(t x, t y, t z, t w) { return name{ x, y, z, w }; }
WL_VEC2(float2, float, 8)
WL_VEC4(float4, float, 16)
WL_VEC2(int2, int, 8)
WL_VEC4(int4, int, 16)
WL_VEC2(uint2, unsigned, 8)
WL_VEC4(uint4, unsigned, 16)
WL_VEC2(double2, double, 16)
struct float3 {
	float x, y, z;
};
static __device__ __forceinline__ float3 make_float3(float x, float y, float z) { return float3{ x, y, z }; }
#undef WL_VEC2
#undef WL_VEC4

// Math, as OpenCL's built-ins.
#define WL_MATH1(cuda, cl, t)                                                                                \
	WL_CL t cl(t);                                                                                       \
	static __device__ __forceinline__ t cuda(t a) { return cl(a); }
#define WL_MATH2(cuda, cl, t)                                                                                \
	WL_CL t cl(t, t);                                                                                    \
	static __device__ __forceinline__ t cuda(t a, t b) { return cl(a, b); }
WL_MATH1(sqrtf, _Z4sqrtf, float)
WL_MATH1(rsqrtf, _Z5rsqrtf, float)
WL_MATH1(expf, _Z3expf, float)
WL_MATH1(__expf, _Z3expf, float)
WL_MATH1(exp2f, _Z4exp2f, float)
WL_MATH1(logf, _Z3logf, float)
WL_MATH1(__logf, _Z3logf, float)
WL_MATH1(log2f, _Z4log2f, float)
WL_MATH1(sinf, _Z3sinf, float)
WL_MATH1(__sinf, _Z3sinf, float)
WL_MATH1(cosf, _Z3cosf, float)
WL_MATH1(__cosf, _Z3cosf, float)
WL_MATH1(tanhf, _Z4tanhf, float)
WL_MATH1(fabsf, _Z4fabsf, float)
WL_MATH1(floorf, _Z5floorf, float)
WL_MATH1(ceilf, _Z4ceilf, float)
WL_MATH1(truncf, _Z5truncf, float)
WL_MATH1(roundf, _Z5roundf, float)
WL_MATH2(fminf, _Z4fminff, float)
WL_MATH2(fmaxf, _Z4fmaxff, float)
WL_MATH2(powf, _Z3powff, float)
WL_MATH2(__powf, _Z3powff, float)
WL_MATH2(fmodf, _Z4fmodff, float)
WL_MATH1(sqrt, _Z4sqrtd, double)
WL_MATH1(exp, _Z3expd, double)
WL_MATH1(log, _Z3logd, double)
WL_MATH1(fabs, _Z4fabsd, double)
WL_MATH1(floor, _Z5floord, double)
WL_MATH2(fmin, _Z4fmindd, double)
WL_MATH2(fmax, _Z4fmaxdd, double)
WL_MATH2(pow, _Z3powdd, double)
#undef WL_MATH1
#undef WL_MATH2
WL_CL float _Z3fmafff(float, float, float);
WL_CL double _Z3fmaddd(double, double, double);
static __device__ __forceinline__ float fmaf(float a, float b, float c) { return _Z3fmafff(a, b, c); }
static __device__ __forceinline__ double fma(double a, double b, double c) { return _Z3fmaddd(a, b, c); }
static __device__ __forceinline__ float __fdividef(float a, float b) { return a / b; }
static __device__ __forceinline__ float __int_as_float(int i) { return __builtin_bit_cast(float, i); }
static __device__ __forceinline__ int __float_as_int(float f) { return __builtin_bit_cast(int, f); }
static __device__ __forceinline__ unsigned __float_as_uint(float f) { return __builtin_bit_cast(unsigned, f); }
static __device__ __forceinline__ float __uint_as_float(unsigned u) { return __builtin_bit_cast(float, u); }

#define WL_MINMAX(t)                                                                                         \
	static __device__ __forceinline__ t min(t a, t b) { return a < b ? a : b; }                         \
	static __device__ __forceinline__ t max(t a, t b) { return a > b ? a : b; }
WL_MINMAX(int)
WL_MINMAX(unsigned)
WL_MINMAX(long long)
WL_MINMAX(unsigned long long)
WL_MINMAX(float)
WL_MINMAX(double)
#undef WL_MINMAX
static __device__ __forceinline__ int abs(int a) { return a < 0 ? -a : a; }

// A read through the read-only cache is a read.
template <typename T> static __device__ __forceinline__ T __ldg(const T *p) { return *p; }

// Atomics: a read and a write (see the top of this file).
#define WL_ATOMIC(name, t, expr)                                                                             \
	static __device__ __forceinline__ t name(t *p, t v)                                                 \
	{                                                                                                    \
		t old = *p;                                                                                  \
		*p = (expr);                                                                                 \
		return old;                                                                                  \
	}
#define WL_ATOMICS(t)                                                                                        \
	WL_ATOMIC(atomicAdd, t, old + v)                                                                     \
	WL_ATOMIC(atomicSub, t, old - v)                                                                     \
	WL_ATOMIC(atomicExch, t, v)                                                                          \
	WL_ATOMIC(atomicMin, t, v < old ? v : old)                                                           \
	WL_ATOMIC(atomicMax, t, v > old ? v : old)
WL_ATOMICS(int)
WL_ATOMICS(unsigned)
WL_ATOMICS(unsigned long long)
WL_ATOMIC(atomicAdd, float, old + v)
WL_ATOMIC(atomicAdd, double, old + v)
WL_ATOMIC(atomicAnd, int, old & v)
WL_ATOMIC(atomicOr, int, old | v)
WL_ATOMIC(atomicXor, int, old ^ v)
WL_ATOMIC(atomicAnd, unsigned, old & v)
WL_ATOMIC(atomicOr, unsigned, old | v)
WL_ATOMIC(atomicXor, unsigned, old ^ v)
#undef WL_ATOMICS
#undef WL_ATOMIC
static __device__ __forceinline__ int atomicCAS(int *p, int cmp, int v)
{
	int old = *p;
	*p = old == cmp ? v : old;
	return old;
}
static __device__ __forceinline__ unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v)
{
	unsigned old = *p;
	*p = old == cmp ? v : old;
	return old;
}

// Warp-level functions exchange values between work-items that Oclgrind
// runs one after another: declared so that a kernel using them compiles,
// and named by warplab-cuda-ir, which refuses them.
#define WL_WARP(t, name, ...) WL_CL t __wl_unsupported_##name(__VA_ARGS__);
WL_WARP(float, __shfl_sync, unsigned, float, int, int)
WL_WARP(float, __shfl_up_sync, unsigned, float, unsigned, int)
WL_WARP(float, __shfl_down_sync, unsigned, float, unsigned, int)
WL_WARP(float, __shfl_xor_sync, unsigned, float, int, int)
WL_WARP(unsigned, __ballot_sync, unsigned, int)
WL_WARP(int, __any_sync, unsigned, int)
WL_WARP(int, __all_sync, unsigned, int)
WL_WARP(unsigned, __activemask, void)
#undef WL_WARP
#define __shfl_sync(m, v, l, ...) __wl_unsupported___shfl_sync(m, v, l, 32)
#define __shfl_up_sync(m, v, d, ...) __wl_unsupported___shfl_up_sync(m, v, d, 32)
#define __shfl_down_sync(m, v, d, ...) __wl_unsupported___shfl_down_sync(m, v, d, 32)
#define __shfl_xor_sync(m, v, l, ...) __wl_unsupported___shfl_xor_sync(m, v, l, 32)
#define __ballot_sync(m, p) __wl_unsupported___ballot_sync(m, p)
#define __any_sync(m, p) __wl_unsupported___any_sync(m, p)
#define __all_sync(m, p) __wl_unsupported___all_sync(m, p)
#define __activemask() __wl_unsupported___activemask()

#undef WL_CL
#endif
