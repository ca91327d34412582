"""Publishing results: tables in every format, crosstables, exports and the static site."""
