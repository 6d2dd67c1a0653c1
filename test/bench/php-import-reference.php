<?php
/**
 * PHP's and Composer's own answer to "which file of this repository does each
 * `use` and include lead to".
 *
 * Used by test/bench/polyglot.bench.ts as the reference Strata's PHP edges
 * are compared with. Run with php (8.2 here); prints one JSON object on
 * stdout:
 *
 *     {"files": N, "tokenErrors": N, "loaders": [...],
 *      "edges": [[source, target, specifier], ...], "outside": N,
 *      "missing": [[source, specifier], ...],
 *      "notCompared": {"computedIncludes": [[source, written], ...], "declaredNotAutoloaded": N}}
 *
 *     php php-import-reference.php <repository> <scratch copy> [<manifest folder> ...]
 *
 * The scratch copy is a copy of the repository in which `composer
 * dump-autoload` was run in each manifest folder (repository-relative, `''`
 * for the root): Composer's own `ClassLoader` is built from the rules it
 * wrote there (`vendor/composer/autoload_psr4.php`, `autoload_namespaces.php`,
 * `autoload_classmap.php`, `autoload_files.php`, as `autoload_real.php` does,
 * without running `autoload.php`, which would load the repository's `files`).
 * No code of the repository is run.
 *
 * Each PHP file (`git ls-files`: `.php`, `.php3` to `.php5`, `.phtml`, not
 * `.blade.php`) is read with `token_get_all` (TOKEN_PARSE):
 *
 * - `use` declarations at the top of a file or namespace (not a trait's
 *   `use` in a class, not a closure's), groups and aliases, and a fully
 *   qualified name after `extends`, `implements` and `new`: each class name
 *   asked of `ClassLoader::findFile` of the loaders of the file's manifest,
 *   then of the manifests above it, then of the others (a monorepo's
 *   packages installed beside each other); a class PHP itself declares
 *   (`class_exists($name, false)` and the like) leads outside;
 * - `use function A\f` and `use const A\C`: PHP autoloads neither; the file
 *   that declares the function or constant (at namespace level, or with
 *   `define('A\C', ...)`), when Composer loads it: listed in an
 *   `autoload_files.php` of those loaders, or included by one of those with
 *   a static path; a global name (`use function strlen`) leads outside;
 * - `require`, `require_once`, `include` and `include_once` whose path is
 *   static, a `.` concatenation of string literals, `DIRECTORY_SEPARATOR`,
 *   `__DIR__`, `dirname(__FILE__)` and `dirname(__DIR__[, n])`: evaluated
 *   (`dirname` itself) and looked up with `realpath`. A relative path is
 *   looked up as PHP does with `include_path` `.` (the working directory,
 *   taken to be the repository's root) then the including file's directory;
 *   one starting with `./` or `../` from the working directory only. Any
 *   other path (a variable, a function call, interpolation) is not compared
 *   (counted in `notCompared.computedIncludes`).
 */

$repository = realpath($argv[1]);
$scratch = realpath($argv[2]);
$manifests = array_slice($argv, 3);
if ($manifests === []) {
    $manifests = [''];
}

const PHP_FILE = '/(?<!\.blade)\.(?:php[345]?|phtml)$/';

$listed = explode("\0", shell_exec('git -C ' . escapeshellarg($repository) . ' ls-files -z'));
$files = array_values(array_filter($listed, fn ($file) => preg_match(PHP_FILE, $file) === 1));

require_once $scratch . '/' . ($manifests[0] === '' ? '' : $manifests[0] . '/') . 'vendor/composer/ClassLoader.php';

