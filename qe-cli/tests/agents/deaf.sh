#!/bin/sh
# A broken qe-agent/1 agent for the tests: never reads a question and writes answers without end.
exec yes '{"seat":0,"bid":0}'
