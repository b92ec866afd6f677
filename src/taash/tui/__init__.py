"""Terminal screens (Textual): the game against bots and the record viewer."""