/** Composer's loader for one manifest folder, as its autoload_real.php sets it up, and its autoload files (repository-relative). */
function loaderOf(string $scratch, string $folder): array
{
    $composer = $scratch . ($folder === '' ? '' : '/' . $folder) . '/vendor/composer';
    $loader = new \Composer\Autoload\ClassLoader(dirname($composer));
    foreach (require $composer . '/autoload_namespaces.php' as $namespace => $path) {
        $loader->set($namespace, $path);
    }
    foreach (require $composer . '/autoload_psr4.php' as $namespace => $path) {
        $loader->setPsr4($namespace, $path);
    }
    $classMap = require $composer . '/autoload_classmap.php';
    // Composer's own class, which every dump lists; not the repository's.
    unset($classMap['Composer\\InstalledVersions']);
    $loader->addClassMap($classMap);
    $autoloadFiles = is_file($composer . '/autoload_files.php') ? array_values(require $composer . '/autoload_files.php') : [];
    return [$loader, array_values(array_filter(array_map(fn ($file) => relativeTo($scratch, $file), $autoloadFiles)))];
}

/** `$file` (absolute) relative to `$root`, its real path taken; null when it is not there or not inside. */
function relativeTo(string $root, string $file): ?string
{
    $real = realpath($file);
    if ($real === false || !is_file($real) || !str_starts_with($real, $root . '/')) {
        return null;
    }
    return substr($real, strlen($root) + 1);
}

$loaders = [];
foreach ($manifests as $folder) {
    $loaders[$folder] = loaderOf($scratch, $folder);
}

/** The manifest folders in the order a file's class names are asked of them: its own, those above it, then the others. */
function chainOf(string $file, array $manifests): array
{
    $above = array_values(array_filter($manifests, fn ($folder) => $folder === '' || str_starts_with($file, $folder . '/')));
    usort($above, fn ($a, $b) => strlen($b) <=> strlen($a));
    $others = array_values(array_filter($manifests, fn ($folder) => !in_array($folder, $above, true)));
    return [...$above, ...$others];
}

/** The value of a string literal token without interpolation. */
function stringValue(string $text): string
{
    $quote = $text[0];
    $body = substr($text, 1, -1);
    if ($quote === "'") {
        return str_replace(['\\\\', "\\'"], ['\\', "'"], $body);
    }
    return stripcslashes($body);
}

