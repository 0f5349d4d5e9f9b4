#!/bin/bash
# list.sh owner+name : candidate fix commits (non-merge, reachable from HEAD, subject has fix/bug/regression/crash/error)
g=/work/.mirror/$1/repo
git --git-dir=$g log --no-merges --format='%h %cs %s' HEAD | grep -iE 'fix|bug|regression|crash|error' | grep -viE 'bump|typo|dependabot|docs?:|readme|changelog'
