"""`make bench`: the figures the issues name, each measured beside a baseline in the same run."""
