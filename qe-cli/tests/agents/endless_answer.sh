#!/bin/sh
# A broken qe-agent/1 agent for the tests: reads its first question, then answers with one endless
# line (zero bytes, never a newline).
read -r line
exec cat /dev/zero
