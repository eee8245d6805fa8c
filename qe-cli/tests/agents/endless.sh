#!/bin/sh
# A broken qe-agent/1 agent for the tests: writes one endless line (zero bytes, never a newline).
exec cat /dev/zero
