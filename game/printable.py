"""`printable`: text read from a file, made safe to print on one line of a terminal.

A name the game prints comes from somebody's file: a capture's process name, a scenario's title,
a lesson's. One holding a line break would split a heading in two, and one holding an escape
sequence (`ESC[31m`) would turn the terminal red, or worse. So every such name is printed with
its control and formatting characters (line breaks, tabs, escapes, C1 controls, the
direction overrides) written as Python writes them in a string literal (`\\n`, `\\x1b`, `\\u202e`),
and everything else as it is.
"""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` with every character that is not printable (`str.isprintable`, the space aside)
    escaped: one line, and no terminal control."""
    if text.isprintable():
        return text
    return "".join(
        character if character.isprintable() else _escaped(character) for character in text
    )


def _escaped(character: str) -> str:
    """An unprintable character as a string literal writes it (`\\n`, `\\x1b`, `\\u202e`)."""
    return repr(character)[1:-1]
