#!/bin/sh
# A qe-agent/1 agent for the tests that leaves a process behind: it starts `sleep`, writes its
# process id to the file $QE_TEST_PIDS, then answers as garbage.sh does.
sleep 300 </dev/null >/dev/null 2>&1 &
echo $! >> "$QE_TEST_PIDS"
exec sh "$(dirname "$0")/garbage.sh"
