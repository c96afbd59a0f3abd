/* Why the simulator could not run a kernel, in words (untraceable.h): what
 * Oclgrind writes when it stops, read back as the tracer reads it. */
#include <string.h>

#include "check.h"
#include "untraceable.h"

/* The line of a call, as the trace plugin would find it in the program:
 * llvm.bitreverse.i32 at line 9 and __nv_brev at line 6 in kernel "k". */
static unsigned lines(void *ctx, const char *kernel, const char *callee)
{
	(void)ctx;
	if (strcmp(kernel, "k") != 0)
		return 0;
	return strcmp(callee, "llvm.bitreverse.i32") == 0 ? 9 : strcmp(callee, "__nv_brev") == 0 ? 6 : 0;
}

void test_untraceable_kernels_say_what_the_simulator_cannot_run(void)
{
	static const struct {
		const char *log, *said;	/* said NULL: no fatal error in the log */
	} rows[] = {
		{ "built program 1\n\nOCLGRIND FATAL ERROR (./src/core/WorkItem.cpp:1681)\n"
		  "Undefined external function: llvm.bitreverse.i32\nWhen creating kernel 'k'\n",
		  "not traced: the simulator cannot run llvm.bitreverse.i32 (a bit reversal, which the compiler made of "
		  "line 9); the kernel's measurements stand" },
		{ "\nOCLGRIND FATAL ERROR (x.cpp:1)\nUndefined external function: llvm.ctpop.i32\nWhen creating kernel 'other'\n",
		  "not traced: the simulator cannot run llvm.ctpop.i32 (a population count (popcount) the compiler made); "
		  "the kernel's measurements stand" },
		{ "\nOCLGRIND FATAL ERROR (x.cpp:1)\nUndefined external function: llvm.nvvm.frob\nWhen creating kernel 'k'\n",
		  "not traced: the simulator cannot run the LLVM intrinsic llvm.nvvm.frob; the kernel's measurements stand" },
		{ "\nOCLGRIND FATAL ERROR (x.cpp:1)\nUndefined external function: __nv_brev\nWhen creating kernel 'k'\n",
		  "not traced: the simulator cannot run __nv_brev, a function it does not have (at line 6); the kernel's "
		  "measurements stand" },
		/* While a work-group runs: the plugin's copy of Oclgrind's message, its line in it. */
		{ "\nOCLGRIND FATAL ERROR (./src/core/WorkItem.cpp:288)\nUnsupported instruction: freeze\n\tKernel: k\n"
		  "\tEntity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n\t  %5 = freeze i32 %4\n\tAt line 7 (column 3) of input.cl:\n"
		  "\t  x = y;\n",
		  "not traced: the simulator cannot run the instruction freeze (at line 7); the kernel's measurements stand" },
		{ "\nOCLGRIND FATAL ERROR (a.cpp:1)\nInsufficient private memory (alloca)\n\tKernel: k\n"
		  "\tDebugging information not available.\n",
		  "not traced: the simulator stopped: Insufficient private memory (alloca); the kernel's measurements stand" },
		/* The last error is the one that stopped the run; an earlier one's line is not its. */
		{ "\nOCLGRIND FATAL ERROR (a.cpp:1)\nUnsupported instruction: freeze\nAt line 3 (column 1) of input.cl:\n"
		  "\nOCLGRIND FATAL ERROR (a.cpp:2)\nUnsupported instruction: callbr\n",
		  "not traced: the simulator cannot run the instruction callbr; the kernel's measurements stand" },
		{ "built program 1\nOclgrind: 3 errors generated\nInvalid read of size 4 at global memory address 0x0\n", NULL },
		{ "", NULL },
	};
	char out[512];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int found;

		strcpy(out, "(untouched)");
		found = wl_untraceable_reason(rows[i].log, lines, NULL, out, sizeof(out));
		if (!rows[i].said)
			CHECK(!found && strcmp(out, "(untouched)") == 0, "row %zu: no fatal error, yet: %s", i, out);
		else
			CHECK(found && strcmp(out, rows[i].said) == 0, "row %zu:\n      expected %s\n      got      %s", i,
			      rows[i].said, found ? out : "(none)");
	}
	CHECK(!wl_untraceable_reason(NULL, lines, NULL, out, sizeof(out)), "no log: nothing said");
	CHECK(wl_intrinsic_words("llvm.fshl.i32") && !wl_intrinsic_words("llvm.frobnicate.i32"),
	      "a funnel shift has words; an unknown intrinsic none");
	wl_intrinsic_phrase("llvm.bitreverse.i64", 0, out, 24);
	CHECK(strlen(out) == 23, "a phrase is cut to its buffer: %s", out);
}
