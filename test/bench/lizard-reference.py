"""Lizard's cyclomatic counts, each with what it counted, for complexity-languages.bench.ts.

    python3 lizard-reference.py <lizard checkout> <file list> <jobs>

Imports lizard from a checkout of terryyin/lizard (never committed here) and
analyzes each file of the list (one path a line) as `lizard` does, with its
default extensions. Prints one JSON object per file: `file` and `functions`,
each function as [name, start line, end line, cyclomatic, counted], where
`counted` says what raised the figure: the condition tokens lizard's
`condition_counter` saw (`if`, `&&`, `?`, ...) and, as `<rule>:<token>`, the
additions and subtractions the language's own reader made (Kotlin's `when`
arms, C's `#if`, Python's `case`, C++'s `&&` of an rvalue reference). For each
function 1 plus the sum of `counted` is its cyclomatic figure.
"""

import json
import sys
from collections import Counter
from multiprocessing import Pool

sys.path.insert(0, sys.argv[1])
import lizard  # noqa: E402

_counter = {"token": None}


def _recording_condition_counter(tokens, reader):
    conditions = reader.conditions
    for token in tokens:
        if token in conditions:
            _counter["token"] = token
            reader.context.add_condition()
            _counter["token"] = None
        yield token


def _counted(function):
    counted = function.__dict__.get("_counted")
    if counted is None:
        counted = Counter()
        function.__dict__["_counted"] = counted
    return counted


_add_condition = lizard.FileInfoBuilder.add_condition
_confirm_new_function = lizard.FileInfoBuilder.confirm_new_function


def _recording_add_condition(self, inc=1):
    token = _counter["token"]
    key = token if token is not None else sys._getframe(1).f_code.co_name
    _counted(self.current_function)[key] += inc
    _add_condition(self, inc)


def _recording_confirm_new_function(self):
    # Lizard starts the count again when it confirms a function.
    self.current_function.__dict__["_counted"] = Counter()
    _confirm_new_function(self)


lizard.condition_counter = _recording_condition_counter
lizard.FileInfoBuilder.add_condition = _recording_add_condition
lizard.FileInfoBuilder.confirm_new_function = _recording_confirm_new_function
_analyze = lizard.FileAnalyzer(lizard.get_extensions([]))


def analyze(filename):
    info = _analyze(filename)
    functions = []
    for function in info.function_list:
        counted = {key: value for key, value in _counted(function).items() if value != 0}
        functions.append([function.name, function.start_line, function.end_line, function.cyclomatic_complexity, counted])
    return json.dumps({"file": filename, "functions": functions})


def main():
    with open(sys.argv[2], encoding="utf8") as listing:
        files = [line.rstrip("\n") for line in listing if line.strip()]
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    if jobs > 1:
        with Pool(jobs) as pool:
            for line in pool.imap(analyze, files, chunksize=4):
                print(line)
    else:
        for filename in files:
            print(analyze(filename))


if __name__ == "__main__":
    main()
