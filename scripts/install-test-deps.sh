#!/usr/bin/env bash
# Installs what the test suite needs from Debian's packages when it is
# missing: chromium for the browser test. (PostgreSQL, for the test image
# and the project-local database, is installed by postgres-image/build.sh.)
set -euo pipefail

[ -x /usr/bin/chromium ] && exit 0
if ! command -v apt-get >/dev/null; then
	echo "install-test-deps: install Chromium at /usr/bin/chromium for the browser test" >&2
	exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "install-test-deps: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 ||
	{ $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends chromium >/dev/null; }
