"""Babel's extractor for the browser's pages: the words of every element marked ``data-i18n`` (its text, spaces
collapsed, as static/i18n.js looks it up) and the attributes named by ``data-i18n-attr`` (a placeholder, a title).
babel.cfg names it for ``static/*.html``; the scripts' messages are found by Babel's own JavaScript extractor."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO, Any

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        line = self.getpos()[0]
        for attribute in (named.get("data-i18n-attr") or "").split():
            if named.get(attribute):
                self.found.append((line, str(named[attribute])))
        if "data-i18n" in named:
            if named["data-i18n"]:
                self.found.append((line, str(named["data-i18n"])))
            else:
                self._open.append((tag, line, []))
        elif self._open and tag not in VOID:
            self._open.append((tag, -1, []))

    def handle_data(self, data: str) -> None:
        for _tag, _line, texts in self._open:
            texts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        _tag, line, texts = self._open.pop()
        text = " ".join("".join(texts).split())
        if line >= 0 and text:
            self.found.append((line, text))


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: ``(line, funcname, message, comments)`` for each marked text of a page."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    for line, message in parser.found:
        yield line, None, message, []
