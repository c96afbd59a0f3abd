#!/usr/bin/env bash
# `make run`: start warplab-runner and warplab-server in the foreground on one
# store (var/warplab.db), print the dashboard's address, and stop both cleanly on
# Ctrl-C. If either exits on its own, the other is stopped too, so a broken half
# is never left running unnoticed.
#   WARPLAB_LISTEN  address to serve on (default 127.0.0.1:8080)
#   WARPLAB_DB      store file (default var/warplab.db)
set -u
build=${1:-build}
listen=${WARPLAB_LISTEN:-127.0.0.1:8080}
db=${WARPLAB_DB:-var/warplab.db}
mkdir -p "$(dirname "$db")"

"$build/warplab-runner" --db "$db" --kernels kernels &
runner=$!
"$build/warplab-server" --listen "$listen" --db "$db" --www www --catalog kernels/catalog.json &
server=$!

# Ctrl-C reaches both programs directly (same process group) and this script;
# the trap only notes it, so the ending below can tell a stop from a crash.
interrupted=0
trap 'interrupted=1' INT TERM

sleep 0.5
if kill -0 "$server" 2>/dev/null; then
	echo "warplab: dashboard at http://$listen/  (store $db; Ctrl-C stops both)"
	echo "warplab: try  curl -s -X POST -H 'Content-Type: application/json' -d '{\"experiment\":\"transpose\",\"params\":{\"n\":{\"from\":256,\"to\":1024,\"step\":256}}}' http://$listen/api/runs"
fi

wait -n "$runner" "$server"
status=$?
if [ "$interrupted" -eq 0 ]; then
	if kill -0 "$server" 2>/dev/null; then
		echo "warplab: the runner exited (status $status); stopping the server" >&2
	else
		echo "warplab: the server exited (status $status); stopping the runner" >&2
	fi
fi
kill -TERM "$runner" "$server" 2>/dev/null
wait "$runner" "$server" 2>/dev/null
if [ "$interrupted" -eq 1 ]; then
	echo "warplab: stopped"
	exit 0
fi
exit "$status"
