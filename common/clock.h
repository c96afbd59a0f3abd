/* The monotonic clock, in seconds: what deadlines and waits are measured on
 * (never the wall clock, which can jump). */
#ifndef WL_CLOCK_H
#define WL_CLOCK_H

/* Seconds on CLOCK_MONOTONIC: only differences mean anything. */
double wl_monotonic_s(void);

/* The same clock in milliseconds, for timings within a process. */
double wl_now_ms(void);

#endif
