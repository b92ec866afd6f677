"""Tables: the layer every interface plays through (the web server's tables, the terminal's sessions).

A table seats people and bots at a match of any registered game, keeps the log in words, lets bots move from
their seat's view, and tells each seat only what it may see. What is particular to a game (its settings, the log's
words, the JSON its client draws) is in that game's adapter (:mod:`taash.tables.seep`, :mod:`taash.tables.rummy`),
found by name through :func:`taash.tables.adapter.adapter`.
"""
