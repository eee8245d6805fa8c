#!/bin/sh
# A broken qe-agent/1 agent for the tests: reads every question and never answers.
while read -r line; do :; done
