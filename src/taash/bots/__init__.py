"""Computer players. Every bot decides from one seat's view alone (:class:`~taash.bots.base.Bot`); each game's
own bots are in the package named after it (:mod:`taash.bots.seep`)."""

from taash.bots.base import Bot, make_bot

__all__ = ["Bot", "make_bot"]
