from ytourney.players import BaseBot

class Broken(BaseBot)
    pass
