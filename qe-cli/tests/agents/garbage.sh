#!/bin/sh
# A broken qe-agent/1 agent for the tests: answers every question with a line that is not a command.
while read -r line; do
    case "$line" in
    *'"type":"act"'*) echo 'I bid a lot' ;;
    esac
done
