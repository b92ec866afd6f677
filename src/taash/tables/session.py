"""The former name of :mod:`taash.tables.match` (whose :class:`~taash.tables.match.TableMatch` was called
``Session``), kept only while branches written against it are merged: import :mod:`taash.tables.match`."""

from __future__ import annotations

from taash.tables.match import TIMEOUT_REFUSED, SaveError, TableMatch

#: The former name of :class:`~taash.tables.match.TableMatch`.
Session = TableMatch

__all__ = ["TIMEOUT_REFUSED", "SaveError", "Session", "TableMatch"]
