/**
 * The words of code that are nobody's: file stems, keywords and literals, products and platforms,
 * the files every ecosystem has, source folders, built-ins, file extensions and host names. The
 * specificity check (abstraction/specificity.ts) never counts them as naming a fix's source.
 */
/** A language's keywords and literals: "return true" or "self import" is a line of code, not a condition. */
export const LANGUAGE_KEYWORDS = new Set(
  (
    'null undefined none nil true false nan this self super void async await return throw throws catch try ' +
    'function func class struct enum trait impl interface import export from require module exports const'
  ).split(' '),
);

/** Words that are file stems, keywords or literals everywhere: never a leak on their own. */
export const GENERIC_WORDS = new Set([
  ...LANGUAGE_KEYWORDS,
  ...(
    'index main test tests spec specs util utils helper helpers lib libs core common shared base types type ' +
    'errors error config configs options option settings default defaults constants const consts readme license ' +
    'changelog contributing package setup build dist source sources docs doc example examples fixture fixtures ' +
    'mock mocks init conftest cli app server client api mod models model view views style styles test_utils ' +
    'number boolean object array list dict map set value values input output data file files path paths name ' +
    'text json yaml toml date time parse format print string len make new delete defer chan panic unwrap expect ' +
    'result ok err some println console log logger debug warn info assert assertEqual describe it before after ' +
    'each all node deno bun npm yarn pnpm pytest cargo go rust python java ruby bash shell windows linux macos ' +
    'utf8 utf-8 ascii unicode http https url uri host port request response body header headers query stream ' +
    'buffer event events listener listeners callback promise timeout timer signal process child thread lock ' +
    'mutex context state store cache queue retry retries hook hooks plugin plugins middleware handler handlers ' +
    'router route routes schema schemas version versions flag flags command commands args argv env'
  ).split(' '),
]);

/** Names with inner capitals (or dots) that are products or platforms, not anyone's symbols. */
export const TECH_NAMES = new Set(
  (
    'javascript typescript github gitlab bitbucket powershell websocket websockets macos ios ipados nodejs ' +
    'postgresql mysql mongodb sqlite graphql openai pypi npmjs dockerfile kubernetes webpack esbuild eslint ' +
    'vscode intellij pycharm devops semver youtube junit xunit nunit testng dynamodb bigquery mariadb fastapi ' +
    'nestjs nextjs vuejs reactjs rxjs swiftui appkit coredata postcss tailwindcss latex webassembly webgl ' +
    'webrtc webkit openssl openssh freebsd netbsd openbsd iphone ipad watchos tvos chromeos circleci travisci ' +
    'teamcity appveyor dockerhub stackoverflow jetbrains cocoapods sqlalchemy mypy pyright asp.net node.js ' +
    'vue.js next.js nuxt.js express.js d3.js chart.js three.js commonjs ecmascript'
  ).split(' '),
);

/** Files every project of an ecosystem has: its vocabulary, not a file of anyone's. */
export const ECOSYSTEM_FILES = new Set(
  (
    'package.json package-lock.json npm-shrinkwrap.json yarn.lock pnpm-lock.yaml tsconfig.json jsconfig.json ' +
    '.npmrc .nvmrc cargo.toml cargo.lock go.mod go.sum pyproject.toml requirements.txt setup.py setup.cfg ' +
    'tox.ini pytest.ini conftest.py pipfile pipfile.lock poetry.lock gemfile gemfile.lock pom.xml build.gradle ' +
    'settings.gradle composer.json composer.lock dockerfile makefile .gitignore .gitattributes .editorconfig ' +
    '.dockerignore readme.md changelog.md contributing.md license.md codeowners .env'
  ).split(' '),
);

/** Folders that make a slash-separated word a path ("src/x"), not "and/or" or "CI/CD". */
export const SOURCE_DIRS = new Set(
  'src lib libs test tests spec specs app apps pkg cmd internal source sources scripts bin packages .github'.split(' '),
);

/** Standard library names and conventions any repository may use: never the source's own symbols. */
export const BUILTINS = new Set(
  (
    'TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError ValueError KeyError ' +
    'IndexError AttributeError RuntimeError OSError IOError FileNotFoundError PermissionError NotImplementedError ' +
    'StopIteration UnicodeDecodeError UnicodeEncodeError TimeoutError AbortError AbortController AbortSignal ' +
    'ArrayBuffer Uint8Array Int32Array Float32Array SharedArrayBuffer TextEncoder TextDecoder URLSearchParams ' +
    'setTimeout setInterval clearTimeout clearInterval setImmediate queueMicrotask structuredClone ' +
    'JSON.parse JSON.stringify Promise.all Promise.race Promise.allSettled Object.keys Object.assign ' +
    'Object.entries Array.isArray Number.isNaN Date.now process.env process.exit process.platform os.path ' +
    'console.log console.error sys.exit sys.argv os.environ fmt.Println fmt.Errorf errors.Is errors.As ' +
    'NO_COLOR FORCE_COLOR LC_ALL NODE_ENV NODE_OPTIONS GITHUB_TOKEN'
  )
    .toLowerCase()
    .split(' '),
);

/** Extensions that make a dotted word a file or product name ("Node.js") rather than a member access. */
export const FILE_EXTENSIONS =
  /\.(js|mjs|cjs|jsx|ts|mts|cts|tsx|py|pyi|go|rs|rb|java|kt|c|h|cc|cpp|hpp|cs|php|swift|json|ya?ml|toml|md|txt|lock|sh|ps1|bat|cfg|ini|xml|html?|css|scss|vue|svelte)$/i;

export const HOST_NAME = /\.(com|org|net|io|dev|app|co|edu|gov|example|test|invalid|localhost|local)$/i;
