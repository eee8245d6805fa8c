#!/bin/sh
# A broken qe-agent/1 agent for the tests: at its first question it exits, leaving a child that
# holds its standard output open (so the engine never sees the end of its answers).
while read -r line; do
    case "$line" in
    *'"type":"act"'*)
        sleep 30 &
        exit 3 ;;
    esac
done
