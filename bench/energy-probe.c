/* energy-probe: how well NVML's total-energy counter can price a kernel, the
 * groundwork for "energy per useful byte". Standalone: NVML and the CUDA
 * driver are opened with dlopen (no CUDA or NVML header or library at build
 * time), the kernel is hand-written PTX loaded with cuModuleLoadData (no NVRTC).
 *
 *   resolution  the counter read back to back for 2 s while 256 MiB float4
 *               copies run: its smallest step, the gcd of its steps (its unit),
 *               the time between changes (its update period), one read's cost
 *   idle        energy over >= 3 s between two ticks of the counter, at rest,
 *               beside nvmlDeviceGetPowerUsage's mean; again at the end (drift)
 *   bursts      back-to-back copies for 25..400 ms, 7 repetitions: the energy
 *               each launch costs, gross and above idle, in J and pJ per byte
 *
 * Why bursts are measured between ticks: the counter changes only every update
 * period (~100 ms), so a read just before and just after a burst is off by up
 * to a period of power at each end. Instead each repetition polls until the
 * counter changes (tick t0, value e0), waits a delay, runs the burst, then
 * polls until the next change (t1, e1) and the one after (t2, e2). The window
 * [t0, t1] holds the whole burst; the rest of it was idle, so
 *     burst energy = (e1 - e0) - idle W x ((t1 - t0) - burst's GPU time).
 * The delay steps through the update period over the repetitions (0, 1/7,
 * .. 6/7 of it): were the counter to integrate power only part of each period
 * (published for A100/H100 power readings: 25% of it), a burst started always
 * at a tick would be priced always at the same phase, wrong but steady; stepped,
 * the spread shows it and the mean averages it out. The value at the second
 * tick (e2) is reported beside it: if the counter lags the power it sums, or
 * the card draws more than idle just after work, the two disagree.
 * A line fitted over the five bursts (energy against launches) gives the
 * marginal J per launch, free of any fixed cost per burst (clock ramp, tail).
 *
 * Build and run (bench/energy-probe.sh does both, on the lent GPU too):
 *   cc -std=c11 -O2 -Wall -Wextra -o /tmp/energy-probe bench/energy-probe.c -ldl
 *   /tmp/energy-probe
 * stdout: "key value" lines as each part runs, then a summary, each line of
 * it after "# ". Exit status: 0 done; 2 NVML or the CUDA driver missing, no
 * GPU, or the counter not supported; 1 a failure while measuring (a CUDA
 * error, a wrong copy, a counter that stops changing). The whole run takes
 * about 30 s (timed against a simulated GPU; no H100 run yet). It changes no
 * clock, power limit or mode of the GPU. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COPY_BYTES ((size_t)256 << 20)	/* each of input and output */
#define GROUP 256			/* threads per block */
#define REPS 7				/* repetitions per burst target */
#define NTARGETS 5
static const int TARGET_MS[NTARGETS] = { 25, 50, 100, 200, 400 };

/* The CUDA driver API's few types, as cuda.h declares them. */
typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUevent, *CUstream;
typedef unsigned long long CUdeviceptr;
#define CUDA_ERROR_NOT_READY 600

/* NVML's, as nvml.h does: opaque handles, int return codes (0 success). */
typedef void *nvmlDevice_t;
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_CLOCK_SM 1

static struct {
	CUresult (*Init)(unsigned);
	CUresult (*DeviceGet)(CUdevice *, int);
	CUresult (*DeviceGetName)(char *, int, CUdevice);
	CUresult (*DeviceGetPCIBusId)(char *, int, CUdevice);
	CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*CtxSetCurrent)(CUcontext);
	CUresult (*CtxSynchronize)(void);
	CUresult (*ModuleLoadData)(CUmodule *, const void *);
	CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*MemAlloc)(CUdeviceptr *, size_t);
	CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
	CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
	CUresult (*MemsetD32)(CUdeviceptr, unsigned, size_t);
	CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
				 unsigned, unsigned, CUstream, void **, void **);
	CUresult (*EventCreate)(CUevent *, unsigned);
	CUresult (*EventRecord)(CUevent, CUstream);
	CUresult (*EventQuery)(CUevent);
	CUresult (*EventSynchronize)(CUevent);
	CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
	CUresult (*GetErrorString)(CUresult, const char **);
} cu;

