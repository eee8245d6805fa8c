#!/usr/bin/env python3
"""A qe-agent/1 agent for the tests that answers every question with the first legal command (the
lowest bid, the first pile). Options:

--id        echo each question's `id`;
--twice     write every answer twice: the copy is a stray line that arrives before the next
            question (with --id it carries a stale id);
--one-game  exit after its first game's `end` (between games)."""

import json
import sys


def main():
    echo, twice, one_game = (flag in sys.argv[1:] for flag in ("--id", "--twice", "--one-game"))
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end" and one_game:
            return
        if message["type"] != "act":
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
        if echo:
            command["id"] = message["id"]
        answer = json.dumps(command)
        print(answer + ("\n" + answer if twice else ""), flush=True)


if __name__ == "__main__":
    main()
