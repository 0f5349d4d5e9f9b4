#!/bin/sh
# show.sh repo-dir sha [maxlines]
g=/work/.mirror/$1/repo
git --git-dir=$g show --stat --format='=== %H %cI%n%s%n%b' $2 | head -40
git --git-dir=$g show --format= $2 -- . ':!CHANGELOG.md' ':!HISTORY.md' | head -${3:-80}
