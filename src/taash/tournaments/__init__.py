"""Tournaments for any game: seeding, pairings, standings and prizes (:mod:`taash.tournaments.pairing`, pure);
the web server runs them at its tables (:mod:`taash.web.tournaments`)."""
