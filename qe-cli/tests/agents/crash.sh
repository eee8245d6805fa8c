#!/bin/sh
# A broken qe-agent/1 agent for the tests: exits at its first question.
while read -r line; do
    case "$line" in
    *'"type":"act"'*) exit 3 ;;
    esac
done
