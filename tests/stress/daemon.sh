#!/bin/sh
# A contestant that leaves a daemon, as daemon.py does, but with setsid(1) in a
# background subshell: `sleep 1000` in a new session, its pid appended to $1. Once it
# is written, the contestant becomes the rest of the arguments (or `sleep 1000`).
list=$1
shift
ready=$list.ready.$$
( setsid sh -c 'sleep 1000 & echo $! >> "$1"; : > "$2"' sh "$list" "$ready" & )
while [ ! -e "$ready" ]; do sleep 0.01; done
rm -f "$ready"
if [ $# -eq 0 ]; then exec sleep 1000; fi
exec "$@"
