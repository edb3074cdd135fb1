"""Time as the game counts it: exact integer nanoseconds and exact rationals.

Only the app loop reads a real clock (`time.perf_counter_ns`). Everything downstream receives
durations, never timestamps, so the same code runs on the wall clock and on a virtual one: each
frame's length comes from a `timestep_lab.FrameSource`, whichever clock answers.
"""
