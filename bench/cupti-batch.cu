// bench/cupti-batch.cu: what a profile of the runner's counters costs, one
// launch per session (kernel replay, as the runner did) against one session
// of n launches with a range each (user replay), with and without an
// unprofiled warm-up launch before each (issue 35). Built
// here with the runner's own cupti_counters.c and run on the GPU machine:
//   bench/cupti-batch.sh   (builds build/cupti-batch; run it there)
// Prints ms per profiled launch for each way and n, and whether each way's
// counts agree with the one-at-a-time profile of the same kernel (a NaN, a
// range the profiler did not keep, counts as a difference).
#include <cuda.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
extern "C" {
#include "cupti_counters.h"
}

__global__ void copy(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i];
}

__global__ void strided(const float *in, float *out, int n, int s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[(long long)i * s % n];
}

struct job {
	const float *in;
	float *out;
	int n;
};

static int launch(void *arg, size_t i)
{
	const struct job *j = (const struct job *)arg;
	int blocks = (j->n + 255) / 256;

	if (i % 2 == 0)
		copy<<<blocks, 256>>>(j->in, j->out, j->n);
	else
		strided<<<blocks, 256>>>(j->in, j->out, j->n, (int)(i % 33));
	/* CUPTI_BATCH_NOSYNC=1: the launch is left queued (the range's end
	 * then orders it), to see what the waits cost. */
	if (getenv("CUPTI_BATCH_NOSYNC"))
		return cudaGetLastError() == cudaSuccess ? 0 : -1;
	return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct single {
	const struct job *j;
	size_t i;
};

static int launch_single(void *arg)
{
	const struct single *s = (const struct single *)arg;

	return launch((void *)s->j, s->i);
}

// The largest relative difference between two profiles' counts other than
// the L2 hit rate and DRAM bytes (which depend on what the cache held).
static double worst(const double *a, const double *b)
{
	double w = 0;

	for (int k = 0; k < WL_CTR_DRAM_READ_BYTES; k++) {
		double d = isnan(a[k]) || isnan(b[k]) ? INFINITY : fabs(a[k] - b[k]) / (fabs(a[k]) > 1 ? fabs(a[k]) : 1);
		if (d > w)
			w = d;
	}
	return w;
}

int main(void)
{
	static const char *const modes[] = { "each", "each+warm" };
	static const size_t counts[] = { 1, 8, 16, 64 };
	static const int sizes[] = { 1 << 12, 1 << 24 };
	CUcontext ctx;
	char why[300];

	struct wl_counters *c;

	cudaFree(0);
	cuCtxGetCurrent(&ctx);
	if (wl_counters_open(NULL, ctx, 0, &c, why, sizeof(why)) < 0) {
		printf("open: %s\n", why);
		return 1;
	}
	for (int m = 0; m < 2; m++) {
		for (int z = 0; z < 2; z++) {
			struct job j = { NULL, NULL, sizes[z] };
			double ref[64][WL_COUNTERS], *v = (double *)malloc(64 * WL_COUNTERS * sizeof(double));

			cudaMalloc((void **)&j.in, sizeof(float) * j.n);
			cudaMalloc((void **)&j.out, sizeof(float) * j.n);
			launch(&j, 0);
			double t0 = now_ms();
			for (size_t i = 0; i < 64; i++) {
				struct single s = { &j, i };

				if (wl_counters_profile(c, launch_single, &s, ref[i], why, sizeof(why)) < 0) {
					printf("%s single: %s\n", modes[m], why);
					return 1;
				}
			}
			printf("%-9s n=%-9d one per session      : %7.2f ms per launch\n", "single", j.n,
			       (now_ms() - t0) / 64);
			for (int k = 0; k < 4; k++) {
				double t = now_ms(), w = 0;

				for (size_t at = 0; at < 64; at += counts[k]) {
					if (wl_counters_profile_each(c, counts[k], m ? launch : NULL, launch, &j, v, why,
								     sizeof(why)) < 0) {
						printf("%s each %zu: %s\n", modes[m], counts[k], why);
						return 1;
					}
					for (size_t i = 0; i < counts[k]; i++) {
						double d = worst(ref[i], v + i * WL_COUNTERS);
						w = d > w ? d : w;
					}
				}
				printf("%-9s n=%-9d %2zu launches a session: %7.2f ms per launch, counts differ by %.4f%%"
				       " (dram read %.0f vs %.0f, l2 hit %.1f vs %.1f)\n",
				       modes[m], j.n, counts[k], (now_ms() - t) / 64, 100 * w, ref[0][WL_CTR_DRAM_READ_BYTES],
				       v[WL_CTR_DRAM_READ_BYTES], ref[0][WL_CTR_L2_HIT_PCT], v[WL_CTR_L2_HIT_PCT]);
			}
			cudaFree((void *)j.in);
			cudaFree(j.out);
			free(v);
		}
	}
	wl_counters_close(c);
	return 0;
}
