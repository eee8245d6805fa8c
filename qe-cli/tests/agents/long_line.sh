#!/bin/sh
# A broken qe-agent/1 agent for the tests: answers every question with a 4 MB line.
while read -r line; do
    case "$line" in
    *'"type":"act"'*) head -c 4000000 /dev/zero | tr '\0' x; echo ;;
    esac
done