static struct {
	int (*Init)(void);
	int (*Shutdown)(void);
	int (*ByIndex)(unsigned, nvmlDevice_t *);
	int (*ByPci)(const char *, nvmlDevice_t *);	/* optional: index 0 else */
	int (*Energy)(nvmlDevice_t, unsigned long long *);	/* mJ since driver load */
	int (*Power)(nvmlDevice_t, unsigned *);		/* mW */
	int (*Reasons)(nvmlDevice_t, unsigned long long *);
	int (*Clock)(nvmlDevice_t, int, unsigned *);	/* MHz */
	const char *(*ErrorString)(int);
} nv;

/* A 16-byte copy per thread, out[i] = in[i] for i < n (float4s moved as
 * their bits, so any pattern survives). PTX ISA 7.0 for sm_70: any driver
 * since CUDA 11 compiles it for the GPU it finds (ptxas -arch=sm_90 checks it). */
static const char COPY_PTX[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry copy4(.param .u64 p_out, .param .u64 p_in, .param .u64 p_n)\n{\n"
	"	.reg .pred %p;\n	.reg .b32 %r<7>;\n	.reg .b64 %rd<5>;\n"
	"	ld.param.u64 %rd0, [p_out];\n	ld.param.u64 %rd1, [p_in];\n	ld.param.u64 %rd2, [p_n];\n"
	"	mov.u32 %r0, %ctaid.x;\n	mov.u32 %r1, %ntid.x;\n	mov.u32 %r2, %tid.x;\n"
	"	mul.wide.u32 %rd3, %r0, %r1;\n	cvt.u64.u32 %rd4, %r2;\n	add.u64 %rd3, %rd3, %rd4;\n"
	"	setp.ge.u64 %p, %rd3, %rd2;\n	@%p bra done;\n	shl.b64 %rd3, %rd3, 4;\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n	add.u64 %rd1, %rd1, %rd3;\n"
	"	ld.global.nc.v4.u32 {%r3, %r4, %r5, %r6}, [%rd1];\n"
	"	cvta.to.global.u64 %rd0, %rd0;\n	add.u64 %rd0, %rd0, %rd3;\n"
	"	st.global.v4.u32 [%rd0], {%r3, %r4, %r5, %r6};\ndone:\n	ret;\n}\n";

static nvmlDevice_t dev;
static CUfunction copy_fn;
static CUdeviceptr din, dout;
static unsigned long long n4 = COPY_BYTES / 16;
static double idle_w;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

/* Says why on stderr and exits with status (2: nothing to measure with). */
static _Noreturn void die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("energy-probe: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(status);
}

#define CU(call) check_cu(#call, (call))
static void check_cu(const char *what, CUresult r)
{
	const char *s = "unknown error";
	if (r && (cu.GetErrorString(r, &s), 1))
		die(1, "%s failed: %s (%d)", what, s, r);
}

/* The counter, in mJ; stopping here on an error keeps every caller simple. */
static unsigned long long energy_mj(void)
{
	unsigned long long mj;
	int r = nv.Energy(dev, &mj);
	if (r)
		die(1, "nvmlDeviceGetTotalEnergyConsumption: %s (%d)", nv.ErrorString(r), r);
	return mj;
}

/* Polls until the counter changes: returns the new value, *when the time it
 * was seen (late by at most one read). A counter still for 2 s is broken. */
static unsigned long long wait_tick(double *when)
{
	unsigned long long v0 = energy_mj(), v;
	double start = now_s();
	while ((v = energy_mj()) == v0)
		if (now_s() - start > 2.0)
			die(1, "the energy counter did not change for 2 s");
	*when = now_s();
	return v;
}

static void launch(void)
{
	void *args[] = { &dout, &din, &n4 };
	CU(cu.LaunchKernel(copy_fn, (unsigned)(n4 / GROUP), 1, 1, GROUP, 1, 1, 0, NULL, args, NULL));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Sorts v in place. */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* dlopen by name, else from where the lent GPU machines keep NVIDIA's
 * libraries (should the loader's path not name it); why, into why. */
static void *open_lib(const char *name, char *why, size_t why_len)
{
	char path[128];
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	const char *err;

	if (h)
		return h;
	snprintf(why, why_len, "%s", (err = dlerror()) ? err : "not found");
	snprintf(path, sizeof(path), "/usr/local/nvidia/lib64/%s", name);
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* Fills each empty slot from lib; returns the first required name missing. */
struct sym { const char *name; void **slot; };
static const char *bind(void *lib, const struct sym *s, int n)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(s[i].name);
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)(len - (s[i].name[len - 1] == '?')), s[i].name);
		if (!*s[i].slot)	/* else an alternative filled it */
			*s[i].slot = dlsym(lib, name);
		if (!*s[i].slot && s[i].name[len - 1] != '?')
			return s[i].name;
	}
	return NULL;
}

/* Opens both libraries, the device, the counter; exit 2 where any is missing. */
static void open_all(char *name, size_t name_len)
{
#define S(name, field) { #name, (void **)&field }
	const struct sym cus[] = {
		S(cuInit, cu.Init), S(cuDeviceGet, cu.DeviceGet), S(cuDeviceGetName, cu.DeviceGetName),
		S(cuDeviceGetPCIBusId, cu.DeviceGetPCIBusId), S(cuDevicePrimaryCtxRetain, cu.PrimaryCtxRetain),
		S(cuCtxSetCurrent, cu.CtxSetCurrent), S(cuCtxSynchronize, cu.CtxSynchronize),
		S(cuModuleLoadData, cu.ModuleLoadData), S(cuModuleGetFunction, cu.ModuleGetFunction),
		S(cuMemAlloc_v2, cu.MemAlloc), S(cuMemcpyHtoD_v2, cu.MemcpyHtoD), S(cuMemcpyDtoH_v2, cu.MemcpyDtoH),
		S(cuMemsetD32_v2, cu.MemsetD32), S(cuLaunchKernel, cu.LaunchKernel), S(cuEventCreate, cu.EventCreate),
		S(cuEventRecord, cu.EventRecord), S(cuEventQuery, cu.EventQuery),
		S(cuEventSynchronize, cu.EventSynchronize), S(cuEventElapsedTime, cu.EventElapsedTime),
		S(cuGetErrorString, cu.GetErrorString),
	};
	/* Optional names end in '?'. The reasons' function was renamed in
	 * CUDA 12.2's NVML; the old name serves older drivers. */
	const struct sym nvs[] = {
		S(nvmlInit_v2, nv.Init), S(nvmlShutdown, nv.Shutdown), S(nvmlErrorString, nv.ErrorString),
		S(nvmlDeviceGetHandleByIndex_v2, nv.ByIndex), { "nvmlDeviceGetHandleByPciBusId_v2?", (void **)&nv.ByPci },
		S(nvmlDeviceGetTotalEnergyConsumption, nv.Energy), S(nvmlDeviceGetPowerUsage, nv.Power),
		{ "nvmlDeviceGetCurrentClocksEventReasons?", (void **)&nv.Reasons },
		S(nvmlDeviceGetCurrentClocksThrottleReasons, nv.Reasons), S(nvmlDeviceGetClockInfo, nv.Clock),
	};
#undef S
	char why_cu[256], why_nv[256];
	void *lcu = open_lib("libcuda.so.1", why_cu, sizeof(why_cu));
	void *lnv = open_lib("libnvidia-ml.so.1", why_nv, sizeof(why_nv));
	const char *miss;
	char pci[32];
	CUdevice d;
	CUcontext ctx;
	int bad = 0, r;

	/* Both checked before stopping, so one run names everything missing. */
	if (!lcu) {
		fprintf(stderr, "energy-probe: the CUDA driver (libcuda.so.1) is missing: %s\n", why_cu);
		bad = 1;
	} else if ((miss = bind(lcu, cus, sizeof(cus) / sizeof(cus[0])))) {
		fprintf(stderr, "energy-probe: the CUDA driver lacks %s\n", miss);
		bad = 1;
	}
	if (!lnv) {
		fprintf(stderr, "energy-probe: NVML (libnvidia-ml.so.1) is missing: %s\n", why_nv);
		bad = 1;
	} else if ((miss = bind(lnv, nvs, sizeof(nvs) / sizeof(nvs[0])))) {
		fprintf(stderr, "energy-probe: NVML lacks %s\n", miss);
		bad = 1;
	}
	if (bad)
		exit(2);
	if ((r = cu.Init(0)) || (r = cu.DeviceGet(&d, 0)))
		die(2, "no CUDA device (cuInit/cuDeviceGet: %d)", r);
	CU(cu.DeviceGetName(name, (int)name_len, d));
	CU(cu.DeviceGetPCIBusId(pci, sizeof(pci), d));
	if ((r = nv.Init()))
		die(2, "nvmlInit_v2: %s (%d)", nv.ErrorString(r), r);
	/* By PCI address: NVML's order need not be CUDA's. */
	if (!(nv.ByPci && nv.ByPci(pci, &dev) == 0) && (r = nv.ByIndex(0, &dev)))
		die(2, "NVML does not know the GPU at %s: %s", pci, nv.ErrorString(r));
	if ((r = nv.Energy(dev, &(unsigned long long){ 0 })))
		die(2, "the total-energy counter is %s on %s (%d)",
		    r == NVML_ERROR_NOT_SUPPORTED ? "not supported" : nv.ErrorString(r), name, r);
	CU(cu.PrimaryCtxRetain(&ctx, d));
	CU(cu.CtxSetCurrent(ctx));
}

/* Random input (zeros could move cheaper bits), poisoned output, one copy
 * checked word for word: the kernel measured is one that works. */
static void setup_copy(void)
{
	CUmodule mod;
	uint64_t *host = malloc(COPY_BYTES), *back = malloc(COPY_BYTES), x = 0x9e3779b97f4a7c15ULL;

	if (!host || !back)
		die(1, "out of host memory");
	for (size_t i = 0; i < COPY_BYTES / 8; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		host[i] = x;
	}
	CU(cu.ModuleLoadData(&mod, COPY_PTX));
	CU(cu.ModuleGetFunction(&copy_fn, mod, "copy4"));
	CU(cu.MemAlloc(&din, COPY_BYTES));
	CU(cu.MemAlloc(&dout, COPY_BYTES));
	CU(cu.MemcpyHtoD(din, host, COPY_BYTES));
	CU(cu.MemsetD32(dout, 0xffffffffu, COPY_BYTES / 4));
	launch();
	CU(cu.CtxSynchronize());
	CU(cu.MemcpyDtoH(back, dout, COPY_BYTES));
	if (memcmp(host, back, COPY_BYTES))
		die(1, "the copy kernel's output differs from its input");
	free(host);
	free(back);
}

/* One launch's GPU time (s): the median of 9, each between two events. */
static double launch_time(void)
{
	CUevent a, b;
	double t[9];
	float ms;

	CU(cu.EventCreate(&a, 0));
	CU(cu.EventCreate(&b, 0));
	for (int i = 0; i < 9; i++) {
		CU(cu.EventRecord(a, NULL));
		launch();
		CU(cu.EventRecord(b, NULL));
		CU(cu.EventSynchronize(b));
		CU(cu.EventElapsedTime(&ms, a, b));
		t[i] = ms / 1e3;
	}
	return median(t, 9);
}

/* Power at rest: settle 2 s, then energy between a tick and the first tick
 * >= 3 s later, over that time; NVML's power reading averaged beside it. */
static double idle(const char *key)
{
	double t0, t1, sum = 0;
	unsigned long long e0, e1;
	unsigned mw;
	int n = 0;

	sleep_s(2.0);
	e0 = wait_tick(&t0);
	while (now_s() - t0 < 3.0) {
		if (nv.Power(dev, &mw) == 0)
			sum += mw / 1e3, n++;
		sleep_s(0.01);
	}
	e1 = wait_tick(&t1);
	double w = (e1 - e0) / 1e3 / (t1 - t0);
	printf("%s_w %.2f\n%s_power_usage_w %.2f\n%s_window_s %.3f\n", key, w, key, n ? sum / n : 0, key, t1 - t0);
	return w;
}

/* The counter read back to back for 2 s while copies run, kept queued two
 * batches deep so the GPU never idles; returns the median update period (s). */
static double resolution(void)
{
	enum { MAXCH = 4096, BATCH = 32 };
	static double when[MAXCH], step[MAXCH], gap[MAXCH];
	unsigned long long last, e, g = 0;
	CUevent ev[2];
	int nch = 0, cur = 0;
	long calls = 0;
	CUresult q;

	double t = now_s();
	for (int i = 0; i < 2000; i++)
		energy_mj();
	printf("counter_call_us %.2f\n", (now_s() - t) / 2000 * 1e6);

	for (int i = 0; i < 2; i++) {
		CU(cu.EventCreate(&ev[i], 0));
		for (int k = 0; k < BATCH; k++)
			launch();
		CU(cu.EventRecord(ev[i], NULL));
	}
	last = energy_mj();
	for (double end = now_s() + 2.0; (t = now_s()) < end; calls++) {
		if ((e = energy_mj()) != last && nch < MAXCH) {
			when[nch] = t, step[nch] = (double)(e - last);
			/* Euclid: the counter's unit is the gcd of its steps. */
			for (unsigned long long a = e - last, r; a; g = a, a = r)
				r = g % a;
			nch++, last = e;
		}
		if ((q = cu.EventQuery(ev[cur])) == 0) {
			for (int k = 0; k < BATCH; k++)
				launch();
			CU(cu.EventRecord(ev[cur], NULL));
			cur ^= 1;
		} else if (q != CUDA_ERROR_NOT_READY)
			CU(q);
	}
	CU(cu.CtxSynchronize());
	if (nch < 3)
		die(1, "the counter changed %d times in 2 s under load", nch);
	for (int i = 1; i < nch; i++)
		gap[i - 1] = when[i] - when[i - 1];
	double period = median(gap, nch - 1), lo = gap[0], hi = gap[nch - 2];
	double step_median = median(step, nch);	/* sorted: step[0] is the least */
	printf("counter_changes %d\ncounter_reads %ld\ncounter_step_min_mj %.0f\ncounter_step_median_mj %.0f\n"
	       "counter_unit_mj %llu\ncounter_period_ms %.2f\ncounter_period_min_ms %.2f\ncounter_period_max_ms %.2f\n",
	       nch, calls, step[0], step_median, g, period * 1e3, lo * 1e3, hi * 1e3);
	return period;
}

struct result { int launches; double gpu_s, j, j_mean, spread, j2, nvml_w, above; unsigned mhz_lo, mhz_hi; unsigned long long reasons; };

/* One burst target, REPS times, between ticks (see the top comment). */
static struct result burst(int target_ms, double launch_s, double period)
{
	struct result res = { 0 };
	double j[REPS], j2[REPS], gpu[REPS], wsum = 0;
	CUevent a, b;
	int wn = 0;

	res.launches = (int)(target_ms / 1e3 / launch_s + 0.5);
	res.launches = res.launches < 1 ? 1 : res.launches;
	res.mhz_lo = ~0u;
	CU(cu.EventCreate(&a, 0));
	CU(cu.EventCreate(&b, 0));
	printf("burst.%dms.reps_j_per_launch", target_ms);
	for (int k = 0; k < REPS; k++) {
		double t0, t1, t2, sampled = 0;
		unsigned long long e0 = wait_tick(&t0), e1, e2, rs;
		unsigned mhz, mw;
		float ms;
		CUresult q;

		while (now_s() - t0 < period * k / REPS)
			;
		CU(cu.EventRecord(a, NULL));
		for (int i = 0; i < res.launches; i++)
			launch();
		CU(cu.EventRecord(b, NULL));
		/* Watch the burst through: what slows the clocks, every 2 ms. */
		while ((q = cu.EventQuery(b)) == CUDA_ERROR_NOT_READY) {
			if (now_s() - sampled < 0.002)
				continue;
			sampled = now_s();
			if (nv.Reasons(dev, &rs) == 0)
				res.reasons |= rs;
			if (nv.Clock(dev, NVML_CLOCK_SM, &mhz) == 0) {
				res.mhz_lo = mhz < res.mhz_lo ? mhz : res.mhz_lo;
				res.mhz_hi = mhz > res.mhz_hi ? mhz : res.mhz_hi;
			}
			if (nv.Power(dev, &mw) == 0)
				wsum += mw / 1e3, wn++;
		}
		CU(q);
		CU(cu.EventElapsedTime(&ms, a, b));
		gpu[k] = ms / 1e3;
		e1 = wait_tick(&t1);
		e2 = wait_tick(&t2);
		j[k] = ((e1 - e0) / 1e3 - idle_w * (t1 - t0 - gpu[k])) / res.launches;
		j2[k] = ((e2 - e0) / 1e3 - idle_w * (t2 - t0 - gpu[k])) / res.launches;
		res.j_mean += j[k] / REPS;
		printf(" %.5f", j[k]);
	}
	printf("\n");
	res.gpu_s = median(gpu, REPS);
	res.j = median(j, REPS);
	res.spread = (j[REPS - 1] - j[0]) / res.j * 100;
	res.j2 = median(j2, REPS);
	res.nvml_w = wn ? wsum / wn : 0;
	res.above = res.j - idle_w * res.gpu_s / res.launches;
	return res;
}

static void print_reasons(FILE *f, unsigned long long r)
{
	static const char *names[] = { "idle", "app_clocks", "sw_power_cap", "hw_slowdown", "sync_boost",
				       "sw_thermal", "hw_thermal", "hw_power_brake", "display_clocks" };
	fprintf(f, "0x%llx", r);
	for (int i = 0; i < 9; i++)
		if (r & (1ULL << i))
			fprintf(f, " %s", names[i]);
	if (r >> 9)
		fprintf(f, " other");
}

int main(void)
{
	char name[256] = "";
	struct result res[NTARGETS];
	const double bytes = 2.0 * COPY_BYTES;	/* read once, written once */

	setvbuf(stdout, NULL, _IOLBF, 0);	/* lines out as they come, under tee */
	open_all(name, sizeof(name));
	printf("device %s\n", name);
	setup_copy();
	double launch_s = launch_time();
	printf("copy_bytes_per_launch %.0f\ncopy_launch_ms %.4f\ncopy_gbps %.1f\n", bytes, launch_s * 1e3,
	       bytes / launch_s / 1e9);
	idle_w = idle("idle");
	double period = resolution();
	for (int i = 0; i < NTARGETS; i++) {
		struct result *r = &res[i];
		*r = burst(TARGET_MS[i], launch_s, period);
		const struct { const char *key; double v; } kv[] = {
			{ "launches", r->launches }, { "gpu_ms", r->gpu_s * 1e3 }, { "j_per_launch", r->j },
			{ "j_per_launch_mean", r->j_mean }, { "spread_pct", r->spread }, { "j_per_launch_tick2", r->j2 },
			{ "avg_w", r->j * r->launches / r->gpu_s }, { "power_usage_w", r->nvml_w },
			{ "j_per_launch_above_idle", r->above }, { "pj_per_byte", r->j / bytes * 1e12 },
			{ "pj_per_byte_above_idle", r->above / bytes * 1e12 },
			{ "sm_mhz_min", r->mhz_hi ? r->mhz_lo : 0 }, { "sm_mhz_max", r->mhz_hi },
		};
		for (size_t k = 0; k < sizeof(kv) / sizeof(kv[0]); k++)
			printf("burst.%dms.%s %.6g\n", TARGET_MS[i], kv[k].key, kv[k].v);
		printf("burst.%dms.throttle ", TARGET_MS[i]);
		print_reasons(stdout, r->reasons);
		printf("\n");
	}
	/* Least squares of a burst's energy on its launch count: the slope is
	 * what one more launch costs, the intercept what a burst costs besides.
	 * On the means: over the stepped phases they stay fair even where the
	 * counter samples part of each period, where the medians would not. */
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (int i = 0; i < NTARGETS; i++) {
		double x = res[i].launches, y = res[i].j_mean * x;
		sx += x, sy += y, sxx += x * x, sxy += x * y;
	}
	double slope = (NTARGETS * sxy - sx * sy) / (NTARGETS * sxx - sx * sx);
	double icpt = (sy - slope * sx) / NTARGETS;
	printf("fit.j_per_launch %.5f\nfit.intercept_j %.3f\nfit.pj_per_byte %.1f\nfit.pj_per_byte_above_idle %.1f\n",
	       slope, icpt, slope / bytes * 1e12, (slope - idle_w * launch_s) / bytes * 1e12);
	double idle_end = idle("idle_end");

	printf("# %s: copy of 2 x %zu MiB per launch, %.3f ms, %.0f GB/s\n", name, COPY_BYTES >> 20,
	       launch_s * 1e3, bytes / launch_s / 1e9);
	printf("# counter: a new value every %.1f ms; idle %.1f W (end %.1f W)\n", period * 1e3, idle_w, idle_end);
	printf("# %6s %8s %9s %8s %8s %7s %6s %6s %6s  %s\n", "target", "launches", "J/launch", "mean", "tick2",
	       "spread", "W", "pJ/B", ">idle", "throttle");
	for (int i = 0; i < NTARGETS; i++) {
		printf("# %4dms %8d %9.5f %8.5f %8.5f %6.1f%% %6.1f %6.1f %6.1f  ", TARGET_MS[i], res[i].launches,
		       res[i].j, res[i].j_mean, res[i].j2, res[i].spread, res[i].j * res[i].launches / res[i].gpu_s,
		       res[i].j / bytes * 1e12, res[i].above / bytes * 1e12);
		print_reasons(stdout, res[i].reasons);
		printf("\n");
	}
	printf("# fit over the bursts: %.5f J per launch (%.1f pJ/B, %.1f above idle), %.3f J per burst besides\n",
	       slope, slope / bytes * 1e12, (slope - idle_w * launch_s) / bytes * 1e12, icpt);
	nv.Shutdown();
	return 0;
}
