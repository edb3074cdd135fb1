"""`python -m game` runs the command line (the game itself when no subcommand is given).

This is also the one-file bundle's entry point (`timestep-lab.spec`).
"""

import multiprocessing
import sys

from game.cli import main

if __name__ == "__main__":
    # Where worker processes are spawned (Windows, macOS) they import this module again: the
    # guard keeps them from running the command, and in the bundle `freeze_support` makes them
    # the workers (`handout`, `sweep`) rather than a second copy of the game.
    multiprocessing.freeze_support()
    sys.exit(main())
