#!/bin/sh
# A qe-agent/1 agent for the tests that keeps everything it is sent: it appends every line it reads
# to the file $QE_TEST_SPY (the test then plays the part of a hostile agent that tries to predict
# the games from what it saw), and answers every question with a line that is not a command (the
# value bot plays its seat).
while read -r line; do
    printf '%s\n' "$line" >> "$QE_TEST_SPY"
    case "$line" in
    *'"type":"act"'*) echo 'spying' ;;
    esac
done
