#!/bin/sh
# A qe-agent/1 agent for the tests that will not stop: it writes its process id to the file
# $QE_TEST_PIDS, ignores SIGINT, SIGTERM and SIGHUP, answers as garbage.sh does, and stays when its
# input ends.
# Its standard error is not the engine's, so a test waiting for the engine's output does not wait
# for it.
exec 2>/dev/null
echo $$ >> "$QE_TEST_PIDS"
trap '' INT TERM HUP
while :; do
    if read -r line; then
        case "$line" in
        *'"type":"act"'*) echo 'I bid a lot' ;;
        esac
    else
        sleep 1
    fi
done
