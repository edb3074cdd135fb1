"""Workshop tools: the game's own pipeline, run headless on a virtual clock.

One folder per job, so a new file format or a new figure knows its room:

- `runs/`: headless runs (`runner`, `timeline`, `simulation`, `display_run`, `growth`).
- `files/`: file formats read and written (scenarios, recordings, input scripts, lessons, output).
- `figures/`: slide figures of runs (PNG and SVG, light and dark).
- `tables/`: runs as readable tables and CSV (frames, the frame-edge formula, judder).
- `sweep/`: the spiral map: a grid of runs in parallel, measured beside the theory.
- `clips/`: the real game loop filmed (cues, GIF and MP4 files).
- `handout/`: the static page built from all of the above.

Read `runs/timeline`, then `runs/runner`, then `runs/simulation` first. The virtual clock
itself is `game.clock.virtual`. Nothing here imports pygame or reads a real clock, so every run
is the same on every machine.
"""
