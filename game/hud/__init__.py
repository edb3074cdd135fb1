"""The HUD: what the game says about its own loop, drawn over the scene.

Two layers, so the words can be tested without pixels:

- pure (no pygame): `palette` (colours and what they mean), `stats` (a `Readout` turned into
  rows of text), `timeline` (the frame history binned into graph columns);
- drawing (pygame-ce): `text` (fonts and the rendered-text cache), `plate`, `panel`, `graphs`,
  `help`, `banner`, and `hud`, which lays them out on the window.

Every on-screen piece has the same shape: `update(...)` from plain values, then `draw(surface)`.
None of them reads the clock or handles events; the app loop does both.
"""
