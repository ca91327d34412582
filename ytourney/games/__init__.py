"""Games on the one Game/State API: the API, the registry, the generic pie rule and one package per game."""
