#!/bin/sh
# The README's two commands:
#   ./quickstart.sh         install what is missing, build, open the wizard
#   ./quickstart.sh test    install what is missing, build, run every test
# Builds out of tree in build/ (and build-asan/ for the sanitizer run).
set -eu
cd "$(dirname "$0")"
top=$(pwd)
mode=${1:-run}

packages="build-essential autoconf automake pkg-config libncurses-dev libyaml-dev libcsv-dev check"
# tests: tmux drives the wizard, valgrind checks leaks, clang builds the fuzzers,
# pmccabe measures every function's size and complexity
# xmllint (libxml2-utils) checks that the proposal's HTML is well-formed and
# WeasyPrint (weasyprint) that it prints on two A4 or Letter pages
[ "$mode" = run ] || packages="$packages tmux mandoc valgrind clang libclang-rt-14-dev pmccabe libxml2-utils weasyprint"

install_missing() {
	missing=
	for p in $packages; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "quickstart: installing Debian packages:$missing"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

build() {	# build DIR [configure args...]
	dir=$1
	shift
	[ -x configure ] && [ configure -nt configure.ac ] && [ -e build-aux/tap-driver.sh ] || autoreconf -fi
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || "$top/configure" --enable-werror "$@" >/dev/null; } && make -j"$(nproc)" >/dev/null)
}

install_missing
case $mode in
run)
	build build
	exec build/accelsizer "$@"
	;;
test)
	build build
	status=0
	(cd build && make -j"$(nproc)" check) || status=$?
	sh "$top/tests/summary.sh" build/test-suite.log
	exit $status
	;;
*)
	echo "usage: ./quickstart.sh [test]" >&2
	exit 2
	;;
esac
