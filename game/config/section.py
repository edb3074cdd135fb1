"""`Section`: what every `[section]` of a config, scenario or lesson file is, as a model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    """One `[section]` of a file: strict, frozen, and refusing unknown keys (a typo would
    otherwise be ignored without a word)."""

    model_config = ConfigDict(
        strict=True, frozen=True, extra="forbid", use_attribute_docstrings=True
    )
