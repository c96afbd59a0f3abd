#!/bin/sh
# A throwaway PostgreSQL server for the tests, from Debian's packages: a new
# cluster in DIR (initdb), listening only on a Unix socket in DIR, trusted
# local connections, one database "warplab" owned by role "warplab".
#   tests/postgres.sh start DIR   prints the libpq URI to connect with
#   tests/postgres.sh stop DIR    stops it and removes DIR
# PostgreSQL refuses to run as root: as root, the cluster runs as the
# "postgres" user the package created.
set -eu
cmd=${1:?usage: tests/postgres.sh start|stop DIR}
dir=${2:?usage: tests/postgres.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "postgres.sh: no PostgreSQL server (postgresql-15) installed" >&2; exit 1; }

as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

case "$cmd" in
start)
	rm -rf "$dir"
	mkdir -p "$dir"
	[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
	as_owner "$bin/initdb" -D "$dir/data" -U warplab --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; exit 1; }
	# fsync off: a test cluster need not survive a power cut, and the
	# tests' many small commits would otherwise wait for the disk.
	as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-c listen_addresses='' -k $dir -c fsync=off -c max_connections=200" start >/dev/null ||
		{ cat "$dir/server.log" >&2; exit 1; }
	as_owner "$bin/createdb" -h "$dir" -U warplab warplab
	echo "postgresql:///warplab?host=$dir&user=warplab"
	;;
stop)
	[ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$dir"
	;;
*)
	echo "usage: tests/postgres.sh start|stop DIR" >&2
	exit 2
	;;
esac
