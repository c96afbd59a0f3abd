/* Counting what one warp request touches (see units.h): distinct units,
 * so that coalescing, misalignment, broadcast and bank conflicts all fall
 * out of one rule. */
#include "units.h"

#include <stdlib.h>
#include <string.h>

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* Sort v[0..n), keep each value once at its front, and return how many. */
static int distinct(long long *v, int n)
{
	int count = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_ll);
	for (int i = 0; i < n; i++)
		if (i == 0 || v[i] != v[count - 1])
			v[count++] = v[i];
	return count;
}

int wl_model_units(const long long *addr, int n, int bytes, int unit, long long *scratch)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		for (long long u = addr[i] / unit; u <= (addr[i] + bytes - 1) / unit; u++)
			scratch[k++] = u;
	return distinct(scratch, k);
}

double wl_model_conflict_degree(const long long *addr, int n, int bytes, long long *scratch)
{
	int count[WL_MODEL_BANKS] = { 0 }, words = wl_model_units(addr, n, bytes, WL_MODEL_BANK_BYTES, scratch);
	int worst = 0, ideal = (words + WL_MODEL_BANKS - 1) / WL_MODEL_BANKS;

	for (int i = 0; i < words; i++) {
		int bank = (int)(scratch[i] % WL_MODEL_BANKS);

		if (++count[bank] > worst)
			worst = count[bank];
	}
	return ideal ? (double)worst / ideal : 0;
}

double wl_model_useful_bytes(const long long *addr, int n, int bytes, long long *scratch)
{
	memcpy(scratch, addr, sizeof(*addr) * (size_t)n);
	return (double)distinct(scratch, n) * bytes;
}
