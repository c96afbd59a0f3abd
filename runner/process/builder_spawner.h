/* The spawner: a small process the worker forks before it confines itself,
 * whose one task is to start builder processes (builders.h) when the
 * worker asks. A builder must load NVIDIA's driver before it confines
 * itself, as the worker does: a child of the confined worker cannot, since
 * Landlock holds across exec and lets it read only the worker's own /proc
 * entries. The spawner holds none of the worker's files and runs nothing
 * but this program as a builder; it ends with the worker. */
#ifndef WL_BUILDER_SPAWNER_H
#define WL_BUILDER_SPAWNER_H

#include <sys/types.h>

/* Fork the spawner (call it before the worker opens anything it would
 * rather not share). -1 where it cannot be started: runs then build their
 * programs in the worker, as before. */
int wl_spawner_start(void);

/* A builder of where started by the spawner (a wl_builder_spawn): its
 * socket in *fd (blocking calls on it give up after 30 s), a pidfd of it in
 * *pidfd (it is not the worker's child: the spawner reaps it), both the
 * caller's to close, and its pid in *pid. -1 where the spawner is absent or
 * cannot start one. Safe from any thread. */
int wl_spawner_builder(const char *where, int *fd, int *pidfd, pid_t *pid);

/* The builder process's main (warplab-runner --builder WHERE): where is
 * "opencl\n" and the device's place (wl_cl_builder_place), or "cuda\n" and
 * the compute capability. Readies NVIDIA's driver or NVRTC, confines itself
 * as a worker is confined (without a store, kernels or program cache to
 * reach), then builds (wl_cl_builder_main, wl_cuda_builder_main). Returns
 * the process's exit status. */
int wl_builder_process_main(const char *where);

#endif
