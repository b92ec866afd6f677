"""Seep's terminal screens: the match against bots (:mod:`.app`, drawing with :mod:`.render`) and the replay of a
record (:mod:`.replay`)."""
