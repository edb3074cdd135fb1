"""Workshop tools: the game's own pipeline, run headless on a virtual clock.

One folder per job, so a new file format or a new figure knows its room. Each folder imports
only from the folders listed above it (`tests/test_architecture.py` checks it):

- `files/`: file formats read and written (scenarios, recordings, input scripts, lessons,
  output), and the `timeline` of stalls, changes and inputs they become.
- `runs/`: headless runs (`runner`, `simulation`, `display_run`, `input_runs`, `growth`).
- `tables/`: runs as readable tables and CSV (frames, the frame-edge formula, judder).
- `figures/`: slide figures of runs (PNG and SVG, light and dark).
- `captures/`: real games' frame times (`game.capture`) run through the policies: reports,
  the display side, headroom, figures.
- `sweep/`: the spiral map: a grid of runs in parallel, measured beside the theory.
- `claims/`: what a lesson step's caption claims, measured from its demo.
- `clips/`: the real game loop filmed (cues, GIF and MP4 files).
- `handout/`: the static page built from all of the above.

Read `files/timeline`, then `runs/runner`, then `runs/simulation` first. The virtual clock
itself is `game.clock.virtual`. Nothing here imports pygame or reads a real clock, so every run
is the same on every machine.
"""
