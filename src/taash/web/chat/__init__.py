"""Chat and emotes: rooms with channels (:mod:`~taash.web.chat.room`), the quick phrases and emotes
(:mod:`~taash.web.chat.phrases`), the word filter (:mod:`~taash.web.chat.words`), a table's chat over its websocket
(:mod:`~taash.web.chat.table`) and its HTTP routes (:mod:`~taash.web.chat.routes`: the phrases, a report, the chat
of one's own match for its replay)."""

from __future__ import annotations

from taash.web.chat.room import PLAYERS, WATCHERS, Chat, ChatError, ChatLine, Said, Speaker
from taash.web.chat.table import TABLE_CHAT, BotAnswers, answer_chat, send_history

__all__ = ["PLAYERS", "TABLE_CHAT", "WATCHERS", "BotAnswers", "Chat", "ChatError", "ChatLine", "Said", "Speaker",
           "answer_chat", "send_history"]
