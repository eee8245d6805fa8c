#!/usr/bin/env python3
"""A qe-agent/1 agent for the tests: the lowest legal bid in even-numbered games, as the `miser`
bot bids, and 7 over it in odd-numbered ones. Against two misers every even game ends with all
three spending the same (all eliminated, no winner) and every odd one with this agent eliminated
and the misers sharing the win: a tournament with and without winners."""

import json
import sys


def main():
    game = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            game = message["game"]
        elif message["type"] == "act":
            seat, legal = message["seat"], message["legal"]
            if legal["bid"] is not None:
                bid = legal["bid"]
                amount = bid["min"] + (7 if game % 2 else 0)
                if amount == bid["forbidden"]:
                    amount += 1
                command = {"seat": seat, "bid": amount}
            elif legal["take"]:
                command = {"seat": seat, "take_asset": legal["take"][0]}
            else:
                command = {"seat": seat, "discard_asset": legal["discard"][0]}
            print(json.dumps(command), flush=True)


if __name__ == "__main__":
    main()
