"""Board graphs: cell names, neighbours, sides, lines with their forks, regions and drawing layout."""
