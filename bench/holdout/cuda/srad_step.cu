// Rodinia's srad (speckle-reducing anisotropic diffusion), its two kernels
// folded into one: each pixel's four differences to its neighbours (edges
// clamped), the instantaneous coefficient of variation from them, the
// diffusion coefficient, and the diffused value, taking the pixel's own
// coefficient where srad's second kernel reads its neighbours'. Five loads
// from three rows, one store, a few divisions per element. Runs like myadd's
// MyAdd_2D variant (MyAdd_2D in kernels/myadd.cu, an N x N grid);
// unverified.
//
// The CUDA form of ../srad_step.cl, line for line.

// REAL follows the harness exactly as in the OpenCL form: double with
// -D WL_FP64 (which the harness passes where the device has doubles, in a CUDA
// run as in an OpenCL one), float without it.
#ifdef WL_FP64
#define REAL double
#else
#define REAL float
#endif

#define Q0_SQUARED ((REAL)0.05)
#define LAMBDA ((REAL)0.5)

extern "C" __global__ void srad_step(const REAL *A, const REAL *B, REAL *C, unsigned int N)
{
	size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x, i = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
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
