"""The handout: one static HTML page built from what the repo runs (`page`).

Add here: a new section of the handout.
"""
