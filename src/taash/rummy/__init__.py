"""13-card Indian Rummy: rules as data, melds and declarations, the hand solver, the deal and match engine.

Rules: ``shared/rummy-rules.md`` in the project (rulings R1-R8). Formats: ``shared/rummy-protocol.md``.
Cards are faces and identities of :mod:`taash.packs` (several packs, printed jokers).
"""
