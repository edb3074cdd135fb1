"""The pure core of a running game: one frame's plan, ticks and books, without pixels.

The real pygame loop and the headless virtual-clock runs drive the same session code, so what a
workshop plots is what a player saw.
"""
