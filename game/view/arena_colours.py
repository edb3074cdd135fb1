"""The scene's colours, in one place so the look can be tuned without reading the drawing code.

A dark night-blue arena lets the bodies carry the colour: warm amber for projectiles (what the
cannon fires), cool teal for spring bobs, steel for the machinery. The overlays use colours no
body has: lilac for the exact-physics ghost, pink for raw tick positions, so a glance tells the
picture from the truth.
"""

from __future__ import annotations

from game.view.raster import Colour

LETTERBOX: Colour = (7, 9, 15)
SKY_TOP: Colour = (12, 17, 31)
SKY_HORIZON: Colour = (27, 38, 62)
OUTSIDE_DIM = 0.55
"""Sky beside the arena (where projectiles are removed) is this much darker."""
EARTH: Colour = (13, 16, 23)
GROUND_LINE: Colour = (96, 214, 180)
GRID_MINOR_ALPHA = 0.035
"""Grid lines every metre: barely there, just enough to read speeds against."""
GRID_MAJOR_ALPHA = 0.085
"""Every five metres."""
GRID_COLOUR: Colour = (190, 210, 255)
LABEL: Colour = (92, 108, 140)
VIGNETTE = 0.3
"""How much darker the backdrop's corners are than its middle."""

PROJECTILE: Colour = (255, 174, 56)
PROJECTILE_RIM: Colour = (122, 58, 12)
PROJECTILE_SEAM: Colour = (138, 66, 18)
PROJECTILE_NOSE: Colour = (255, 246, 222)

BOB: Colour = (64, 210, 200)
BOB_RIM: Colour = (16, 82, 92)
BOB_SPOKE: Colour = (14, 96, 104)
BOB_HUB: Colour = (226, 255, 250)

COIL: Colour = (150, 164, 192)
COIL_SHADOW: Colour = (52, 62, 84)
MOUNT: Colour = (104, 116, 142)
MOUNT_PIN: Colour = (200, 210, 228)

CANNON: Colour = (96, 108, 134)
CANNON_DARK: Colour = (46, 54, 72)
CANNON_BAND: Colour = (176, 188, 210)

GHOST: Colour = (196, 168, 255)
TICK_MARKER: Colour = (255, 86, 150)
