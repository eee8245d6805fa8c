#!/bin/sh
# A broken qe-agent/1 agent for the tests: answers every request with a bid of 0 for the next seat,
# a well-formed command of a seat that is not its own (and often one that may bid then).
players=5
while read -r line; do
    case "$line" in
    *'"type":"start"'*) players=$(printf '%s\n' "$line" | sed -n 's/.*"players":\([0-9]*\).*/\1/p') ;;
    *'"type":"act"'*)
        seat=$(printf '%s\n' "$line" | sed -n 's/^{"type":"act","game":[0-9]*,"seat":\([0-9]*\).*/\1/p')
        echo "{\"seat\":$(((seat + 1) % players)),\"bid\":0}"
        ;;
    esac
done
