/* The sample of a launch's work-groups (see sample.h). */
#include "sample.h"

/* Put group linear into the sample, kept in the launch's order, adding
 * weight to it; one there already gains the weight. */
static void put(struct wl_sample *s, long long linear, double weight, int neighbour)
{
	int at = 0;

	while (at < s->count && s->linear[at] < linear)
		at++;
	if (at < s->count && s->linear[at] == linear) {
		s->weight[at] += weight;
		s->neighbour[at] |= neighbour;
		return;
	}
	if (s->count == WL_SAMPLE_GROUPS)
		return;
	for (int k = s->count; k > at; k--) {
		s->linear[k] = s->linear[k - 1];
		s->weight[k] = s->weight[k - 1];
		s->neighbour[k] = s->neighbour[k - 1];
	}
	s->linear[at] = linear;
	s->weight[at] = weight;
	s->neighbour[at] = neighbour;
	s->count++;
}

void wl_sample_groups(const long long groups[3], struct wl_sample *out)
{
	long long nx = groups[0] > 0 ? groups[0] : 1, ny = groups[1] > 0 ? groups[1] : 1;
	long long nz = groups[2] > 0 ? groups[2] : 1, n = nx * ny * nz;
	const long long S = WL_SAMPLE_SPREAD;

	out->count = 0;
	if (n <= S) {
		for (long long l = 0; l < n; l++)
			put(out, l, 1, 0);
	} else {
		for (long long i = 0; i < S; i++) {
			long long x = i * nx / S, y = (3 * i % S) * ny / S, z = (5 * i % S) * nz / S;

			put(out, x + nx * (y + ny * z), (double)n / (double)S, 0);
		}
		/* The launch's last, for what it shares with the first. */
		put(out, n - 1, 0, 0);
	}
	for (long long l = 1; l <= WL_SAMPLE_NEIGHBOURS && l < n; l++)
		put(out, l, 0, 1);
}

double wl_sample_weight(const struct wl_sample *sample, long long linear)
{
	for (int k = 0; k < sample->count; k++)
		if (sample->linear[k] == linear)
			return sample->weight[k];
	return 0;
}
