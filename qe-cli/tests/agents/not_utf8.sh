#!/bin/sh
# A broken qe-agent/1 agent for the tests: answers every question with bytes that are not UTF-8.
while read -r line; do
    case "$line" in
    *'"type":"act"'*) printf '\377\376\n' ;;
    esac
done
