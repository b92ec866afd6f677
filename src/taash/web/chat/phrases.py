"""The quick phrases and emotes of the chat: their ids, defined here once, and their words in the message
catalogue (English here; Hindi and Punjabi in ``taash/i18n/locale``). A message names a phrase or an emote by its
id; each browser shows the words of its own language (``GET /api/chat/phrases?lang=hi``)."""

from __future__ import annotations

from dataclasses import dataclass

from taash.i18n import LANGUAGES, N_, translations


@dataclass(frozen=True, slots=True)
class Emote:
    """An emote: its symbol, and what it says in words (for screen readers and for a listener's list)."""

    symbol: str
    words: str


#: Quick phrases, by id: whole sentences, the same at every table.
PHRASES: dict[str, str] = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck!"),
    "well_played": N_("Well played!"),
    "good_game": N_("Good game!"),
    "thanks": N_("Thanks!"),
    "sorry": N_("Sorry!"),
    "hurry": N_("Please play a little faster."),
    "one_more": N_("One more match?"),
    "bye": N_("Bye!"),
}

#: Emotes, by id.
EMOTES: dict[str, Emote] = {
    "smile": Emote("🙂", N_("smiles")),
    "laugh": Emote("😂", N_("laughs")),
    "wow": Emote("😮", N_("is amazed")),
    "clap": Emote("👏", N_("claps")),
    "thumbs_up": Emote("👍", N_("gives a thumbs up")),
    "think": Emote("🤔", N_("is thinking")),
    "sad": Emote("😢", N_("is sad")),
    "namaste": Emote("🙏", N_("folds hands: namaste")),
}

#: What a bot answers to an emote (the bots answer emotes only, and never chat otherwise).
BOT_ANSWERS: dict[str, str] = {
    "smile": "smile", "laugh": "smile", "wow": "think", "clap": "namaste", "thumbs_up": "thumbs_up",
    "think": "smile", "sad": "namaste", "namaste": "namaste",
}


def catalogue(lang: str) -> dict[str, list[dict[str, str]]]:
    """The phrases and emotes with their words in ``lang`` (a language taash does not speak: English)."""
    words = translations(lang if lang in LANGUAGES else "en").gettext
    return {
        "phrases": [{"id": key, "words": words(text)} for key, text in PHRASES.items()],
        "emotes": [{"id": key, "symbol": e.symbol, "words": words(e.words)} for key, e in EMOTES.items()],
    }
