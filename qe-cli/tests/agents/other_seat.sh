#!/bin/sh
# A broken qe-agent/1 agent for the tests: answers with a well-formed command for another seat.
while read -r line; do
    case "$line" in
    *'"type":"act"'*) echo '{"seat":4,"bid":1}' ;;
    esac
done
