"""Every knob of the game, declared once: `KNOBS`.

A knob is one setting a person can turn. Its row says what it is (its value and default, its
unit, the range or the choices it takes, the ladder a key climbs), how far it reaches (`Scope`:
one lane, the whole session, or only the picture), where it may be set (`Where`: a config file,
`--set`, a key, a lesson step, a scenario's `[[changes]]`), its keys and what each does
(`KnobKey`, `Move`), its row in the key help, and its command-line flag. Everything else is read
off this table rather than written out again:

- the config model's sections and their validation (`game.config.model`), and so `--set`,
- the shipped `configs/default.toml`, comments included (`game.config.default_file`),
- the live `Controls` and `ControlsChange` (`game.session.controls`), the keys that turn them
  and how (`game.knobs.moves`, `game.app.keymap`) and the help overlay's rows,
- a scenario's `[[changes]]` and what a change turns (`game.workshop.files.scenario`, `timeline`),
- a lesson step's settings (`game.workshop.files.lessons`),
- the flags of the commands that take a scenario's settings
  (`game.workshop.files.scenario_loading`).

The fields the models and records take from the table are also written out, typed, for the
type checker (`game.knobs.generate`). So adding a knob is its row in `table.py`, its effect and
its test, then `make generate` (which rewrites `configs/default.toml` and the typed fields);
`tests/test_knob_table_drives.py` adds a made-up row to a copy of the table and finds it in each
place. The table is plain data: nothing in it runs per frame, and the layers above build their
own types from it once, at import (`game.config.knob_fields`).
"""

from game.knobs.bounds import (
    FPS_CAPS,
    MAX_HZ,
    MAX_RENDER_FPS,
    MAX_SEED,
    MIN_HZ,
    partner_input_model,
)
from game.knobs.knob import FILE, Knob, KnobKey, Move, Range, Scope, Where
from game.knobs.lookup import (
    BY_SHORT_NAME,
    CONTROL_KNOBS,
    PICTURE_ONLY,
    config_sections,
    knob_at,
    knobs_of,
    knobs_where,
)
from game.knobs.table import KNOBS

__all__ = [
    "BY_SHORT_NAME",
    "CONTROL_KNOBS",
    "FILE",
    "FPS_CAPS",
    "KNOBS",
    "MAX_HZ",
    "MAX_RENDER_FPS",
    "MAX_SEED",
    "MIN_HZ",
    "PICTURE_ONLY",
    "Knob",
    "KnobKey",
    "Move",
    "Range",
    "Scope",
    "Where",
    "config_sections",
    "knob_at",
    "knobs_of",
    "knobs_where",
    "partner_input_model",
]
