"""Every knob of the game, declared once: `KNOBS`.

A knob is one setting a person can turn. Its row says what it is (its value and default, its
unit, the range or the choices it takes, the ladder a key climbs), how far it reaches (`Scope`:
one lane, the whole session, or only the picture) and where it may be set (`Where`: a config
file, `--set`, a key, a lesson step, a scenario's `[[changes]]`). Everything else is read off
this table rather than written out again:

- the config model's sections and their validation (`game.config.model`),
- the shipped `configs/default.toml`, comments included (`game.config.default_file`),
- a config's starting `Controls` (`game.from_config`) and `ControlsChange`'s names, its
  picture-only set included (`game.session.controls`),
- a scenario's `[[changes]]` and what a change turns (`game.workshop.files.scenario`, `timeline`),
- a lesson step's settings (`game.workshop.files.lessons`),
- the help overlay's rows for the knobs that have a key (`game.app.keymap`).

So adding a knob is its row in `table.py`, its effect and its tests, and then
`python -m game.config.default_file --write`. One list is kept beside the table on purpose:
`Controls`' fields, which the loop reads every frame and a type checker must see, so a new live
control adds its field there too (`tests/test_knobs.py` keeps the two equal). The table is plain
data: nothing in it runs per frame, and the layers above build their own types from it once, at
import (`game.config.knob_fields`).
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
