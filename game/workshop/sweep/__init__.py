"""The spiral map: a grid of runs (`grid`) played in parallel and measured
(`running`), the theory of where the loop stops keeping up (`frontier`), the results as CSV
and text (`report`) and as heat maps (`figures`).

Add here: a new measure or view of a sweep.
"""
