"""The display at the end of the loop: when a finished frame is shown, and how smooth it looks.

`model` is the virtual display for headless runs (refresh, the present modes: the queue, latest
frame wins and immediate, VRR), `grid` a display's refresh grid fitted from the times a capture's
frames reached the screen, `vrr` its variable-refresh panel (repeats, low framerate
compensation), `judder` the meter that compares what was drawn with where things truly were when
it was shown, and `latency` the display's share of input-to-photon latency. Pure and exact: no
pygame, no clock.
"""
