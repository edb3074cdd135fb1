"""Slide figures of runs, each written as PNG and SVG in a light or dark theme:
the figures (`slides`), what they mark beside the frames (`marks`), a run as arrays
(`frame_series`), themes and saving (`plotting`).

Add here: a new figure of a run.
"""
