#!/bin/sh
# Mistake: floods stdout (past the 16 MiB output limit) on every maze with more than
# 3 free cells, once it has answered 40 inputs correctly (by `$2 solve`). So the first
# failure is a large maze, and shrinking it takes many failing runs, each printing
# more than the limit. $1: a file counting the runs.
input=$(cat)
runs=$(wc -l < "$1" 2>/dev/null || echo 0)
echo >> "$1"
free=$(printf '%s\n' "$input" | sed 1d | tr -cd '.SBT' | wc -c)
if [ "$runs" -ge 40 ] && [ "$free" -gt 3 ]; then exec yes; fi
printf '%s\n' "$input" | exec "$2" solve
