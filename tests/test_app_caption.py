"""The caption: a lesson's words stay up, the loop's status goes after them."""

from game.app.caption import FIRST_HINT, caption_for
from timestep_lab import NS_PER_SECOND

LESSON = "Lesson 5, step 2/3: watch the frame time."


def test_a_catch_up_goes_after_the_lesson_never_in_its_place() -> None:
    assert caption_for(LESSON, catching_up_ticks=412) == (
        f"{LESSON}  \N{EM DASH} catching up: 412 ticks run in this frame so far"
    )


def test_a_catch_up_outranks_a_message() -> None:
    assert caption_for("", catching_up_ticks=3, message="screenshot saved") == (
        "catching up: 3 ticks run in this frame so far"
    )


def test_the_first_ten_seconds_say_where_help_and_lessons_are() -> None:
    assert (
        caption_for("", since_start_ns=9 * NS_PER_SECOND)
        == FIRST_HINT
        == ("H: help \N{MIDDLE DOT} L: lessons")
    )
    assert caption_for("", since_start_ns=10 * NS_PER_SECOND) == ""
    assert caption_for(LESSON, since_start_ns=0) == LESSON  # a lesson says enough
