"""One module per subcommand of `python -m game`: `add_arguments(parser)` and `run(args)`."""
