# bench/store.sh — sourced by the benches: bench_store WORKDIR [NAME] sets DB
# to the --db value of a fresh, empty store: a SQLite file in WORKDIR
# (STORE=sqlite, the default) or, with STORE=postgres, a new schema NAME
# (default bench_PID) on the server PG names (a libpq URI) or, without PG, on
# a PostgreSQL server started for the bench (tests/postgres.sh, once);
# bench_store_stop stops that one.
bench_store() {
	if [ "${STORE:-sqlite}" != postgres ]; then
		DB="$1/warplab.db"
		return
	fi
	if [ -z "${PG:-}" ]; then
		BENCH_PGDIR=$(mktemp -d /tmp/warplab-bench-pg.XXXXXX)
		PG=$(tests/postgres.sh start "$BENCH_PGDIR")
	fi
	local schema="${2:-bench_$$}"
	psql "$PG" -q -c "DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema" >/dev/null 2>&1
	BENCH_SCHEMA=$schema
	case "$PG" in *\?*) DB="$PG&" ;; *) DB="$PG?" ;; esac
	DB="${DB}options=-csearch_path%3D$schema"
}

bench_store_stop() {
	[ -n "${BENCH_PGDIR:-}" ] && tests/postgres.sh stop "$BENCH_PGDIR"
	return 0
}

# Run SQL on the bench's store (with sqlite3 or psql), printing rows bare.
bench_sql() {
	if [ "${STORE:-sqlite}" = postgres ]; then
		psql "$DB" -At -q -c "$1"
	else
		sqlite3 "$DB" "$1"
	fi
}
