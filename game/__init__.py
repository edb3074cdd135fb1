"""Timestep Lab: the fixed-timestep game loop, visible and playable.

Time flows through the packages in this order; each one only receives what the one before hands
it, so the folders read as the data flow:

    clock/      exact time units; the wall clock (only the app loop reads it) and a virtual one
    scheduler/  wall-clock durations in, whole fixed ticks out (StepPlan), under an overload policy
    display/    the display at the end of the loop: vsync, present queue, VRR, judder, latency
    capture/    real games' frame times, read exactly from PresentMon, CapFrameX and MangoHud files
    network/    a remote peer on a simulated link or a real one over UDP: inputs, packets, time sync
    world/      the fixed-tick simulation: projectiles and springs, previous/current buffers
    session/    one frame without pixels: plan, run the ticks, keep the books (used by all modes)
    view/       draws a read-only, interpolated view of the world
    hud/        draws the numbers, the graphs and the help
    app/        the pygame loop that ties them: events -> clock -> session -> view/HUD -> pace
    knobs/      every setting declared once: its type, range, ladder, scope, where it may be set
    config/     settings files (TOML, validated)
    workshop/   headless runs on the virtual clock, file formats, figures, tables, sweeps, clips,
                the lessons' claims
    commands/   the command line: play, schedule, lab, simulate, compare, sweep, replay, inputs,
                clip, handout, judder, lessons, scenarios, capture

Beside them: `errors` (BadInput, the one way bad input leaves), `limits` (every bound on input
and work, stated once), `file_reading` (reading a file within its limit) and `arguments` (strict
types for command-line flags).
"""

import os

# pygame prints a greeting on import; a command-line tool should print only what was asked for.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
