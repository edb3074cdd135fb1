"""A lesson step's claims, measured: the frames of a step's demo (`record`), the named
measurements over them (`measures`), and each claim set beside its measurement (`check`).

Add here: a new measurement (a row of `measures.MEASURES`).
"""
