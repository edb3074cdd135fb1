"""File formats, read strictly and written whole: scenarios and the flags on top
(`scenario`, `scenario_loading`, `display_section`), recordings written and read back
(`recording`, `replay_file`), input scripts (`input_script`), lessons (`lessons`), and
where outputs go (`output`).

Add here: a new kind of file the commands read or write.
"""
