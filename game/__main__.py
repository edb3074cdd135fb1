"""`python -m game` runs the command line (the game itself when no subcommand is given).

This is also the one-file bundle's entry point (`timestep-lab.spec`), and `run` is the
installed `timestep-lab` command's.

The stop signals are handled from the first line to the last (`game.stopping`): before the
game is imported a signal is noted (the command then stops as it starts, in one line), and
once the command has finished it is ignored, so that no signal ever kills the program with its
default action, however early or late it comes.
"""

import sys

from game.stopping import ignore_stops, stop_point, stops_from_the_start


def run() -> None:
    """The command line, with the stop signals handled from its first line to its exit."""
    stops_from_the_start()
    import multiprocessing

    # Where worker processes are spawned (Windows, macOS) they import this module again: the
    # guard below keeps them from running the command, and in the bundle `freeze_support` makes
    # them the workers (`handout`, `sweep`) rather than a second copy of the game.
    multiprocessing.freeze_support()
    stop_point("imports")
    from game.cli import main

    code = main()
    ignore_stops()
    sys.exit(code)


if __name__ == "__main__":
    run()
