#!/bin/sh
# list candidate commits: non-merge, subject mentions fix/bug/regression/crash/error
g=/work/.mirror/$1/repo
git --git-dir=$g log --no-merges --format='%h %cs %s' | grep -i -E ' .*(fix|bug|regression|crash|error)' | grep -v -i -E 'bump|deps|dependabot|typo' | while read h d s; do
  n=$(git --git-dir=$g diff --name-only $h^1 $h 2>/dev/null | tr '\n' ' ')
  echo "$h $d $s || $n" | cut -c1-230
done
