"""Playing a match against the computer in the terminal: each game's session (:mod:`taash.play.seep`; Rummy's
terminal game plays a :class:`taash.tables.session.Session` directly), no screen code here."""
