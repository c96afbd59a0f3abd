/* Landlock confinement of the worker (see confine.h). The rules are an allow
 * list of folders and files by what may be done beneath them; a path that
 * does not exist on this host is skipped. The drivers' caches are made first
 * where missing, since a rule needs something to point at. */
#include "confine.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

#define FS_READ (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | \
		 LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_WRITE (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | \
		  LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR | \
		  LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | \
		  LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | \
		  LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE)
/* The rights that apply to a file itself (the rest are rights over a folder's
 * entries, refused on a file's rule). */
#define FS_FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
			LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
			LANDLOCK_ACCESS_FS_IOCTL_DEV)

int wl_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return abi > 0 ? (int)abi : 0;
}

/* The rights this ABI knows: asking for a newer one is refused. */
static unsigned long long handled_rights(int abi)
{
	unsigned long long all = FS_READ | FS_WRITE | LANDLOCK_ACCESS_FS_IOCTL_DEV;

	if (abi < 2)
		all &= ~LANDLOCK_ACCESS_FS_REFER;
	if (abi < 3)
		all &= ~LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi < 5)
		all &= ~LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return all;
}

/* Allow rights beneath path. A path missing here is no error: hosts differ
 * (no /lib64, no NVIDIA driver). Returns -1 only when the kernel refuses a rule
 * for an existing path. */
static int allow(int ruleset, const char *path, unsigned long long rights, unsigned long long handled)
{
	struct landlock_path_beneath_attr rule = { 0 };
	struct stat st;
	int fd, rc;

	if (!path || !*path)
		return 0;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return 0;
	}
	rights &= handled;
	if (!S_ISDIR(st.st_mode))
		rights &= FS_FILE_RIGHTS;
	rule.allowed_access = rights;
	rule.parent_fd = fd;
	rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) < 0 ? -1 : 0;
	close(fd);
	return rc;
}

/* mkdir -p, best effort: a cache that cannot be made is a cache the driver
 * goes without. */
static void make_dirs(const char *path)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0700);
		*p = '/';
	}
	mkdir(buf, 0700);
}

/* A driver's cache folder: $var, or $HOME/home_rel. Made where missing. */
static void driver_cache(const char *var, const char *home_rel, char *out, size_t len)
{
	const char *set = getenv(var), *home = getenv("HOME");

	out[0] = '\0';
	if (set && *set)
		snprintf(out, len, "%s", set);
	else if (home && *home)
		snprintf(out, len, "%s/%s", home, home_rel);
	if (out[0])
		make_dirs(out);
}

/* What an OpenCL driver reads: the system's programs and libraries, the ICD
 * list, the dynamic loader's cache, the device and CPU descriptions. */
static const char *const system_read[] = {
	"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin",
	"/etc/OpenCL", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/alternatives", "/sys", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat",
	"/proc/driver/nvidia", "/proc/sys/vm/overcommit_memory", "/proc/sys/kernel", NULL,
};

/* Of the process's own /proc entry, what the drivers read (the CPUs it may
 * use, its memory map and limits, its mounts): never its environment, its
 * command line or its memory. */
static const char *const self_read[] = {
	"cpuset", "status", "stat", "statm", "maps", "limits", "cgroup", "mounts", "mountinfo",
	"auxv", "fd", NULL,
};

int wl_confine(const struct wl_confine_paths *paths, char *what, size_t len)
{
	int abi = wl_landlock_abi(), ruleset, ok = 1;
	unsigned long long handled;
	struct landlock_ruleset_attr attr = { 0 };
	char pocl[4096], nvidia[4096], self[64];

	if (abi == 0) {
		snprintf(what, len, "none: this kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK and landlock in its lsm= list)");
		return -1;
	}
	handled = handled_rights(abi);
	attr.handled_access_fs = handled;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0) {
		snprintf(what, len, "none: Landlock refused a ruleset (%s)", strerror(errno));
		return -1;
	}
	driver_cache("POCL_CACHE_DIR", ".cache/pocl", pocl, sizeof(pocl));
	driver_cache("CUDA_CACHE_PATH", ".nv", nvidia, sizeof(nvidia));
	snprintf(self, sizeof(self), "/proc/%d/", (int)getpid());
	if (paths->programs && *paths->programs)
		make_dirs(paths->programs);
	for (const char *const *p = system_read; *p; p++)
		ok &= allow(ruleset, *p, FS_READ, handled) == 0;
	for (const char *const *p = self_read; *p; p++) {
		char path[96];

		snprintf(path, sizeof(path), "%s%s", self, *p);
		ok &= allow(ruleset, path, FS_READ, handled) == 0;
	}
	ok &= allow(ruleset, paths->kernels, FS_READ, handled) == 0;
	ok &= allow(ruleset, paths->self, FS_READ, handled) == 0;
	ok &= allow(ruleset, paths->tracer, FS_READ, handled) == 0;
	ok &= allow(ruleset, paths->cuda_ir, FS_READ, handled) == 0;
	/* Device nodes (NVIDIA's take ioctls), /dev/null, /dev/shm. */
	ok &= allow(ruleset, "/dev", FS_READ | FS_WRITE | LANDLOCK_ACCESS_FS_IOCTL_DEV, handled) == 0;
	ok &= allow(ruleset, paths->store_dir, FS_READ | FS_WRITE, handled) == 0;
	ok &= allow(ruleset, paths->programs, FS_READ | FS_WRITE, handled) == 0;
	ok &= allow(ruleset, pocl, FS_READ | FS_WRITE, handled) == 0;
	ok &= allow(ruleset, nvidia, FS_READ | FS_WRITE, handled) == 0;
	if (!ok) {
		snprintf(what, len, "none: Landlock refused a rule (%s)", strerror(errno));
		close(ruleset);
		return -1;
	}
	/* Required to confine without privileges; also what the units set. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
		snprintf(what, len, "none: Landlock could not be put in force (%s)", strerror(errno));
		close(ruleset);
		return -1;
	}
	close(ruleset);
	snprintf(what, len, "landlock ABI %d", abi);
	return 0;
}
