/* Element types by name (see elem_type.h). */
#include "elem_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum wl_elem_base base;
	size_t bytes;
	int is_float, is_signed;
} bases[] = {
	{ "char", WL_ELEM_CHAR, 1, 0, 1 },	{ "uchar", WL_ELEM_UCHAR, 1, 0, 0 },
	{ "short", WL_ELEM_SHORT, 2, 0, 1 },	{ "ushort", WL_ELEM_USHORT, 2, 0, 0 },
	{ "int", WL_ELEM_INT, 4, 0, 1 },	{ "uint", WL_ELEM_UINT, 4, 0, 0 },
	{ "long", WL_ELEM_LONG, 8, 0, 1 },	{ "ulong", WL_ELEM_ULONG, 8, 0, 0 },
	{ "float", WL_ELEM_FLOAT, 4, 1, 1 },	{ "double", WL_ELEM_DOUBLE, 8, 1, 1 },
};

int wl_elem_type_parse(const char *name, struct wl_elem_type *out)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		size_t len = strlen(bases[i].name);
		const char *tail = name + len;
		int lanes = 1;

		if (strncmp(name, bases[i].name, len) != 0)
			continue;
		if (*tail) {
			char *end;
			long n = strtol(tail, &end, 10);

			/* "uint" must not read as "u" + "int", nor "int2x" pass. */
			if (*end || tail[0] < '1' || tail[0] > '9' || !(n == 2 || n == 3 || n == 4 || n == 8 || n == 16))
				continue;
			lanes = (int)n;
		}
		*out = (struct wl_elem_type){ .base = bases[i].base, .lanes = lanes, .lane_bytes = bases[i].bytes,
					      .bytes = bases[i].bytes * (size_t)(lanes == 3 ? 4 : lanes),
					      .is_float = bases[i].is_float, .is_signed = bases[i].is_signed };
		return 0;
	}
	return -1;
}

const char *wl_elem_type_allowed(void)
{
	return "char, uchar, short, ushort, int, uint, long, ulong, float, double, and their vectors of "
	       "2, 3, 4, 8 or 16 (float4, uint2)";
}

void wl_elem_type_name(const struct wl_elem_type *t, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (bases[i].base == t->base) {
			if (t->lanes > 1)
				snprintf(buf, len, "%s%d", bases[i].name, t->lanes);
			else
				snprintf(buf, len, "%s", bases[i].name);
			return;
		}
	snprintf(buf, len, "?");
}
