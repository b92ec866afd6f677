"""Playing a match against the computer: the session behind ``taash play`` (no screen code here)."""