$significant = fn ($token) => !is_array($token) || !in_array($token[0], [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true);

/** The tokens of a file without white space and comments, and its parse status. */
function tokensOf(string $code, callable $significant, bool &$error): array
{
    try {
        $tokens = token_get_all($code, TOKEN_PARSE);
    } catch (\ParseError) {
        $error = true;
        $tokens = token_get_all($code);
    }
    return array_values(array_filter($tokens, $significant));
}

function nameOf($token): ?string
{
    if (is_array($token) && in_array($token[0], [T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED], true)) {
        return ltrim($token[1], '\\');
    }
    return null;
}

function is($token, $kind): bool
{
    return is_array($token) ? $token[0] === $kind : $token === $kind;
}

/**
 * What one file says: its imports (`[kind, name]`, kind `class`, `function` or `const`), its includes
 * (`[written, value or null]`), and the functions and constants it declares at namespace level.
 */
function readPhpFile(string $absolute, array $tokens): array
{
    $imports = [];
    $includes = [];
    $declared = [];
    $namespace = '';
    $stack = [];
    $pending = null;
    $count = count($tokens);
    $statementStart = true;
    for ($i = 0; $i < $count; $i++) {
        $token = $tokens[$i];
        $previous = $i > 0 ? $tokens[$i - 1] : null;
        $atStart = $statementStart;
        $statementStart = false;
        if ($token === ';' || is($token, T_OPEN_TAG) || is($token, T_CLOSE_TAG)) {
            $statementStart = true;
            if ($token === ';') {
                $pending = null;
            }
            continue;
        }
        if ($token === '{' || is($token, T_CURLY_OPEN) || is($token, T_DOLLAR_OPEN_CURLY_BRACES)) {
            $stack[] = $token === '{' ? ($pending ?? 'other') : 'other';
            $pending = null;
            $statementStart = true;
            continue;
        }
        if ($token === '}') {
            $closed = array_pop($stack);
            if ($closed === 'ns') {
                $namespace = '';
            }
            $statementStart = true;
            continue;
        }
        $afterArrow = is($previous, T_DOUBLE_COLON) || is($previous, T_OBJECT_OPERATOR) || is($previous, T_NULLSAFE_OBJECT_OPERATOR);
        $topLevel = !in_array('class', $stack, true) && !in_array('fn', $stack, true);
        if (is($token, T_NAMESPACE) && $atStart) {
            $name = nameOf($tokens[$i + 1] ?? null);
            $namespace = $name ?? '';
            $pending = 'ns';
            continue;
        }
        if ((is($token, T_CLASS) || is($token, T_INTERFACE) || is($token, T_TRAIT) || is($token, T_ENUM)) && !$afterArrow) {
            $pending = 'class';
            continue;
        }
        if (is($token, T_FUNCTION) || is($token, T_FN)) {
            $name = $tokens[$i + 1] ?? null;
            if ($name === '&') {
                $name = $tokens[$i + 2] ?? null;
            }
            if ($topLevel && is($name, T_STRING) && !$afterArrow) {
                $declared[] = ['function', ltrim($namespace . '\\' . $name[1], '\\')];
            }
            if ($pending !== 'class') {
                $pending = 'fn';
            }
            continue;
        }
        if (is($token, T_CONST) && $topLevel && !in_array('class', $stack, true)) {
            for ($j = $i + 1; $j < $count && $tokens[$j] !== ';'; $j++) {
                if (is($tokens[$j], T_STRING) && ($tokens[$j + 1] ?? null) === '=') {
                    $declared[] = ['const', ltrim($namespace . '\\' . $tokens[$j][1], '\\')];
                }
            }
            continue;
        }
        if (is($token, T_STRING) && strtolower($token[1]) === 'define' && !$afterArrow && ($tokens[$i + 1] ?? null) === '(' && is($tokens[$i + 2] ?? null, T_CONSTANT_ENCAPSED_STRING)) {
            $declared[] = ['const', ltrim(stringValue($tokens[$i + 2][1]), '\\')];
            continue;
        }
        if (is($token, T_USE) && $atStart && array_diff($stack, ['ns']) === []) {
            $kind = 'class';
            $j = $i + 1;
            if (is($tokens[$j] ?? null, T_FUNCTION) || is($tokens[$j] ?? null, T_CONST)) {
                $kind = is($tokens[$j], T_FUNCTION) ? 'function' : 'const';
                $j++;
            }
            for (; $j < $count && $tokens[$j] !== ';'; $j++) {
                $name = nameOf($tokens[$j]);
                if ($name === null) {
                    continue;
                }
                if (is($tokens[$j + 1] ?? null, T_NS_SEPARATOR) && ($tokens[$j + 2] ?? null) === '{') {
                    // A group: `use A\B\{C, function d, const E as F}`.
                    for ($k = $j + 3; $k < $count && $tokens[$k] !== '}'; $k++) {
                        $itemKind = $kind;
                        if (is($tokens[$k], T_FUNCTION) || is($tokens[$k], T_CONST)) {
                            $itemKind = is($tokens[$k], T_FUNCTION) ? 'function' : 'const';
                            $k++;
                        }
                        $item = nameOf($tokens[$k] ?? null);
                        if ($item !== null) {
                            $imports[] = [$itemKind, $name . '\\' . $item];
                        }
                        while ($k + 1 < $count && $tokens[$k + 1] !== ',' && $tokens[$k + 1] !== '}') {
                            $k++;
                        }
                        if ($tokens[$k + 1] === ',') {
                            $k++;
                        }
                    }
                    $j = $k;
                    continue;
                }
                $imports[] = [$kind, $name];
                // An alias (`as X`) names nothing to resolve.
                while ($j + 1 < $count && $tokens[$j + 1] !== ',' && $tokens[$j + 1] !== ';') {
                    $j++;
                }
            }
            $i = $j;
            $statementStart = true;
            continue;
        }
        if (is($token, T_EXTENDS) || is($token, T_IMPLEMENTS)) {
            for ($j = $i + 1; $j < $count && ($tokens[$j] === ',' || nameOf($tokens[$j]) !== null); $j++) {
                if (is($tokens[$j], T_NAME_FULLY_QUALIFIED)) {
                    $imports[] = ['class', ltrim($tokens[$j][1], '\\')];
                }
            }
            continue;
        }
        if (is($token, T_NEW) && is($tokens[$i + 1] ?? null, T_NAME_FULLY_QUALIFIED)) {
            $imports[] = ['class', ltrim($tokens[$i + 1][1], '\\')];
            continue;
        }
        if (is($token, T_REQUIRE) || is($token, T_REQUIRE_ONCE) || is($token, T_INCLUDE) || is($token, T_INCLUDE_ONCE)) {
            $expression = [];
            $depth = 0;
            for ($j = $i + 1; $j < $count; $j++) {
                $each = $tokens[$j];
                if ($depth === 0 && ($each === ';' || $each === ',' || $each === ')' || $each === ']' || is($each, T_CLOSE_TAG) || is($each, T_LOGICAL_OR) || $each === '?' || is($each, T_COALESCE))) {
                    break;
                }
                if ($each === '(' || $each === '[') {
                    $depth++;
                } elseif ($each === ')' || $each === ']') {
                    $depth--;
                }
                $expression[] = $each;
            }
            $includes[] = [implode(' ', array_map(fn ($each) => is_array($each) ? $each[1] : $each, $expression)), staticPath($expression, dirname($absolute))];
            $i = $j - 1;
            continue;
        }
    }
    return [$imports, $includes, $declared];
}

/** The value of an include's path when it is static (see the file's comment), else null. */
function staticPath(array $expression, string $directory): ?string
{
    while (($expression[0] ?? null) === '(' && end($expression) === ')') {
        $expression = array_slice($expression, 1, -1);
    }
    $value = '';
    $count = count($expression);
    for ($i = 0; $i < $count; $i++) {
        if ($i % 2 === 1) {
            if ($expression[$i] !== '.') {
                return null;
            }
            continue;
        }
        $token = $expression[$i];
        if (is($token, T_CONSTANT_ENCAPSED_STRING)) {
            $value .= stringValue($token[1]);
        } elseif (is($token, T_DIR)) {
            $value .= $directory;
        } elseif (is($token, T_STRING) && $token[1] === 'DIRECTORY_SEPARATOR') {
            $value .= DIRECTORY_SEPARATOR;
        } elseif (is($token, T_STRING) && strtolower($token[1]) === 'dirname' && ($expression[$i + 1] ?? null) === '(') {
            // dirname(__FILE__), dirname(__DIR__), dirname(__DIR__, n): PHP's own dirname on the file's path.
            $argument = $expression[$i + 2] ?? null;
            $levels = 1;
            $close = $i + 3;
            if (($expression[$i + 3] ?? null) === ',' && is($expression[$i + 4] ?? null, T_LNUMBER)) {
                $levels = (int) $expression[$i + 4][1];
                $close = $i + 5;
            }
            if (($expression[$close] ?? null) !== ')') {
                return null;
            }
            if (is($argument, T_FILE) && $levels === 1) {
                $value .= $directory;
            } elseif (is($argument, T_DIR)) {
                $value .= dirname($directory, $levels);
            } else {
                return null;
            }
            // The call's tokens stand for one term: drop them so that the `.` alternation goes on.
            array_splice($expression, $i + 1, $close - $i);
            $count = count($expression);
        } else {
            return null;
        }
    }
    return $count === 0 ? null : $value;
}

$result = [
    'files' => count($files),
    'tokenErrors' => 0,
    'loaders' => $manifests,
    'edges' => [],
    'outside' => 0,
    'missing' => [],
    'notCompared' => ['computedIncludes' => [], 'declaredNotAutoloaded' => 0],
];

$read = [];
foreach ($files as $file) {
    $absolute = $repository . '/' . $file;
    $error = false;
    $tokens = tokensOf(file_get_contents($absolute), $significant, $error);
    if ($error) {
        $result['tokenErrors']++;
    }
    $read[$file] = readPhpFile($absolute, $tokens);
}

/** The files a file includes with a static path (repository-relative), for the autoload files' functions. */
function includedFiles(string $repository, string $file, array $read): array
{
    $found = [];
    foreach ($read[$file][1] ?? [] as [, $value]) {
        $target = $value === null ? null : relativeTo($repository, $value);
        if ($target !== null) {
            $found[] = $target;
        }
    }
    return $found;
}

// Functions and constants Composer makes available: those declared in a loader's autoload files or in what those include.
$available = [];
foreach ($loaders as $folder => [, $autoloadFiles]) {
    $queue = $autoloadFiles;
    $seen = [];
    while ($queue !== []) {
        $file = array_shift($queue);
        if (isset($seen[$file])) {
            continue;
        }
        $seen[$file] = true;
        foreach ($read[$file][2] ?? [] as [$kind, $name]) {
            $available[$folder][$kind . ' ' . strtolower($name)][] = $file;
        }
        array_push($queue, ...includedFiles($repository, $file, $read));
    }
}
$declaredAnywhere = [];
foreach ($read as $file => [, , $declared]) {
    foreach ($declared as [$kind, $name]) {
        $declaredAnywhere[$kind . ' ' . strtolower($name)] = true;
    }
}

foreach ($read as $file => [$imports, $includes]) {
    $chain = chainOf($file, $manifests);
    foreach ($imports as [$kind, $name]) {
        $specifier = $kind === 'class' ? $name : $kind . ' ' . $name;
        if ($kind === 'class') {
            $target = null;
            foreach ($chain as $folder) {
                $found = $loaders[$folder][0]->findFile($name);
                if ($found !== false) {
                    $target = relativeTo($scratch, $found);
                    break;
                }
            }
            if ($target !== null) {
                $result['edges'][] = [$file, $target, $specifier];
            } elseif (class_exists($name, false) || interface_exists($name, false) || trait_exists($name, false) || enum_exists($name, false)) {
                $result['outside']++;
            } else {
                $result['missing'][] = [$file, $specifier];
            }
            continue;
        }
        if (!str_contains($name, '\\')) {
            $result['outside']++;
            continue;
        }
        $key = $kind . ' ' . strtolower($name);
        $targets = [];
        foreach ($chain as $folder) {
            $targets = $available[$folder][$key] ?? [];
            if ($targets !== []) {
                break;
            }
        }
        foreach (array_unique($targets) as $target) {
            $result['edges'][] = [$file, $target, $specifier];
        }
        if ($targets === []) {
            if (isset($declaredAnywhere[$key])) {
                $result['notCompared']['declaredNotAutoloaded']++;
            }
            $result['missing'][] = [$file, $specifier];
        }
    }
    foreach ($includes as [$written, $value]) {
        if ($value === null) {
            $result['notCompared']['computedIncludes'][] = [$file, $written];
            continue;
        }
        if (preg_match('#^[a-z][a-z0-9+.-]*://#i', $value)) {
            $result['outside']++;
            continue;
        }
        if (str_starts_with($value, '/')) {
            $candidates = [$value];
        } elseif (str_starts_with($value, './') || str_starts_with($value, '../')) {
            $candidates = [$repository . '/' . $value];
        } else {
            $candidates = [$repository . '/' . $value, $repository . '/' . dirname($file) . '/' . $value];
        }
        $target = null;
        foreach ($candidates as $candidate) {
            $real = realpath($candidate);
            if ($real !== false && is_file($real)) {
                $target = $real;
                break;
            }
        }
        $relative = $target === null ? null : relativeTo($repository, $target);
        if ($relative !== null) {
            $result['edges'][] = [$file, $relative, "require $written"];
        } elseif ($target !== null) {
            $result['outside']++;
        } else {
            $result['missing'][] = [$file, "require $written"];
        }
    }
}
echo json_encode($result, JSON_UNESCAPED_SLASHES), "\n";
