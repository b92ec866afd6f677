from collections.abc import Sequence

SOURCE: str

def hand_value(faces: Sequence[int], wild: int, rules: tuple[int, ...], /) -> tuple[int, bool]: ...
def discard_values(faces: Sequence[int], wild: int, rules: tuple[int, ...], keep: int,
                   /) -> tuple[tuple[int, int, bool], ...]: ...
