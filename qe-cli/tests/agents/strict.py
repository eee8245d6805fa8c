#!/usr/bin/env python3
"""A qe-agent/1 agent for the tests that checks what it is sent, and answers a line that is not a
command (an illegal answer) whenever a message breaks the protocol: `spend_bounds` must have one
entry per seat, and each turn's `tile_revealed` event must come exactly once a game, before the
turn's first `act` (events are sent once: each message has the events since the previous one).
Otherwise it answers the first legal command (the lowest bid, the first pile)."""

import json
import sys


def fault(message, players, revealed):
    if len(message["spend_bounds"]) != players:
        return f"{len(message['spend_bounds'])} spend bounds for {players} seats"
    for event in message["events"]:
        if event["event"] == "tile_revealed":
            if event["turn"] in revealed:
                return f"turn {event['turn']} revealed twice"
            revealed.add(event["turn"])
    if revealed != set(range(message["view"]["turn"] + 1)):
        return f"turn {message['view']['turn']} after the reveals of turns {sorted(revealed)}"
    return None


def main():
    players, revealed = 0, set()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            players, revealed = message["players"], set()
        elif message["type"] == "act":
            wrong = fault(message, players, revealed)
            if wrong:
                print(f"qe-agent strict.py: {wrong}", file=sys.stderr)
                print("protocol broken", flush=True)
                continue
            seat, legal = message["seat"], message["legal"]
            if legal["bid"] is not None:
                bid = legal["bid"]
                amount = bid["min"] if bid["min"] != bid["forbidden"] else bid["min"] + 1
                command = {"seat": seat, "bid": amount}
            elif legal["take"]:
                command = {"seat": seat, "take_asset": legal["take"][0]}
            else:
                command = {"seat": seat, "discard_asset": legal["discard"][0]}
            print(json.dumps(command), flush=True)


if __name__ == "__main__":
    main()
