// After Rodinia's srad (speckle-reducing anisotropic diffusion), its two
// kernels folded into one: each pixel's four differences to its neighbours
// (edges clamped), the instantaneous coefficient of variation from them, the
// diffusion coefficient, and the diffused value — using the pixel's own
// coefficient where srad's second kernel reads its neighbours'. Access: five
// loads from three rows, one store, a few divisions per element. Runs like
// myadd's MyAdd_2D variant (global N x N); unverified.

#ifdef WL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif

#define Q0_SQUARED ((REAL)0.05)
#define LAMBDA ((REAL)0.5)

__kernel void srad_step(const REAL __global *A, const REAL __global *B, REAL __global *C, unsigned int N)
{
	size_t j = get_global_id(0), i = get_global_id(1);
	size_t w = j > 0 ? j - 1 : 0, e = j + 1 < N ? j + 1 : N - 1;
	size_t n = i > 0 ? i - 1 : 0, s = i + 1 < N ? i + 1 : N - 1;
	REAL jc = A[i * N + j];
	REAL dn = A[n * N + j] - jc, ds = A[s * N + j] - jc;
	REAL dw = A[i * N + w] - jc, de = A[i * N + e] - jc;
	REAL inv = 1 / (jc * jc + (REAL)1e-12);
	REAL g2 = (dn * dn + ds * ds + dw * dw + de * de) * inv;
	REAL l = (dn + ds + dw + de) / (jc + (REAL)1e-6);
	REAL num = (REAL)0.5 * g2 - (REAL)0.0625 * l * l;
	REAL den = 1 + (REAL)0.25 * l;
	REAL q2 = num / (den * den + (REAL)1e-12);
	REAL c = 1 / (1 + (q2 - Q0_SQUARED) / (Q0_SQUARED * (1 + Q0_SQUARED)));

	c = c < 0 ? 0 : (c > 1 ? 1 : c);
	C[i * N + j] = jc + (REAL)0.25 * LAMBDA * c * (dn + ds + dw + de);
}
