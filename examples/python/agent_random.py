#!/usr/bin/env python3
"""A tiny QE agent speaking qe-agent/1 (spec/AGENT-PROTOCOL.md), standard library only.

It bids a random small amount (never the forbidden one), takes or discards a random pile, and never
peeks. Run it in a tournament next to the built-in bots:

    qe simulate --bots value,value,value,exec:examples/python/agent_random.py --games 100

Each line it reads is one JSON object: "start" (a new game at a seat), "act" (answer one line: a
command in the record format) or "end" (the outcome). It exits when its input ends.
"""

import json
import random
import sys

BIDS = [0, 1, 2, 3, 4, 5, 6, 8, 10, 13]


def choose(message, rng):
    """The command for an "act" message: a random legal one."""
    seat = message["seat"]
    legal = message["legal"]
    if legal["bid"] is not None:
        bid = legal["bid"]
        amount = max(bid["min"], rng.choice(BIDS))
        if amount == bid["forbidden"]:
            amount += 1
        return {"seat": seat, "bid": amount}
    if legal["take"]:
        return {"seat": seat, "take_asset": rng.choice(legal["take"])}
    return {"seat": seat, "discard_asset": rng.choice(legal["discard"])}


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng.seed(message["game"] * 7919 + message["seat"])
        elif message["type"] == "act":
            command = choose(message, rng)
            # Echo the question's id: a stray line can then never be taken for a later answer.
            if "id" in message:
                command["id"] = message["id"]
            print(json.dumps(command), flush=True)


if __name__ == "__main__":
    main()
