"""Captures run through the lab: the policies (the `capture` command) and the display side."""
