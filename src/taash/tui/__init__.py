"""Terminal screens (Textual): each game's under its name (:mod:`taash.tui.seep`, :mod:`taash.tui.rummy`: the game
against bots and the record viewer), and what they share (:mod:`taash.tui.widgets`). ``taash play`` and ``taash
replay`` find a game's screens by its name (its plugin's ``screens``: :mod:`taash.games.registry`)."""
