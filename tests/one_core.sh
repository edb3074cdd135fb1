#!/usr/bin/env bash
# Run a command pinned to core 0 while a busy loop holds the same core (a weak laptop, or a
# CI machine shared with a build): a test that passes only on a fast, quiet machine fails here.
# The busy loop is ended however the command ends; the command's exit code is this script's.
set -u
taskset -c 0 python3 -c 'while True: pass' &
busy=$!
trap 'kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null' EXIT
taskset -c 0 "$@"
