/* The rules one warp request is counted by, for a declared kernel's
 * simulated addresses (warp_model.h) and a traced one's (trace_model.h)
 * alike (requests.h counts with them): the memory's units — 32-byte
 * sectors, 128-byte lines, 64-byte bursts, 32 banks of 4-byte words — and
 * the distinct ones a request touches. */
#ifndef WL_UNITS_H
#define WL_UNITS_H

#define WL_MODEL_SECTOR 32
#define WL_MODEL_LINE 128
#define WL_MODEL_BURST 64		/* DRAM moves sectors in pairs */
#define WL_MODEL_PAGE 65536		/* a GPU's small page: what its TLB maps, a window a gather can stay in */
#define WL_MODEL_BANKS 32
#define WL_MODEL_BANK_BYTES 4
#define WL_MODEL_LANES_MAX 64		/* NVIDIA's warps are 32, AMD's wavefronts 64 */

/* Each takes n lanes' byte addresses addr, each of an element of bytes;
 * scratch holds at least n * (bytes / unit + 2) values. */
/* The distinct units of size unit (a sector, a line, a bank word) the ranges
 * [addr, addr + bytes) cover. */
int wl_model_units(const long long *addr, int n, int bytes, int unit, long long *scratch);
/* The passes a local request takes over the fewest it could: the most
 * distinct words in one bank over the banks' share of all distinct words. */
double wl_model_conflict_degree(const long long *addr, int n, int bytes, long long *scratch);
/* Distinct addresses times bytes: what the request asks for. */
double wl_model_useful_bytes(const long long *addr, int n, int bytes, long long *scratch);

#endif
