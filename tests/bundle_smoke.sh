#!/usr/bin/env bash
# Smoke test of the one-file bundle, run by `make bundle`: the game, a lesson, a scenario by
# name, a clip (through the bundled ffmpeg) and the quick handout, each started from a new empty
# folder with a PATH that holds no virtual environment (nor any Python the bundle could lean
# on) and the dummy video and sound drivers.
set -euo pipefail
bundle="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/home"
log="$scratch/output.txt"

run() {
    echo "smoke: timestep-lab $*"
    here="$(mktemp -d "$scratch/empty.XXXX")"
    (cd "$here" && env -i HOME="$scratch/home" PATH=/usr/local/bin:/usr/bin:/bin \
        SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$bundle" "$@") >"$log" 2>&1 \
        || { cat "$log"; echo "smoke: FAILED: timestep-lab $*"; exit 1; }
}

run --version
grep -q "inside this one-file bundle" "$log"
run --licences
grep -q "GNU GENERAL PUBLIC LICENSE" "$log"
run --frames 5
run --lesson 2 --frames 5
run simulate --scenario spiral --seconds 2
run clip --lesson 1 --seconds 1 --size 640x360 --fps 10 --out clip.mp4
test -s "$here/clip.mp4"
run handout --quick --out handout
test -s "$here/handout/index.html"
echo "smoke: the bundle ran every command from an empty folder (${SECONDS} s)"
