"""Tournaments: the config reader, the schedule, the referee of one game, workers and executors, the store, the run."""
