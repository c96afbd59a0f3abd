/* An experiment's declared data at one point of its params (see
 * exp_data.h): its buffers' sizes and costs, whether they hold together,
 * and the -D definitions its sources are built with. */
#include "exp_data.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int wl_buffer_size(const struct wl_buffer_def *b, const long long *values, long long *count, long long *bytes,
		   const char **why)
{
	if (wl_expr_eval(&b->count, values, count, why) < 0)
		return -1;
	if (*count < 1) {
		*why = "the count is below 1";
		return -1;
	}
	if (__builtin_mul_overflow(*count, (long long)b->type.bytes, bytes)) {
		*why = "its bytes overflow 64 bits";
		return -1;
	}
	return 0;
}

int wl_exp_data_bytes(const struct wl_exp_data *d, const long long *values, int fields, double *total,
		      double *largest, struct wl_error *err)
{
	*total = *largest = 0;
	for (size_t i = 0; i < d->nbuffers; i++) {
		const struct wl_buffer_def *b = &d->buffers[i];
		long long count, bytes;
		const char *why = NULL;

		if (wl_buffer_size(b, values, &count, &bytes, &why) < 0) {
			char field[64];

			snprintf(field, sizeof(field), "experiment.buffers[%zu].count", i);
			if (fields)
				wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: buffer '%s' of '%s' elements: %s",
					       field, b->name, b->count_text, why);
			else
				wl_error_set(err, WL_ERR_CONFIG, "buffer '%s' of '%s' elements: %s", b->name, b->count_text,
					     why);
			return -1;
		}
		*total += (double)bytes;
		if ((double)bytes > *largest)
			*largest = (double)bytes;
	}
	return 0;
}

int wl_exp_data_csr(const struct wl_exp_data *d, const long long *values, long long *rows, long long *per_row)
{
	for (size_t i = 0; d && i < d->nbuffers; i++) {
		long long count, bytes;
		const char *why;

		if (d->buffers[i].init.kind != WL_INIT_CSR_ROWS)
			continue;
		if (wl_buffer_size(&d->buffers[i], values, &count, &bytes, &why) < 0)
			return -1;
		*rows = count - 1;
		*per_row = d->buffers[i].init.per_row;
		return 1;
	}
	return 0;
}

int wl_exp_data_check_point(const struct wl_exp_data *d, const long long *values, int fields, struct wl_error *err)
{
	long long rows = 0, per_row = 0;
	double total, largest;

	if (wl_exp_data_bytes(d, values, fields, &total, &largest, err) < 0)
		return -1;
	for (size_t i = 0; i < d->ndefines; i++) {
		long long v;
		const char *why;
		char field[48];

		if (wl_expr_eval(&d->defines[i].value, values, &v, &why) == 0)
			continue;
		snprintf(field, sizeof(field), "experiment.defines[%zu]", i);
		if (fields)
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: %s: %s", field, d->defines[i].name, why);
		else
			wl_error_set(err, WL_ERR_CONFIG, "define %s: %s", d->defines[i].name, why);
		return -1;
	}
	for (size_t i = 0; i < d->nbuffers; i++) {
		const struct wl_buffer_def *b = &d->buffers[i];
		long long v = 0, count, bytes, side;
		const char *why = NULL;
		char field[48];

		wl_buffer_size(b, values, &count, &bytes, &why);
		side = (long long)sqrt((double)count);
		while (side * side > count)
			side--;
		while ((side + 1) * (side + 1) <= count)
			side++;
		if (b->init.kind == WL_INIT_CONSTANT && b->init.has_expr)
			wl_expr_eval(&b->init.value_expr, values, &v, &why);
		else if (b->init.kind == WL_INIT_TRANSPOSE && side * side != count)
			why = "a transpose needs a square count (side x side elements)";
		else
			why = NULL;
		if (!why)
			continue;
		snprintf(field, sizeof(field), "experiment.buffers[%zu].init", i);
		if (fields)
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: buffer '%s': %s", field, b->name, why);
		else
			wl_error_set(err, WL_ERR_CONFIG, "buffer '%s': %s", b->name, why);
		return -1;
	}
	if (wl_exp_data_csr(d, values, &rows, &per_row) <= 0)
		return 0;
	for (size_t i = 0; i < d->nbuffers; i++) {
		const struct wl_buffer_def *b = &d->buffers[i];
		long long count, bytes, want;
		const char *why, *problem = NULL;
		char field[64];

		wl_buffer_size(b, values, &count, &bytes, &why);
		if (b->init.kind == WL_INIT_CSR_ROWS && rows < 1)
			problem = "csr_rows needs a count of 2 at least (rows + 1 pointers)";
		else if (b->init.kind == WL_INIT_CSR_COLS &&
			 (__builtin_mul_overflow(rows, per_row, &want) || count != want))
			problem = "a csr_cols buffer holds one column index for every nonzero: rows x nonzeros per row";
		if (!problem)
			continue;
		snprintf(field, sizeof(field), "experiment.buffers[%zu].count", i);
		if (fields)
			wl_error_field(err, WL_ERR_INVALID_FIELD, field, "%s: buffer '%s' of %lld elements: %s (%lld x %lld)",
				       field, b->name, count, problem, rows, per_row);
		else
			wl_error_set(err, WL_ERR_CONFIG, "buffer '%s' of %lld elements: %s (%lld x %lld)", b->name, count,
				     problem, rows, per_row);
		return -1;
	}
	return 0;
}

double wl_exp_data_cost(const struct wl_exp_data *d, enum wl_data_cost kind, const long long *values)
{
	double total = 0;

	for (size_t i = 0; d && i < d->nbuffers; i++) {
		const struct wl_buffer_def *b = &d->buffers[i];
		double bytes = wl_expr_eval_double(&b->count, values) * (double)b->type.bytes;

		if (kind == WL_DATA_BYTES)
			total += (b->init.kind != WL_INIT_NONE ? bytes : 0) + (b->output ? bytes : 0);
		else if (kind == WL_DATA_MEMORY)
			total += bytes;
		else if (kind == WL_DATA_LARGEST && bytes > total)
			total = bytes;
	}
	return total;
}

int wl_exp_data_options_are(const struct wl_exp_data *d, const long long *values, const char *options)
{
	char defines[2048] = "";
	size_t n;

	wl_exp_data_options(d, values, defines, sizeof(defines));
	n = strlen(defines);
	if (strncmp(options, defines, n) != 0)
		return 0;
	options += n;
	if (n > 0 && *options == ' ')
		options++;
	return *options == '\0' || strcmp(options, WL_FP64_OPTION) == 0;
}

void wl_exp_data_options(const struct wl_exp_data *d, const long long *values, char *out, size_t len)
{
	for (size_t i = 0; d && i < d->ndefines; i++) {
		size_t used = strlen(out);
		long long v = 0;
		const char *why;

		/* Checked at every point before queueing
		 * (wl_exp_data_check_point): it evaluates. */
		if (wl_expr_eval(&d->defines[i].value, values, &v, &why) < 0)
			v = 0;
		snprintf(out + used, len - used, "%s-D %s=%lld", used ? " " : "", d->defines[i].name, v);
	}
}
