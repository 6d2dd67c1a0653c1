/**
 * Complexity figures the indexer gives the files and symbols of the
 * languages it parses with tree-sitter (host/src/indexer/tree-sitter-complexity.ts
 * has the definitions: McCabe's cyclomatic count, SonarSource's cognitive
 * complexity). Each fixture's figures are counted by hand in the comment
 * above its expectation, construct by construct.
 */
import { indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const FILES: Record<string, string> = {
  'Main.java': `class Main {
  int choose(int x, boolean a, boolean b) {
    if (a && b || x > 0) {
      return 1;
    } else if (b) {
      for (int i = 0; i < x; i++) {
        if (i > 2) continue;
      }
    } else {
      return x > 1 ? 2 : 3;
    }
    switch (x) {
      case 1:
      case 2:
        break;
      default:
        break;
    }
    outer:
    while (a) {
      try {
        break outer;
      } catch (RuntimeException e) {
        return 4;
      }
    }
    return 0;
  }
  Main() {
    Runnable r = () -> { if (flag) go(); };
  }
}
`,
  'main.go': `package main

func choose(x int, a, b bool) int {
	if a && b {
		return 1
	} else if x > 2 {
		return 2
	} else {
		switch x {
		case 1, 2:
			return 3
		case 4:
		default:
		}
	}
	f := func() {
		for x > 0 {
			x--
		}
	}
	f()
	goto end
end:
	return 0
}

func (s *S) Method() {}
`,
  'lib.rs': `fn choose(x: i32, a: bool) -> i32 {
    if a && x > 0 || x < -5 {
        1
    } else if x == 0 {
        2
    } else {
        match x {
            1 | 2 => 3,
            3 => 4,
            _ => 5,
        }
    }
}

impl S {
    fn m(&self) -> Option<i32> {
        let c = |v: i32| if v > 0 { v } else { 0 };
        'outer: loop {
            while self.go() {
                break 'outer;
            }
        }
        g()?;
        Some(c(1))
    }
}
`,
  'a.rb': `def choose(x)
  if x && y or z
    1
  elsif x
    2
  else
    3
  end
  y = x ? 1 : 2
  z = 3 unless x
  case x
  when 1, 2 then 3
  when 4 then 5
  else 6
  end
  begin
    go
  rescue StandardError
    nil
  ensure
    done
  end
  [1].each { |v| puts v if v }
end
`,
  'a.kt': `fun choose(x: Int, a: Boolean): Int {
    if (a && x > 0) {
        return 1
    } else if (x == 0) {
        return 2
    } else {
        val y = x ?: 0
    }
    val z = when (x) {
        1, 2 -> 3
        4 -> 5
        else -> 6
    }
    for (i in 1..x) {
        list.forEach { if (it > i) println(it) }
    }
    try { go() } catch (e: Exception) { }
    return z
}
`,
  'A.cs': `class A {
  int P { get { return a ?? b; } }
  int Choose(int x, bool a) {
    if (a && x > 0) {
      return 1;
    } else if (x == 0) {
      return 2;
    } else {
      foreach (var v in list) { if (v > 0) return v; }
    }
    switch (x) {
      case 1:
      case 2:
        break;
      default:
        break;
    }
    var y = x switch { 1 => 2, _ => 3 };
    Func<int, int> f = v => v > 0 ? v : -v;
    return y;
  }
}
`,
  'a.c': `int choose(int x, int a) {
  if (a && x > 0) {
    return 1;
  } else if (x == 0) {
    return 2;
  } else {
    do { x--; } while (x > 10);
  }
  switch (x) {
    case 1:
    case 2:
      break;
    default:
      goto fail;
  }
  return x > 3 ? 4 : 5;
fail:
  return -1;
}
`,
  'b.cpp': `class K {
  int m(int x) {
    try { if (x) return 1; } catch (...) { return 2; }
    auto f = [](int v) { return v > 0 ? v : 0; };
    for (int v : xs) { if (v) return v; }
    return x and f(x);
  }
};
`,
  'a.py': `import os

def f(x):
    if x and os or x:
        return 1
    elif x:
        for i in x:
            if i:
                pass
    else:
        return 2
    return [v for v in x if v]

class C:
    def m(self, y):
        # a comment
        return y if y else None

    @staticmethod
    def s():
        def inner(z):
            while z:
                z -= 1
        return inner
`,
};

type Figures = Pick<GraphNode, 'cyclomatic' | 'cognitive' | 'loc'>;

const figuresOf = (nodes: readonly GraphNode[], id: string): Figures | undefined => {
  const node = nodes.find((candidate) => candidate.id === id);
  return node && { cyclomatic: node.cyclomatic, cognitive: node.cognitive, loc: node.loc };
};

const repo = await makeRepo(t, FILES);
const graph = await indexRepository({ repository: repo, env: {} });
const figures = (id: string): Figures | undefined => figuresOf(graph.nodes, id);

t.test('Python: if, boolean operators, elif, loops, else, comprehensions, conditional expressions; nested functions count apart', async (t) => {
  // f: 1 + if + and + or + elif + for + if + the comprehension's for and if = 9.
  // Cognitive: if 1, `and ... or` two sequences 2, elif 1, for (nesting 1) 2, if (nesting 2) 3, else 1 = 10 (comprehensions count no cognitive).
  t.same(figures('sym:a.py#f'), { cyclomatic: 9, cognitive: 10, loc: 10 });
  // m: 1 + conditional expression; cognitive 1. s: 1 (inner is a function of its own: 1 + while = 2, cognitive 1).
  t.same(figures('sym:a.py#C.m'), { cyclomatic: 2, cognitive: 1, loc: 2 }, 'the comment line is not code');
  t.same(figures('sym:a.py#C.s'), { cyclomatic: 1, cognitive: 0, loc: 6 }, "the decorator line is the symbol's");
  // The class adds up m, s and inner: 2 + 1 + 2, cognitive 1 + 0 + 1.
  t.same(figures('sym:a.py#C'), { cyclomatic: 5, cognitive: 2, loc: 9 });
  t.same(figures('file:a.py'), { cyclomatic: 14, cognitive: 12, loc: 20 }, 'a file adds up every function in it');
});

t.test('Java: else-if chains, switch cases, labelled break, catch, ternary, lambdas', async (t) => {
  // 1 + if + && + || + else-if + for + if + ternary + case 1 + case 2 + while + catch = 12 (default is not counted).
  // Cognitive: if 1, && || 2, else if 1, for (1) 2, if (2) 3, else 1, ternary (1) 2, switch 1, while 1, break outer 1, catch (1) 2 = 17.
  t.same(figures('sym:Main.java#Main.choose'), { cyclomatic: 12, cognitive: 17, loc: 27 });
  // A constructor; the lambda nests its if one level: 1 + if = 2, cognitive 1 + 1.
  t.same(figures('sym:Main.java#Main.Main'), { cyclomatic: 2, cognitive: 2, loc: 3 });
  t.same(figures('file:Main.java'), { cyclomatic: 14, cognitive: 19, loc: 32 });
});

t.test('Go: cases with several values, default, closures, goto', async (t) => {
  // 1 + if + && + else-if + `case 1, 2` + `case 4` + for = 7.
  // Cognitive: if 1, && 1, else if 1, else 1, switch (1) 2, for in a closure (1) 2, goto 1 = 9.
  t.same(figures('sym:main.go#choose'), { cyclomatic: 7, cognitive: 9, loc: 23 });
  t.same(figures('sym:main.go#S.Method'), { cyclomatic: 1, cognitive: 0, loc: 1 });
});

t.test('Rust: match arms but `_`, closures, loop, labelled break; `?` is not a branch', async (t) => {
  // 1 + if + && + || + else-if + arms `1 | 2` and `3` = 7. Cognitive: if 1, && || 2, else if 1, else 1, match (1) 2 = 7.
  t.same(figures('sym:lib.rs#choose'), { cyclomatic: 7, cognitive: 7, loc: 13 });
  // 1 + the closure's if + while = 3. Cognitive: if in a closure (1) 2, else 1, loop 1, while (1) 2, break 'outer 1 = 7.
  t.same(figures('sym:lib.rs#S.m'), { cyclomatic: 3, cognitive: 7, loc: 10 });
});

t.test('Ruby: elsif, unless modifier, case/when, rescue, blocks, `and`/`or`', async (t) => {
  // 1 + if + && + or + elsif + ternary + unless + when + when + rescue + the block's if = 11.
  // Cognitive: if 1, `&& ... or` 2, elsif 1, else 1, ternary 1, unless 1, case 1, rescue 1, if in a block (1) 2 = 11.
  t.same(figures('sym:a.rb#choose'), { cyclomatic: 11, cognitive: 11, loc: 24 });
});

t.test('Kotlin: when entries but else, elvis, lambdas, catch', async (t) => {
  // 1 + if + && + else-if + ?: + `1, 2 ->` + `4 ->` + for + the lambda's if + catch = 10.
  // Cognitive: if 1, && 1, else if 1, else 1, ?: 1, when 1, for 1, if in a lambda in the for (2) 3, catch 1 = 11.
  t.same(figures('sym:a.kt#choose'), { cyclomatic: 10, cognitive: 11, loc: 19 });
});

t.test('C#: accessors are functions, foreach, switch sections and switch expression arms but the default ones, ??', async (t) => {
  // 1 + if + && + else-if + foreach + if + case 1 + case 2 + the arm `1 =>` + the lambda's ternary = 10.
  // Cognitive: if 1, && 1, else if 1, else 1, foreach (1) 2, if (2) 3, switch 1, switch expression 1, ternary in a lambda (1) 2 = 13.
  t.same(figures('sym:A.cs#A.Choose'), { cyclomatic: 10, cognitive: 13, loc: 19 });
  // The class adds up the getter (1 + ??, cognitive 1) and Choose.
  t.same(figures('sym:A.cs#A'), { cyclomatic: 12, cognitive: 14, loc: 22 });
});

t.test('C and C++: do-while, cases, goto, catch, lambdas, range for, `and`', async (t) => {
  // 1 + if + && + else-if + do-while + case 1 + case 2 + ternary = 8. Cognitive: if 1, && 1, else if 1, else 1, do (1) 2, switch 1, goto 1, ternary 1 = 9.
  t.same(figures('sym:a.c#choose'), { cyclomatic: 8, cognitive: 9, loc: 19 });
  // 1 + if + catch + the lambda's ternary + range for + if + `and` = 7. Cognitive: if 1, catch 1, ternary in a lambda (1) 2, for 1, if (1) 2, and 1 = 8.
  t.same(figures('sym:b.cpp#K.m'), { cyclomatic: 7, cognitive: 8, loc: 6 });
  t.same(figures('sym:b.cpp#K'), { cyclomatic: 7, cognitive: 8, loc: 8 });
});

t.test('PHP: elseif and else if, ?: and ??, ??=, switch and match arms but the defaults, closures, goto', async (t) => {
  const repo = await makeRepo(t, {
    'a.php': `<?php
function f($x) {
  if ($a && $b || $c and $d) { g(); } elseif ($x) { h(); } else if ($y) { i(); } else { j(); }
  $y = $x ? 1 : 2; $z = $x ?: 3; $w = $x ?? 4; $v ??= 5;
  switch ($x) { case 1: case 2: break; default: break; }
  $m = match($x) { 1, 2 => 3, default => 4 };
  foreach ($xs as $q) { while ($q) {} }
  try {} catch (E $e) {}
  $c = function() { if (1) {} };
  $d = fn($p) => $p ? 1 : 0;
  goto end;
  end:
}
`,
  });
  const nodes = (await indexRepository({ repository: repo, env: {} })).nodes;
  // 1 + if + && + || + and + elseif + else-if + ?: (ternary) + ?: (short) + ?? + ??= + case 1 + case 2 + the arm `1, 2` + foreach + while
  // + catch + the closure's if + the arrow function's ternary = 19.
  // Cognitive: if 1, && || and (three sequences) 3, elseif 1, else if 1, else 1, ternary 1, ?: 1, ?? 1, switch 1, match 1, foreach 1,
  // while (1) 2, catch 1, if in a closure (1) 2, ternary in an arrow function (1) 2, goto 1 = 21 (??= counts for cyclomatic only).
  t.same(figuresOf(nodes, 'sym:a.php#f'), { cyclomatic: 19, cognitive: 21, loc: 12 });
});

t.test('conditions of #if are no code; a case counts each label and its guard; logical assignments count for cyclomatic only', async (t) => {
  const repo = await makeRepo(t, {
    'a.c': '#include <stdio.h>\nint f(void) {\n#if defined(A) && defined(B)\n  return 1;\n#elif C || D\n  return 3;\n#endif\n  return 0;\n}\n',
    'A.cs':
      'class A {\n  int F(int x) {\n#if DEBUG && TRACE\n    x++;\n#endif\n    switch (x) { case 1: case 2: return 1; case 3 when x > 0: return 3; default: return 0; }\n  }\n  void G() { y ??= 3; }\n}\n',
    'a.rs': 'fn f(x: Option<i32>) -> i32 {\n    match x { Some(y) if y > 0 => 1, Some(_) => 3, _ => 2 }\n}\n',
    'a.rb': 'def f\n  a ||= 1\n  b &&= 2\nend\n',
  });
  const nodes = (await indexRepository({ repository: repo, env: {} })).nodes;
  t.same(figuresOf(nodes, 'sym:a.c#f'), { cyclomatic: 1, cognitive: 0, loc: 8 }, 'C: `#if A && B` and `#elif C || D` count nothing');
  // 1 + `case 1:` + `case 2:` (one section, two labels) + `case 3` + its `when` = 5; cognitive: switch 1.
  t.same(figuresOf(nodes, 'sym:A.cs#A.F'), { cyclomatic: 5, cognitive: 1, loc: 6 }, 'C#: labels, when, #if');
  t.same(figuresOf(nodes, 'sym:A.cs#A.G'), { cyclomatic: 2, cognitive: 0, loc: 1 }, 'C#: ??=');
  // 1 + the arm with its guard (1 + 1) + `Some(_)` = 4 (`_` is the default); cognitive: match 1.
  t.same(figuresOf(nodes, 'sym:a.rs#f'), { cyclomatic: 4, cognitive: 1, loc: 3 }, 'Rust: a match guard');
  t.same(figuresOf(nodes, 'sym:a.rb#f'), { cyclomatic: 3, cognitive: 0, loc: 4 }, 'Ruby: ||= and &&=');
});

t.test('files of languages the indexer does not measure carry no complexity', async (t) => {
  const repo = await makeRepo(t, { 'src/a.ts': 'export function f(a: boolean) { return a ? 1 : 2; }\n', 'notes.md': '# notes\n' });
  const nodes = (await indexRepository({ repository: repo, env: {} })).nodes;
  for (const id of ['file:src/a.ts', 'sym:src/a.ts#f', 'file:notes.md']) {
    t.same(figuresOf(nodes, id)?.cyclomatic, undefined, `${id}: no figures (TypeScript is measured by the complexity plugin, Markdown by nothing)`);
  }
});

t.test('5,000 nested conditionals: measured without recursion, cognitive complexity grows with the nesting', async (t) => {
  const depth = 5_000;
  const body = `${'if x {\n'.repeat(depth)}${'}\n'.repeat(depth)}`;
  const repo = await makeRepo(t, { 'deep.go': `package deep\n\nfunc Deep(x bool) {\n${body}}\n` });
  const nodes = (await indexRepository({ repository: repo, env: {} })).nodes;
  // Each if adds 1 plus its nesting level: 5,000 + (0 + 1 + ... + 4,999).
  t.same(figuresOf(nodes, 'sym:deep.go#Deep'), { cyclomatic: depth + 1, cognitive: depth + (depth * (depth - 1)) / 2, loc: 2 * depth + 2 });
});
