"""Runs as text: readable tables and CSV of a run's frames (`frames`), the
frame-edge formula's table (`frame_edge`), the judder table (`judder`).

Add here: a new table a command prints.
"""
