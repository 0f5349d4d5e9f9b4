/** The routine kind build-packaging (builds and packaging): its cues, routines and lessons. */
import { defineKind } from '../entry.js';

export const buildPackaging = defineKind({
  kind: 'build-packaging',
  template: {
    label: 'builds and packaging',
    title: 'Build and install the package from a clean checkout as a test',
    description:
      'Build scripts, bundlers and compile targets can fail or ship the wrong output even when the unit tests pass.',
    check:
      'Add a CI step that builds from a clean checkout, packs the artifact, installs it into an empty project on the lowest supported target and imports it, failing on any compiler or bundler error.',
    why: 'Unit tests that run from source cannot catch a build or packaging break.',
    also: 'build and install the package from a clean checkout',
    step: 'Build from a clean checkout, pack, install and import the artifact.',
  },
  learnedRule: 'Build and install the package to test the {p} as users get it',
  vocabulary: 'build compile bundle package artifacts',
  textCues: [
    [/\bbuild(s|ing)?\b/i, 0.8],
    [
      /\bcompil(e|es|er|ation)\b|\btranspil|\bbundl(e|er|ing)\b|\bminif|\buglify|\bwebpack\b|\brollup\b|\besbuild\b/i,
      1,
    ],
    [/\bpackag(e|ing)\b|\bpublish|\bdist\b|\bartifacts?\b|\bmakefile\b|\bcmake\b|\btsconfig\b/i, 0.5],
    // what was shipped, weighed
    [
      /\b(docker|container) images?\b|\b(bundle|package|image|wheel|install(ed)?|binary|artifact|download) sizes?\b/i,
      1.2,
    ],
    [
      /\b(images?|bundles?|packages?|wheels?|binar(y|ies)|artifacts?|downloads?|installs?)\b.{0,20}\b\d+(\.\d+)? ?(kb|mb|gb|kib|mib|gib)\b/i,
      0.6,
    ],
    [/\balready declared\b|\bredeclared\b|\bundefined reference\b|\blinker\b|\bes5\b|\bcommonjs\b|\besm\b/i, 1],
    [/\bscripts?\b|\bgenerat(e|ion)\b/i, 0.3],
    // the installed package misses a module of its own
    [/\bmodulenotfounderror\b|\bno module named\b|\bcannot find module\b|\berr_module_not_found\b/i, 1.2],
    [
      /\bnoclassdeffounderror\b|\bclassnotfoundexception\b|\bno matching files\b|\b(doesn['’]t|does not|didn['’]t) (include|ship|contain)\b|\b(missing|left out) (from|of) the (published |released )?(package|crate|jar|wheel|tarball|gem|nupkg|archive|release)\b|\b(crates\.io|pypi|nuget|rubygems|maven central)\b|\.nupkg\b|\bsdist\b|\bshaded\b|\bpackaged (app|build|version|binary)\b|\.(dmg|msi|apk|appimage|deb|rpm)\b/i,
      1.2,
    ],
    // ES modules and CommonJS loaded the wrong way round
    [
      /\berr_require_esm\b|\brequire\(\) of es modules?\b|\bcannot use import statement outside a module\b|\bis not a module\b/i,
      1.2,
    ],
  ],
  files: {
    evidence: 'build configuration',
    cues: [
      [
        /(^|\/)(Makefile|CMakeLists\.txt|webpack\.config\.\w+|rollup\.config\.\w+|vite\.config\.\w+|tsconfig[\w.-]*\.json|build\.rs|Dockerfile|setup\.py|setup\.cfg|MANIFEST\.in|\.npmignore)$|(^|\/)scripts\/build/i,
        0.7,
      ],
    ],
  },
  checks: { build: 1.5 },
  lessons: [
    {
      id: 'build-from-clean',
      title: 'Build, pack and install the artifact from a clean checkout in CI',
      description:
        'Build scripts, bundlers and package manifests break or ship the wrong files while tests that run from source still pass.',
      check:
        'Add a CI step that builds from a clean checkout, packs the artifact, installs it into an empty project and imports or runs it, failing on any build error or missing file.',
      cues: [
        [/\bbuild(s|ing)?\b|\bcompil\w*\b|\bbundl\w*\b|\bwebpack\b|\brollup\b|\besbuild\b|\bvite\b/i, 0.8],
        [
          /\bpackag\w*\b|\bpublish\w*\b|\bdist\b|\bartifacts?\b|\bmakefile\b|\bsetup\.py\b|\bwheel\b|\bexports? (map|field)\b|\besm\b|\bcommonjs\b|\bcjs\b/i,
          0.7,
        ],
        [/\balready declared\b|\bredeclared\b|\bundefined reference\b|\blinker\b|\blink(ing)? errors?\b/i, 1],
        // what the package holds: its list of packages, its files, its bundles' source maps
        [
          /\bfind_packages\b|\bpackage (list|data|contents)\b|\bsubpackages?\b|\bmissing from (the )?(package|wheel|tarball|dist|bundle)\b|\b(is|are) not (shipped|included|published|packaged)\b|\bsource ?maps?\b/i,
          1.2,
        ],
        // the package's files: its type declarations missing or in the wrong place, not wrong types
        [
          /\b(ships?|shipped|published|packaged|released) without (its |the )?(types|typings|type (definitions|declarations)|declarations|\.d\.ts)\b|\b(cannot|can'?t|doesn'?t|does not|fails? to|never) (find|pick up|resolve|locate|see) (the |its |\w+'s )?(type (definitions|declarations)|typings|\.d\.ts)\b|\.d\.ts( files?)?\b.{0,40}\b(missing|dropped|not (included|shipped|published)|end(s)? up in|directory|folder)\b/i,
          1.4,
        ],
      ],
    },
    {
      id: 'feature-combinations',
      title: 'Build and test each optional feature alone, and with none',
      description:
        'Code that uses an item defined only under an optional feature (or only with the standard library) compiles with the default features and fails with any other combination users build.',
      check:
        'In CI, build and test with no default features, with each optional feature alone and with all of them, and gate every use of a feature-only item on that feature.',
      cues: [
        [
          /\bno[- ]default[- ]features\b|\b(default|optional|cargo) features?\b|\bfeature (flags?|gates?|combinations?)\b|\bwith (just|only) the `?[\w-]+`? feature\b|\bwithout (the )?`?[\w-]+`? feature\b|\bno[_-]?std\b|\bcfg\(feature\b/i,
          1.4,
        ],
      ],
    },
    {
      id: 'cross-target-build',
      title: 'Build for every target platform and architecture you ship',
      description:
        'A native dependency or build flag that works on the main platform fails to compile or link for another target.',
      check:
        'Keep a CI build matrix over every shipped target (operating system, architecture, libc) and fail the release when one of them does not build.',
      cues: [
        [
          /\bandroid\b|\barm(64|v7)?\b|\baarch64\b|\bmusl\b|\bwasm(32)?\b|\bcross[- ]?compil\w*\b|\barchitectures?\b|\b32[- ]bit\b/i,
          1,
        ],
        [/\b(all|every|other|each|unsupported) (\w+ )?(platforms|targets|architectures|operating systems)\b/i, 0.6],
        // a merge, a link or a redirect has a target too: it names a build target beside a build word
        [
          /\b(build\w*|compil\w*|cross|wasm\w*|platforms?|release)\b.{0,40}\btargets?\b|\btargets?\b.{0,20}\b(triples?|platforms?|arch\w*)\b/i,
          0.6,
        ],
        [/\bbuild\w*\b|\bcompil\w*\b|\bbinar(y|ies)\b|\bnative\b/i, 0.4],
      ],
    },
  ],
});
