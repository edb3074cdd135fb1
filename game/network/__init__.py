"""A second peer on a simulated network: its inputs, the packets that carry them, time sync.

Pure and exact like the scheduler: times are `Fraction`s of ns, every random draw is seeded,
and nothing here knows the world. `game.session.rollback` consumes what arrives here: it
predicts, rolls back and re-simulates.
"""
