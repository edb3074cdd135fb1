"""The display at the end of the loop: when a finished frame is shown, and how smooth it looks.

`model` is the virtual display for headless runs (refresh, vsync, present queue, VRR), `vrr` its
variable-refresh panel (repeats, low framerate compensation), `judder` the meter that compares
what was drawn with where things truly were when it was shown, and `latency` the display's share
of input-to-photon latency. Pure and exact: no pygame, no clock.
"""
