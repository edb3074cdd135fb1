"""Headless runs: the game's own frame loop on a virtual clock (`runner`), what happens
during a run (`timeline`), a scenario played out (`simulation`), the virtual display at the
end of the loop (`display_run`), the slow-spiral watch (`growth`), the progress bar
(`progress`) and one run per input model (`input_runs`).

Add here: a new way to run frames headless.
"""
