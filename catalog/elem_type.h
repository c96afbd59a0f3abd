/* The element types an experiment's buffers and scalars may hold, spelled as
 * OpenCL C spells them: char, uchar, short, ushort, int, uint, long, ulong,
 * float, double, and their vectors of 2, 3, 4, 8 or 16 (float4, uint2...);
 * CUDA's spelling of the same types (unsigned int, float4) is the kernel's
 * business, the bytes are the same. A vector of 3 takes the room of 4, as
 * in both languages. */
#ifndef WL_ELEM_TYPE_H
#define WL_ELEM_TYPE_H

#include <stddef.h>

enum wl_elem_base {
	WL_ELEM_CHAR, WL_ELEM_UCHAR, WL_ELEM_SHORT, WL_ELEM_USHORT, WL_ELEM_INT, WL_ELEM_UINT,
	WL_ELEM_LONG, WL_ELEM_ULONG, WL_ELEM_FLOAT, WL_ELEM_DOUBLE,
};

struct wl_elem_type {
	enum wl_elem_base base;
	int lanes;			/* 1, 2, 3, 4, 8 or 16 */
	size_t lane_bytes;		/* of one lane: 1, 2, 4 or 8 */
	size_t bytes;			/* of one element (a vector of 3 as of 4) */
	int is_float, is_signed;
};

/* The type name spells into *out: 0, or -1 where it is no type of the list
 * above (*out then untouched). */
int wl_elem_type_parse(const char *name, struct wl_elem_type *out);

/* The names a buffer or scalar may have, "char, uchar, ..., double, and
 * vectors of 2, 3, 4, 8, 16 of them (float4)", for messages. */
const char *wl_elem_type_allowed(void);

/* t's name ("float4") into buf (len bytes). */
void wl_elem_type_name(const struct wl_elem_type *t, char *buf, size_t len);

#endif
