"""Frame-time captures from real games: PresentMon, CapFrameX and MangoHud files, read exactly.

A capture is what a game's frames really took on someone's machine. This package only reads
those files (streamed, within `game.limits`) into `CapturedFrame`s and says what it skipped and
why; running them through the policies and the display model is the workshop's job
(`game.workshop.captures`), and playing them live is the app's (`--capture`).

The one way in is `open_capture(path, *, process=None, swapchain=None, column="presents")` in
`game.capture.reading`, which detects the format and layout from the file's first lines and
returns a `Capture` (`game.capture.frame`). Every reader reads its input once, front to back (a
pipe cannot be read twice), and holds the kept frames as columns. Behind it, one concept a
module:

    source.py              the input, opened once and read once (a file, a pipe, a FIFO)
    decimals.py            a cell's decimal as exact ns (`decimal_ns`)
    lines.py               the input's lines streamed in chunks, within the limits
    presentmon.py          PresentMon's layouts and the rules that make a row a frame, row by row
    columns.py             a chunk of CSV cut into cells and read as ns with numpy
    presentmon_columns.py  the same rules a chunk at a time (held to `presentmon.py` by tests)
    presentmon_chains.py   one process and swap chain's counts and frames while the file is read
    selection.py           which process and swap chain are kept (not the compositor)
    presentmon_file.py     a PresentMon CSV (and CapFrameX's CSV export): its kept frames
    damage.py              the kept rows lost to damage, warned of or refused
    frame_columns.py       the kept frames as arrays, for a run over the whole capture
    session_json.py        a CapFrameX session's JSON: its outline by `json`, arrays by numpy
    capframex.py           a CapFrameX session's first run
    mangohud.py            a MangoHud log, frame by frame or sampled
"""
