/* The local-memory bank model the banks experiment sets its measurements
 * beside: banks of one 4-byte word each, one warp of lanes work-items reading
 * at once. A warp's read takes as many passes as the largest number of distinct
 * words it touches in one bank; work-items reading the same word share one read
 * (broadcast). */
#ifndef WL_BANK_MODEL_H
#define WL_BANK_MODEL_H

#define WL_BANKS 32
#define WL_WARP_LANES 32

/* The conflict degree of one warp reading word addresses addr[0..lanes): the
 * most distinct words in any one of banks banks. 1 means conflict-free. */
int wl_bank_conflict_degree(const long long *addr, int lanes, int banks);

/* The greatest common divisor of a and b (both positive). */
long long wl_gcd(long long a, long long b);

/* The degree predicted for a banks variant ("stride", "broadcast", "struct",
 * "soa") with c words and a work-group of local work-items, on WL_BANKS banks
 * and WL_WARP_LANES lanes: the mean over the group's warps (they can differ:
 * broadcast's lid % c wraps at other places in each warp). -1 for an unknown
 * variant. */
double wl_bank_predicted_degree(const char *variant, long long c, long long local);

#endif
