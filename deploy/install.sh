#!/bin/sh
# Install warplab: `make install PREFIX=/usr/local DESTDIR=` runs this.
#   deploy/install.sh DESTDIR PREFIX BUILD
# Binaries to PREFIX/bin; the dashboard and the kernels to PREFIX/share/warplab;
# docs to PREFIX/share/doc/warplab; the example config to
# /etc/warplab/warplab.conf (an existing one is kept, the new one written beside
# it as warplab.conf.new); the systemd units and the sysusers entry where
# systemd looks for them (/usr/lib/... for PREFIX=/usr, /etc/... otherwise).
# With no DESTDIR and as root, it also creates the user and reloads systemd.
set -eu
destdir=${1:-}
prefix=${2:-/usr/local}
build=${3:-build}
cd "$(dirname "$0")/.."

bindir="$prefix/bin"
datadir="$prefix/share/warplab"
docdir="$prefix/share/doc/warplab"
statedir=/var/lib/warplab
if [ "$prefix" = /usr ]; then
	unitdir=/usr/lib/systemd/system
	sysusersdir=/usr/lib/sysusers.d
else
	unitdir=/etc/systemd/system
	sysusersdir=/etc/sysusers.d
fi

for f in "$build/warplab-server" "$build/warplab-runner" "$build/warplab-store" "$build/libwarplab-trace.so" "$build/warplab-cuda-ir" www/vendor/chart.umd.js; do
	[ -e "$f" ] || { echo "install: $f is missing: run make first" >&2; exit 1; }
done

render() {
	sed -e "s|@BINDIR@|$bindir|g" -e "s|@DATADIR@|$datadir|g" -e "s|@DOCDIR@|$docdir|g" \
	    -e "s|@STATEDIR@|$statedir|g" "$1"
}

install -d "$destdir$bindir" "$destdir$datadir" "$destdir$docdir" "$destdir/etc/warplab" \
	"$destdir$unitdir" "$destdir$sysusersdir"
install -m 0755 "$build/warplab-server" "$build/warplab-runner" "$build/warplab-store" "$destdir$bindir/"
# The tracer's Oclgrind plugin and its CUDA converter, where warplab-runner
# looks for them (WL_LIBDIR).
install -d "$destdir$prefix/lib/warplab"
install -m 0644 "$build/libwarplab-trace.so" "$destdir$prefix/lib/warplab/"
install -m 0755 "$build/warplab-cuda-ir" "$destdir$prefix/lib/warplab/"
rm -rf "$destdir$datadir/www" "$destdir$datadir/kernels"
cp -R www "$destdir$datadir/www"
cp -R kernels "$destdir$datadir/kernels"
install -m 0644 README.md docs/*.md "$destdir$docdir/"
for unit in warplab-server.service warplab-runner.service warplab-lab-runner.service; do
	render "systemd/$unit" > "$destdir$unitdir/$unit"
	chmod 0644 "$destdir$unitdir/$unit"
done
render deploy/warplab.sysusers > "$destdir$sysusersdir/warplab.conf"
if [ -e "$destdir/etc/warplab/warplab.conf" ]; then
	render deploy/warplab.conf > "$destdir/etc/warplab/warplab.conf.new"
	echo "install: kept /etc/warplab/warplab.conf; the new example is warplab.conf.new"
else
	render deploy/warplab.conf > "$destdir/etc/warplab/warplab.conf"
fi
chmod 0644 "$destdir"/etc/warplab/warplab.conf*

if [ -z "$destdir" ] && [ "$(id -u)" -eq 0 ] && command -v systemctl >/dev/null 2>&1 &&
	[ -d /run/systemd/system ]; then
	systemd-sysusers "$sysusersdir/warplab.conf"
	systemctl daemon-reload
	echo "install: done; start with: systemctl enable --now warplab-server warplab-runner"
else
	echo "install: files under ${destdir:-/}; then: systemd-sysusers, systemctl daemon-reload, systemctl enable --now warplab-server warplab-runner"
fi
