"""Statistics of game records: ratings, fair handicaps and sequential tests; they need records, not tournaments."""
