#!/bin/sh
# Entrypoint of the pg_auto_failover image (built by build.sh in this folder):
# runs pg_autoctl with the container's arguments, such as
#   create monitor --hostname monitor --auth trust --no-ssl --run
#   create postgres --name node1 --monitor postgres://autoctl_node@monitor/pg_auto_failover ... --run
# `create ... --run` creates the node on the first start and runs the
# existing one on later starts.
#
# pg_autoctl refuses to start while its pid file names a live process. After
# docker kill and docker start the file is still in /tmp and names pid 1,
# which is this very process again: the runtime files of the previous run are
# removed first (one pg_autoctl per container, so none of them is live).
set -eu
rm -rf "${XDG_RUNTIME_DIR:-/tmp}/pg_autoctl"
if [ "$#" -eq 0 ]; then
	set -- --help
fi
exec pg_autoctl "$@"
