"""Clips: the real game loop filmed on a manual clock: a scenario's timeline handed to
the loop (`cues`) and the GIF or MP4 files written (`files`).

Add here: a new clip format or cue.
"""
