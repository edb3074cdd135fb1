"""The HUD: what the game says about its own loop, drawn over the scene.

Two layers, so the words can be tested without pixels:

- pure (no pygame): `hud_colours` (colours and what they mean), `stats` (a `Readout` turned
  into rows of text), `graph_bins` (the frame history binned into graph columns), `layout`
  (where everything goes on the window);
- drawing (pygame-ce): `text` (fonts and the rendered-text cache), `plate`, `panel`, `graphs`,
  `help`, `banner`, and `hud`, which lays them out on the window.

Every on-screen piece has the same shape: `update(...)` from plain values, then `draw(surface)`.
None of them reads the clock or handles events; the app loop does both.
"""
