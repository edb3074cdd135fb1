"""Input scripts: the avatar's key presses at wall times, for `simulate` and `compare`.

A plain text file, one line each; times are wall-clock milliseconds since the run began, read
exactly (`12.5` is 12,500,000 ns):

    # ms      what
    500       tap jump            # down at 500 ms, up 30 ms later
    800       tap dash 50         # held 50 ms
    1000      hold right 400      # down at 1000 ms, up at 1400 ms
    random    jump 4/s seed 7     # a seeded random tapper: 4 taps a second over the whole run

A random tapper places `rate x seconds` taps at instants drawn uniformly from the whole run (the
formula in docs/input.md's table assumes exactly that), from a seeded generator, so the same
line gives the same taps on every machine. Presses of a button that is already down are not
presses (the key is held): a tap that starts while the last one is held is absorbed in it.

A bad line is one line, `FILE:LINE: message (got 'TEXT')`, and exit status 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from game.clock.units import parse_decimal
from game.clock.virtual import FrameJitter
from game.errors import BadInput
from game.file_reading import read_text
from game.knobs import MAX_SEED
from game.vocabulary import HELD_BUTTONS, TAP_BUTTONS
from game.workshop.files.timeline import KeyEdge
from timestep_lab import NS_PER_MS, NS_PER_SECOND

TAP_MS = 30
"""How long a tap holds its key down unless the line says otherwise: a quick tap."""
MAX_RATE = 1_000
BUTTONS = (*TAP_BUTTONS, *HELD_BUTTONS)


@dataclass(frozen=True, slots=True)
class RandomTapper:
    """`rate` taps a second of `button`, at uniformly drawn instants, from `seed`."""

    button: str
    rate: Fraction
    seed: int
    hold_ns: int

    def edges(self, seconds: Fraction) -> list[KeyEdge]:
        span_ns = int(seconds * NS_PER_SECOND)
        draw = FrameJitter(max(0, span_ns - 1), self.seed)
        starts = sorted(draw.draw_ns() for _ in range(int(self.rate * seconds)))
        return [edge for at in starts for edge in _tap(self.button, at, self.hold_ns)]


@dataclass(frozen=True, slots=True)
class InputScript:
    """The edges written out in the file, and its random tappers."""

    edges: tuple[KeyEdge, ...] = ()
    tappers: tuple[RandomTapper, ...] = ()

    def timeline(self, seconds: Fraction) -> tuple[KeyEdge, ...]:
        """Every edge of a run of `seconds`, in time order (downs before ups at one instant)."""
        edges = [*self.edges, *(edge for t in self.tappers for edge in t.edges(seconds))]
        return tuple(sorted(edges, key=lambda edge: (edge.at_ns, not edge.down)))


def _tap(button: str, at_ns: int, hold_ns: int) -> tuple[KeyEdge, KeyEdge]:
    return KeyEdge(at_ns, button, True), KeyEdge(at_ns + hold_ns, button, False)


def parse_input_script(text: str, label: str) -> InputScript:
    """Read a script; the first bad line raises BadInput naming the file, line and text."""
    edges: list[KeyEdge] = []
    tappers: list[RandomTapper] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        reader = _Line(f"{label}:{number}", raw.strip(), line.split())
        if reader.words[0].lower() == "random":
            tappers.append(reader.tapper())
        else:
            edges.extend(reader.timed())
    return InputScript(tuple(edges), tuple(tappers))


def load_input_script(path: Path) -> InputScript:
    text = read_text(path, "an input script")
    return parse_input_script(text, str(path))


class _Line:
    def __init__(self, where: str, raw: str, words: list[str]) -> None:
        self.where = where
        self.raw = raw
        self.words = words

    def refuse(self, message: str) -> BadInput:
        return BadInput(f"{self.where}: {message} (got {self.raw!r})")

    def ms(self, text: str, what: str) -> int:
        try:
            value = parse_decimal(text, what=what)
        except ValueError:
            raise self.refuse(f"{what} must be milliseconds like 500 or 12.5") from None
        if value < 0:
            raise self.refuse(f"{what} must not be negative")
        return int(value * NS_PER_MS)

    def button(self, text: str, allowed: tuple[str, ...]) -> str:
        if text.lower() not in allowed:
            raise self.refuse(f"unknown button {text!r} (known: {', '.join(allowed)})")
        return text.lower()

    def timed(self) -> tuple[KeyEdge, ...]:
        """`MS tap BUTTON [HOLD_MS]` or `MS hold BUTTON HOLD_MS`."""
        words = self.words
        if len(words) < 3 or words[1].lower() not in ("tap", "hold"):
            raise self.refuse("a line is 'MS tap BUTTON [MS]', 'MS hold BUTTON MS' or 'random ...'")
        at = self.ms(words[0], "the time")
        if words[1].lower() == "tap":
            if len(words) > 4:
                raise self.refuse("a tap is 'MS tap BUTTON [HOLD_MS]'")
            hold = self.ms(words[3], "the hold") if len(words) == 4 else TAP_MS * NS_PER_MS
            return _tap(self.button(words[2], TAP_BUTTONS), at, hold)
        if len(words) != 4:
            raise self.refuse("a hold is 'MS hold BUTTON HOLD_MS'")
        return _tap(self.button(words[2], BUTTONS), at, self.ms(words[3], "the hold"))

    def tapper(self) -> RandomTapper:
        """`random BUTTON RATE/s [seed N] [hold MS]`."""
        words = self.words
        if len(words) < 3:
            raise self.refuse("a random tapper is 'random BUTTON RATE/s [seed N] [hold MS]'")
        button = self.button(words[1], TAP_BUTTONS)
        rate_text = words[2].lower().removesuffix("/s")
        try:
            rate = parse_decimal(rate_text, what="rate")
        except ValueError:
            raise self.refuse("the rate must be taps a second, like 4/s") from None
        if not 0 < rate <= MAX_RATE:
            raise self.refuse(f"the rate must be above 0 and at most {MAX_RATE}/s")
        options = dict(zip(words[3::2], words[4::2], strict=False))
        if len(words[3:]) % 2 or set(options) - {"seed", "hold"}:
            raise self.refuse("after the rate come 'seed N' and 'hold MS', each at most once")
        seed_text = options.get("seed", "0")
        if not (seed_text.isascii() and seed_text.isdigit()):
            raise self.refuse("the seed must be a whole number")
        digits = seed_text.lstrip("0")  # at most 20 of them: int() is not asked to read 5,000
        if len(digits) > len(str(MAX_SEED)) or int(seed_text) > MAX_SEED:
            raise self.refuse(f"the seed must be from 0 to {MAX_SEED} (a 64-bit number)")
        hold = self.ms(options["hold"], "the hold") if "hold" in options else TAP_MS * NS_PER_MS
        return RandomTapper(button, rate, int(seed_text), hold)
