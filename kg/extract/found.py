"""`Found`: a kept mention as the proposal, relation and result rules see it."""

from __future__ import annotations

from dataclasses import dataclass

from kg.model import EntityType


@dataclass(frozen=True)
class Found:
    """A mention: its tokens [start, end), the group it belongs to, and that group's type."""

    start: int
    end: int
    name: str  #: the name the mention stands for
    key: str
    type: EntityType
    known: bool  #: in the lexicon (or a variant of a lexicon family): never proposed here
    sent: int = 0  #: the number of the sentence it is in
    probability: float = 1.0  #: the entity model's confidence in its type
