"""`python -m bench.profile_frame [--scene NAME] [--frames N] [--top N]`: where a frame goes.

Runs the real `GameLoop` uncapped (as `bench_frame` does) for `--frames` frames under cProfile
and prints the functions with the most cumulative time. The figures are cProfile's, which adds
a cost to every Python call: read the shares, not the milliseconds.

By default the loop runs on a `ManualClock` that moves `--frame-ms` (1 ms) a frame, the frame
rate of a quiet machine: how often the graphs repaint and the world ticks (every 16th frame or
so at 60 Hz) depends on the frame's length, and on a loaded machine the wall clock would make
both look far commoner than they are. `--wall` profiles on the wall clock instead.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import argparse
import cProfile
import pstats
import sys

import pygame

from bench.bench_frame import UNCAPPED, split
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.window import Window
from game.clock.manual import ManualClock
from game.clock.wall import WallClock
from game.config.loading import load_config
from game.from_config import session_from
from timestep_lab import NS_PER_MS

SCENES = {"default": (), "split": (), "presentation": ("hud.presentation=true",)}


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_frame")
    parser.add_argument("--scene", choices=SCENES, default="default")
    parser.add_argument("--frames", type=int, default=1_500)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--sort", default="cumulative", help="a pstats sort key (tottime...)")
    parser.add_argument("--frame-ms", type=float, default=1.0, help="each frame's length")
    parser.add_argument("--wall", action="store_true", help="profile on the wall clock")
    args = parser.parse_args()
    config = load_config(None, (*UNCAPPED, *SCENES[args.scene]))
    pygame.display.init()
    pygame.font.init()
    window = Window(config.render.width, config.render.height, fullscreen=False, vsync=False)
    options = LoopOptions(print_hash=False, pause_on_focus_loss=False)
    manual = ManualClock()
    clock = WallClock() if args.wall else manual
    loop = GameLoop(session_from(config), window, clock, options)
    frame_ns = round(args.frame_ms * NS_PER_MS)
    if args.scene == "split":
        split(loop)
    loop.warm_up()
    for _ in range(60):  # fonts, sprites and the first graph pictures, outside the profile
        loop.run_frame()
        manual.move_on(frame_ns)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.frames):
        loop.run_frame()
        manual.move_on(frame_ns)
    profile.disable()
    stats = pstats.Stats(profile, stream=sys.stdout)
    stats.sort_stats(args.sort).print_stats(args.top)
    pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
