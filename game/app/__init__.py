"""The pygame app loop: window, events, pacing, drawing; the only place that owns the wall clock."""
