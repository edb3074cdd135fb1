"""The game's side of the scheduler, which is the package `timestep_lab` (the exact fixed-step
core, a library of its own): the JSON shape of a plan that `schedule` and `simulate` print
(`records.py`), the naive float accumulator every benchmark measures it against (`naive.py`),
and the frames that hold each conditioning mode to its promise (`carry_bounds.py`)."""
