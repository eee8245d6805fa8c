#!/bin/sh
# A broken qe-agent/1 agent for the tests: at its first question it starts a child in a session of
# its own (out of reach of the engine's process-group kill) that holds its standard input and output
# open for a while, and exits. Each time it starts, it appends the number of threads of its parent
# (the engine) to the file $QE_TEST_THREADS.
grep '^Threads:' "/proc/$PPID/status" | tr -dc '0-9' >> "$QE_TEST_THREADS"
echo >> "$QE_TEST_THREADS"
exec 3<&0
while read -r line; do
    case "$line" in
    *'"type":"act"'*)
        setsid sleep 15 <&3 &
        exit 3 ;;
    esac
done
