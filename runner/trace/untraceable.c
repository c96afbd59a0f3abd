/* Why the simulator could not run a kernel, in words (see untraceable.h):
 * Oclgrind's fatal errors read back from what the traced process wrote, and
 * the LLVM intrinsics clang makes of plain code named for what they do. */
#include "untraceable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Intrinsics by prefix, and what they compute. Those Oclgrind 21.10 runs
 * (llvm.bswap, llvm.fabs, llvm.fmuladd, llvm.smax and its kin, llvm.memcpy,
 * ...) are here too: a later Oclgrind may drop one, and a CUDA kernel's
 * refusal names them alike. */
static const char *const intrinsics[][2] = {
	{ "llvm.bitreverse.", "a bit reversal" },
	{ "llvm.bswap.", "a byte swap" },
	{ "llvm.ctpop.", "a population count (popcount)" },
	{ "llvm.ctlz.", "a count of leading zeros (clz)" },
	{ "llvm.cttz.", "a count of trailing zeros" },
	{ "llvm.fshl.", "a rotate (funnel shift left)" },
	{ "llvm.fshr.", "a rotate (funnel shift right)" },
	{ "llvm.abs.", "an absolute value" },
	{ "llvm.smax.", "a signed maximum" },
	{ "llvm.smin.", "a signed minimum" },
	{ "llvm.umax.", "an unsigned maximum" },
	{ "llvm.umin.", "an unsigned minimum" },
	{ "llvm.sadd.sat.", "a saturating add" },
	{ "llvm.uadd.sat.", "a saturating add" },
	{ "llvm.ssub.sat.", "a saturating subtract" },
	{ "llvm.usub.sat.", "a saturating subtract" },
	{ "llvm.sadd.with.overflow.", "an add that checks for overflow" },
	{ "llvm.uadd.with.overflow.", "an add that checks for overflow" },
	{ "llvm.ssub.with.overflow.", "a subtract that checks for overflow" },
	{ "llvm.usub.with.overflow.", "a subtract that checks for overflow" },
	{ "llvm.smul.with.overflow.", "a multiply that checks for overflow" },
	{ "llvm.umul.with.overflow.", "a multiply that checks for overflow" },
	{ "llvm.vector.reduce.", "a reduction of a vector's elements" },
	{ "llvm.fabs.", "a floating-point absolute value" },
	{ "llvm.sqrt.", "a square root" },
	{ "llvm.fma.", "a fused multiply-add" },
	{ "llvm.fmuladd.", "a multiply-add" },
	{ "llvm.minnum.", "a floating-point minimum" },
	{ "llvm.maxnum.", "a floating-point maximum" },
	{ "llvm.minimum.", "a floating-point minimum" },
	{ "llvm.maximum.", "a floating-point maximum" },
	{ "llvm.copysign.", "a copy of a sign" },
	{ "llvm.floor.", "a rounding down" },
	{ "llvm.ceil.", "a rounding up" },
	{ "llvm.trunc.", "a rounding toward zero" },
	{ "llvm.rint.", "a rounding to the nearest integer" },
	{ "llvm.nearbyint.", "a rounding to the nearest integer" },
	{ "llvm.round.", "a rounding to the nearest integer" },
	{ "llvm.roundeven.", "a rounding to the nearest integer" },
	{ "llvm.powi.", "a power by an integer" },
	{ "llvm.memcpy", "a block copy (memcpy)" },
	{ "llvm.memmove", "a block copy (memmove)" },
	{ "llvm.memset", "a block fill (memset)" },
};

const char *wl_intrinsic_words(const char *name)
{
	for (size_t i = 0; name && i < sizeof(intrinsics) / sizeof(intrinsics[0]); i++)
		if (strncmp(name, intrinsics[i][0], strlen(intrinsics[i][0])) == 0)
			return intrinsics[i][1];
	return NULL;
}

void wl_intrinsic_phrase(const char *name, unsigned line, char *out, size_t len)
{
	const char *words = wl_intrinsic_words(name);

	if (words && line)
		snprintf(out, len, "%s (%s, which the compiler made of line %u)", name, words, line);
	else if (words)
		snprintf(out, len, "%s (%s the compiler made)", name, words);
	else if (line)
		snprintf(out, len, "the LLVM intrinsic %s (which the compiler made of line %u)", name, line);
	else
		snprintf(out, len, "the LLVM intrinsic %s", name);
}

#define FATAL "OCLGRIND FATAL ERROR"
#define STANDS "; the kernel's measurements stand"

/* The text of line start (up to its newline) into out. */
static void line_text(const char *start, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)strcspn(start, "\n"), start);
}

/* The source line Oclgrind's message from at names ("At line 9 (column
 * 3) of input.cl:"), before the next fatal error; 0 where none. */
static unsigned message_line(const char *at)
{
	const char *next = strstr(at + 1, FATAL), *l = strstr(at, "At line ");

	return l && (!next || l < next) ? (unsigned)strtoul(l + 8, NULL, 10) : 0;
}

/* The kernel Oclgrind was making when it stopped ("When creating kernel
 * 'bitrev'"), into out ("" where it was running one). */
static void creating(const char *at, char *out, size_t len)
{
	const char *next = strstr(at + 1, FATAL), *k = strstr(at, "When creating kernel '");

	out[0] = '\0';
	if (k && (!next || k < next)) {
		k += strlen("When creating kernel '");
		snprintf(out, len, "%.*s", (int)strcspn(k, "'\n"), k);
	}
}

/* " (at line N)" into out, or "" where line is 0. */
static void at_line(unsigned line, char *out, size_t len)
{
	if (line)
		snprintf(out, len, " (at line %u)", line);
	else if (len)
		out[0] = '\0';
}

int wl_untraceable_reason(const char *log, wl_call_line_fn line_of, void *ctx, char *out, size_t len)
{
	const char *at = log ? strstr(log, FATAL) : NULL, *said;
	char what[256], kernel[128], phrase[384], where[32];
	unsigned line;

	if (!at)
		return 0;
	while (strstr(at + 1, FATAL))
		at = strstr(at + 1, FATAL);
	said = strchr(at, '\n');
	line_text(said ? said + 1 : "", what, sizeof(what));
	creating(at, kernel, sizeof(kernel));
	line = message_line(at);
	if (strncmp(what, "Undefined external function: ", 29) == 0) {
		const char *name = what + 29;

		if (!line && kernel[0] && line_of)
			line = line_of(ctx, kernel, name);
		if (strncmp(name, "llvm.", 5) == 0) {
			wl_intrinsic_phrase(name, line, phrase, sizeof(phrase));
			snprintf(out, len, "not traced: the simulator cannot run %s" STANDS, phrase);
		} else {
			at_line(line, where, sizeof(where));
			snprintf(out, len, "not traced: the simulator cannot run %s, a function it does not have%s" STANDS,
				 name, where);
		}
	} else if (strncmp(what, "Unsupported instruction: ", 25) == 0) {
		at_line(line, where, sizeof(where));
		snprintf(out, len, "not traced: the simulator cannot run the instruction %s%s" STANDS, what + 25, where);
	} else {
		at_line(line, where, sizeof(where));
		snprintf(out, len, "not traced: the simulator stopped: %s%s" STANDS, what[0] ? what : "a fatal error",
			 where);
	}
	return 1;
}
