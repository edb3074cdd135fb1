"""`python -m game` runs the command line (the game itself when no subcommand is given)."""

import sys

from game.cli import main

sys.exit(main())
