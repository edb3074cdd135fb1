"""`python -m bench.frame_parts [--scene NAME] [--frames N]`: CPU time of each part of a frame.

Wraps the frame's parts (the loop's readout, the picture, the renderer and its springs, the HUD
and its panel, graphs and press strip...) with a timer of this thread's CPU time, runs the real
`GameLoop` uncapped on a `ManualClock` of 1 ms a frame (as `bench_frame`'s virtual section),
and prints each part's mean per frame: the figures of BENCHMARKS.md's notes on the frame. Parts
nest (the picture includes the HUD), so they do not add up. Unlike cProfile, only these calls
pay for the measuring.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import argparse
import functools
import importlib
import sys
import time
from typing import Any

import pygame

from bench.bench_frame import UNCAPPED, VIRTUAL_FRAME_NS, split
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.window import Window
from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.from_config import session_from

PARTS = [
    ("game.app.loop", "GameLoop.run_frame"),
    ("game.app.loop", "GameLoop.readout"),
    ("game.app.picture", "Picture.draw"),
    ("game.app.picture", "Picture.layout"),
    ("game.app.judder_watch", "JudderWatch.drew"),
    ("game.view.world_renderer", "WorldRenderer.draw"),
    ("game.view.world_renderer", "WorldRenderer._draw_few"),
    ("game.view.springs", "CoilBook.draw"),
    ("game.view.stage", "Stage.draw_backdrop"),
    ("game.view.stage", "Stage.draw_cannon"),
    ("game.app.picture", "draw_avatar"),
    ("game.hud.hud", "Hud.draw"),
    ("game.hud.panel", "StatsPanel.update"),
    ("game.hud.panel", "StatsPanel.draw"),
    ("game.hud.graphs", "FrameGraphs.update"),
    ("game.hud.graphs", "FrameGraphs.draw"),
    ("game.hud.press_strip", "PressStrip.draw"),
]
SCENES = {"default": (), "split": (), "presentation": ("hud.presentation=true",)}


def timed(spent: dict[str, int]) -> None:
    """Wrap every part so that its CPU time adds up in `spent`, by name."""
    for module_name, name in PARTS:
        owner: Any = importlib.import_module(module_name)
        *outer, attribute = name.split(".")
        for part in outer:
            owner = getattr(owner, part)
        original = getattr(owner, attribute)

        def wrapper(*args: Any, _original: Any = original, _name: str = name, **kw: Any) -> Any:
            start = time.thread_time_ns()
            try:
                return _original(*args, **kw)
            finally:
                spent[_name] = spent.get(_name, 0) + time.thread_time_ns() - start

        setattr(owner, attribute, functools.wraps(original)(wrapper))


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.frame_parts")
    parser.add_argument("--scene", choices=SCENES, default="default")
    parser.add_argument("--frames", type=int, default=600)
    args = parser.parse_args()
    spent: dict[str, int] = {}
    timed(spent)
    pygame.display.init()
    pygame.font.init()
    config = load_config(None, (*UNCAPPED, *SCENES[args.scene]))
    window = Window(config.render.width, config.render.height, fullscreen=False, vsync=False)
    clock = ManualClock()
    options = LoopOptions(print_hash=False, pause_on_focus_loss=False)
    loop = GameLoop(session_from(config), window, clock, options)
    if args.scene == "split":
        split(loop)
    loop.warm_up()
    for frame in range(60 + args.frames):
        if frame == 60:
            spent.clear()  # fonts, sprites and the first pictures: not the steady frame
        loop.run_frame()
        clock.move_on(VIRTUAL_FRAME_NS)
    for name, total in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"{name:34s} {total / args.frames / 1_000:8.1f} us a frame")
    pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
