#!/bin/bash
g=/work/.mirror/$1/repo
git --git-dir=$g show --stat --format='%H %P%n%cI%n%s%n%n%b' $2 | head -${3:-60}
