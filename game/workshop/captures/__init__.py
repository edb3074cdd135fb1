"""A real game's frame times through the policies: what `python -m game capture` computes.

One concept a module, in the order the command uses them:

    frame_times     the capture's frames streamed once into int64 arrays (`FrameTimes`)
    open_loop       each policy's plan for every frame, exactly, open loop (`run_open_loop`)
    presses         frame-edge presses lost and doubled: the input lab's formula on arrays
    policy_figures  what one policy did at one tick rate (`PolicyFigures`, the `--json` keys)
    headroom        the added step cost at which a policy stops keeping up (closed loop)
    analysis        every policy at every tick rate, the headroom on worker processes
    hitches         the one rule for a hitch
    report          the text report and the `--json` lines
    frames_csv      `--out`'s per-frame CSV
    figure          `--out`'s slide: frame times, hitches, ticks per frame per policy
    display_columns whether and when each frame reached the screen, read on the same pass
    display_side    the virtual display on the capture's present times, beside the capture
    display_options the display side's flags, and when it cannot run
    display_report  its lines in the report, and `--out`'s `display.csv`
"""
