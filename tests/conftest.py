"""Test set-up: no test ever opens a real window or a sound device unless it says so.

The dummy drivers are set here, before anything imports pygame; the one real-window test starts
its own process under Xvfb with its own environment.
"""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
