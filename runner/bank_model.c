/* The bank-conflict model: count distinct words per bank for a warp's
 * addresses. For stride c the count is gcd(c, banks) (the classic closed form);
 * the general count is what the predictions use, so broadcast and the struct
 * layouts follow from the same rule. */
#include "bank_model.h"

#include <string.h>

long long wl_gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int wl_bank_conflict_degree(const long long *addr, int lanes, int banks)
{
	int worst = 0;

	for (int bank = 0; bank < banks; bank++) {
		int distinct = 0;

		for (int i = 0; i < lanes; i++) {
			int seen = 0;

			if (((addr[i] % banks) + banks) % banks != bank)
				continue;
			for (int j = 0; j < i; j++)
				if (addr[j] == addr[i])
					seen = 1;
			distinct += !seen;
		}
		if (distinct > worst)
			worst = distinct;
	}
	return worst;
}

double wl_bank_predicted_degree(const char *variant, long long c, long long local)
{
	long long addr[WL_WARP_LANES];
	long long warps = (local + WL_WARP_LANES - 1) / WL_WARP_LANES;
	double sum = 0;

	for (long long w = 0; w < warps; w++) {
		int lanes = 0;

		/* The kernels' addresses in their first iteration (a common shift
		 * does not change the degree). */
		for (long long lid = w * WL_WARP_LANES; lid < local && lanes < WL_WARP_LANES; lid++) {
			if (strcmp(variant, "stride") == 0 || strcmp(variant, "struct") == 0)
				addr[lanes++] = lid * c;
			else if (strcmp(variant, "broadcast") == 0)
				addr[lanes++] = lid % c;
			else if (strcmp(variant, "soa") == 0)
				addr[lanes++] = lid;
			else
				return -1;
		}
		sum += wl_bank_conflict_degree(addr, lanes, WL_BANKS);
	}
	return sum / (double)warps;
}
