"""Two files written from the knob table: every knob's field, typed.

The models and records that hold knobs take their fields from the table at import
(`game.config.knob_fields`), where a type checker does not look. So that it still sees each
field, with its type, this module writes them out, and the classes inherit them:

- `game/config/knob_types.py`: a config section's and a scenario section's fields
  (`SchedulerKnobs`, ...) and a lesson step's and a scenario change's (`LessonKnobs`,
  `ChangeKnobs`, each optional), seen by the type checker only (pydantic makes the real ones,
  `game.config.knob_fields`);
- `game/knobs/generated.py`: `ControlFields`, the live controls, the record the loop reads
  every frame, with their defaults; and `ControlChangeValues`, `ChangeValues`, what a change of
  the controls and a scenario's change turn each to (None where they do not).

So a misspelt setting (`config.scheduler.max_stepz`) is an error `make lint` reports, and a new
knob is its row, its effect and its test: then `python -m game.knobs.generate --write` (`make
generate`). `--check` (the default) exits 1 when the file on disk is stale.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from game.knobs.knob import Knob, Scope, Where
from game.knobs.table import KNOBS
from timestep_lab import AlphaMode

GENERATED = Path(__file__).with_name("generated.py")
"""The records and their typed views (for `game.session` and `game.workshop`)."""
KNOB_TYPES = Path(__file__).parents[1] / "config" / "knob_types.py"
"""The file sections' and steps' models, as a type checker sees them (for `game.config` and
the scenario and lesson files): pydantic models whose fields only the type checker reads."""
REGENERATE = "python -m game.knobs.generate --write"
CONFIG_SECTIONS = (
    "scheduler",
    "render",
    "world",
    "load",
    "hud",
    "overlays",
    "app",
    "input",
    "network",
)
SCENARIO_SECTIONS = ("clock",)

HEADER = f'''"""{{what}}, written from the knob table (`game.knobs.table`) by
`{REGENERATE}`: do not edit. `game.knobs.generate` says why it exists."""

from __future__ import annotations

'''
RECORD_IMPORTS = """from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from timestep_lab import AlphaMode"""
MODEL_IMPORTS = """from fractions import Fraction
from typing import TYPE_CHECKING

from game.config.section import Section"""


def _type(knob: Knob, *, control: bool = False) -> str:
    if control and knob.scope is Scope.LANE:
        return "tuple[str, ...]"
    if control and knob.as_control is not None:
        return type(knob.control_value(knob.default)).__name__
    kind = knob.kind
    return kind.__name__ if isinstance(kind, type) else str(kind)  # a union: "bool | str"


def _literal(value: Any) -> str:
    """`value` as Python source, written as the formatter writes it."""
    if isinstance(value, Fraction):
        terms = (value.numerator, value.denominator) if value.denominator != 1 else (value,)
        return f"Fraction({', '.join(str(term) for term in terms)})"
    if isinstance(value, tuple):
        items = ", ".join(_literal(item) for item in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, AlphaMode):
        return f"AlphaMode.{value.name}"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _model(name: str, about: str, fields: Iterable[str]) -> list[str]:
    """A pydantic model whose fields only a type checker sees (the table makes the real ones)."""
    lines = [f"\n\nclass {name}(Section):", f'    """{about}"""', "", "    if TYPE_CHECKING:"]
    return lines + [f"        {field}" for field in fields]


def _record(name: str, about: str, fields: Iterable[str]) -> list[str]:
    lines = ["\n\n@dataclass(frozen=True, slots=True)", f"class {name}:", f'    """{about}"""', ""]
    return lines + [f"    {field}" for field in fields]


def knob_types_text(knobs: Sequence[Knob] = KNOBS) -> str:
    """`game/config/knob_types.py`, as it should be on disk, for the table `knobs`."""
    lines = [HEADER.format(what="The knobs of each file section, typed") + MODEL_IMPORTS]
    for section in (*CONFIG_SECTIONS, *SCENARIO_SECTIONS):
        fields = [
            f"{k.key}: {_type(k)} = {_literal(k.default)}"
            for k in knobs
            if k.section == section and (section in SCENARIO_SECTIONS or Where.CONFIG in k.where)
        ]
        about = f"`[{section}]`'s knobs, as a type checker sees them."
        lines += _model(f"{section.title()}Knobs", about, fields)
    for name, where, what in (
        ("LessonKnobs", Where.LESSON, "A lesson step's knobs"),
        ("ChangeKnobs", Where.CHANGE, "A scenario change's knobs"),
    ):
        fields = [f"{k.short}: {_type(k)} | None = None" for k in knobs if where in k.where]
        lines += _model(name, f"{what}, each None unless set.", fields)
    return "\n".join(lines) + "\n"


def generated_text(knobs: Sequence[Knob] = KNOBS) -> str:
    """`game/knobs/generated.py`, as it should be on disk, for the table `knobs`."""
    lines = [HEADER.format(what="Every live knob's field, typed") + RECORD_IMPORTS]
    controls = [k for k in knobs if k.control]
    lines += _record(
        "ControlFields",
        "The live controls, at their defaults (`game.session.controls.Controls`).",
        (
            f"{k.control}: {_type(k, control=True)} = {_literal(k.control_value(k.default))}"
            for k in controls
        ),
    )
    lines += _values(
        "ControlChangeValues",
        "Each live control's new value, None unless the change turns it (`ControlsChange`).",
        ((k.control, f"{_type(k, control=True)} | None") for k in controls),
    )
    lines += _values(
        "ChangeValues",
        "Each knob a scenario change may turn, None unless it turns it (`SettingsChange`).",
        ((k.short, f"{_type(k)} | None") for k in knobs if Where.CHANGE in k.where),
    )
    return "\n".join(lines) + "\n"


WRITTEN = {GENERATED: generated_text, KNOB_TYPES: knob_types_text}


def _values(name: str, about: str, fields: Iterable[tuple[str, str]]) -> list[str]:
    """A mixin of typed properties, each reading the value the class holds by that name."""
    lines = [f"\n\nclass {name}:", f'    """{about}"""', "", "    __slots__ = ()", ""]
    lines += [
        "    def _turned_value(self, name: str) -> object:",
        '        """The value turned by that name, or None."""',
        "        raise NotImplementedError",
    ]
    for field, annotation in fields:
        lines += [
            "",
            "    @property",
            f"    def {field}(self) -> {annotation}:",
            f'        return cast("{annotation}", self._turned_value("{field}"))',
        ]
    return lines


def stale() -> list[Path]:
    """The generated files whose text on disk is not what the table says."""
    return [
        path
        for path, text in WRITTEN.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text()
    ]


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        for path, text in WRITTEN.items():
            path.write_text(text(), encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if argv not in ([], ["--check"]):
        print("usage: python -m game.knobs.generate [--check | --write]", file=sys.stderr)
        return 2
    for path in stale():
        print(f"{path} is stale: run `{REGENERATE}`", file=sys.stderr)
    return 1 if stale() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
