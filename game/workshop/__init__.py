"""Workshop tools: the game's own pipeline, run headless on a virtual clock.

Read in this order:

- `timeline`: what happens during a run, stamped with a wall time (knobs, stalls, pauses) or
  with a tick (inputs, recorded commands, tick-rate changes).
- `runner`: `run_headless`, the game's frame loop with a frame source (the virtual clock, a
  display, a recording) where the player would be, and the precise meaning of `spiral`.
- `simulation`: a scenario played out on the game's own session (`game.from_config`).
- `scenario`, `scenario_loading`: scenario files (`configs/scenarios/`) and the flags on top.
- `recording`, `replay_file`: the JSON-lines record of a session, written and read back.
- `tables`: readable tables and CSV files.
- `output`: where they go: folders made first, files written whole, never over an input.
- `frame_series`, `figure_marks`, `figures`, `plotting`: the slide-ready plots (each value at its
  frame's end), their light and dark themes, each written as PNG and SVG.
- `sweep_grid`, `sweep`, `frontier`, `sweep_report`, `sweep_figures`: the spiral map: a grid
  of runs in parallel, measured, beside the theory of where the loop stops keeping up.
- `lessons`: the guided lessons (`configs/lessons/`) the game plays with L and N.

The virtual clock itself is `game.clock.virtual`. Nothing here imports pygame or reads a real
clock, so every run is the same on every machine.
"""
