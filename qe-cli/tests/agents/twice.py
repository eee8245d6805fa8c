#!/usr/bin/env python3
"""A qe-agent/1 agent for the tests that answers every question twice: the first legal command (the
lowest bid, the first pile), then the same line again, a stray line that arrives before the next
question. With `--id` it echoes each question's `id` (the stray copy then carries a stale one);
without, its answers carry no id."""

import json
import sys


def main():
    echo = "--id" in sys.argv[1:]
    for line in sys.stdin:
        message = json.loads(line)
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
        print(answer + "\n" + answer, flush=True)


if __name__ == "__main__":
    main()
