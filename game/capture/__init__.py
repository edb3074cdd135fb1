"""Frame-time captures from real games: PresentMon, CapFrameX and MangoHud files, read exactly.

A capture is what a game's frames really took on someone's machine. This package only reads
those files (streamed, within `game.limits`) into `CapturedFrame`s and says what it skipped and
why; running them through the policies and the display model is the workshop's job
(`game.workshop.captures`), and playing them live is the app's (`--capture`).

The one way in is `open_capture(path, *, process=None, swapchain=None, column="presents")` in
`game.capture.reading`, which detects the format and layout from the file's first lines and
returns a `Capture` (`game.capture.frame`).
"""
