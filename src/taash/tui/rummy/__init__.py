"""13-card Rummy's terminal screens: the match against bots (:mod:`.app`) and the replay of a record."""
