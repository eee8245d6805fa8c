#!/usr/bin/env python3
"""A qe-agent/1 agent for the tests that checks what it is sent, and answers a line that is not a
command (an illegal answer) whenever a message breaks the protocol: `start` must give the number of
turns (16, or 15 with 5 players, R-TRN-1); `spend_bounds` must have one entry per seat; each turn's
`tile_revealed` event must come exactly once a game, before the turn's first `act` (events are sent
once: each message has the events since the previous one); and no event may show what the seat may
not see (R-VIS-8): another seat's industry or peeked price, or an amount, price, token or third tie
whose `seen_by` list leaves the seat out. Otherwise it answers the first legal command (the lowest
bid, the first pile)."""

import json
import sys


# Per event: (a field the seat may not see, the list of the seats that see it).
HIDDEN = {
    "bid": [("amount", "seen_by")],
    "awarded": [("price", "seen_by"), ("third_tie", "third_tie_seen_by")],
    "asset_taker": [("third_tie", "third_tie_seen_by")],
    "asset_taken": [("token", "token_seen_by"), ("value", "token_seen_by"), ("price", "price_seen_by")],
}


def leak(event, me):
    if event["event"] == "dealt" and event["seat"] != me and event["industry"] is not None:
        return f"the industry of seat {event['seat']}"
    if event["event"] == "peeked" and event["seat"] != me and event["price"] is not None:
        return f"the price seat {event['seat']} peeked at"
    for field, seen_by in HIDDEN.get(event["event"], []):
        if event[field] is not None and me not in event[seen_by]:
            return f"the {field} of a {event['event']} event it does not see"
    return None


def fault(message, players, revealed):
    if len(message["spend_bounds"]) != players:
        return f"{len(message['spend_bounds'])} spend bounds for {players} seats"
    for event in message["events"]:
        shown = leak(event, message["seat"])
        if shown:
            return f"sent {shown}"
        if event["event"] == "tile_revealed":
            if event["turn"] in revealed:
                return f"turn {event['turn']} revealed twice"
            revealed.add(event["turn"])
    if revealed != set(range(message["view"]["turn"] + 1)):
        return f"turn {message['view']['turn']} after the reveals of turns {sorted(revealed)}"
    return None


def main():
    players, revealed, wrong_turns, expansions = 0, set(), None, []
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            players, revealed = message["players"], set()
            turns = 15 if players == 5 else 16
            wrong_turns = None if message["turns"] == turns else f"{message['turns']} turns, not {turns}"
            expansions = message["expansions"]
            if message["commodities"] != ("commodities" in expansions):
                wrong_turns = f"start: commodities {message['commodities']} with expansions {expansions}"
        elif message["type"] == "act":
            view = message["view"]
            wrong = wrong_turns or fault(message, players, revealed)
            if view["expansions"] != expansions or view["commodities"] != ("commodities" in expansions):
                wrong = f"view: expansions {view['expansions']}, commodities {view['commodities']}, not {expansions}"
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
