/**
 * Import circles among the app's own files (src/, components/, the root *.ts),
 * found with the TypeScript parser: static imports and re-exports, type-only
 * ones, and lazy `import()` alike, since each is an arrow the layering must keep
 * one way. tests/architecture/circles.test.ts fails on any circle; run
 * `node scripts/importCircles.mjs [dir]` to print them (exit 1 when there are).
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOTS = ['src', 'components'];

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every relative module a file names: `import`, `export … from`, `import()`. */
export function specifiers(path, text) {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(node.importClause?.isTypeOnly)
        : node.isTypeOnly;
      found.push({ spec: node.moduleSpecifier.text, kind: typeOnly ? 'type' : 'static' });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ spec: node.arguments[0].text, kind: 'lazy' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found.filter((f) => f.spec.startsWith('.'));
}

function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const c of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), base])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** The import graph of `root` (a checkout): file → [{ to, kind }], paths relative to root. */
export function importGraph(root) {
  const files = [
    ...ROOTS.filter((r) => existsSync(join(root, r))).flatMap((r) => sourceFiles(join(root, r))),
    ...readdirSync(root)
      .filter((n) => /\.tsx?$/.test(n) && !n.endsWith('.d.ts') && !n.includes('.config.'))
      .map((n) => join(root, n)),
  ];
  const graph = new Map();
  for (const file of files) {
    const edges = [];
    for (const { spec, kind } of specifiers(file, readFileSync(file, 'utf8'))) {
      const to = resolveSpec(file, spec);
      if (to && /\.tsx?$/.test(to)) edges.push({ to: relative(root, to), kind });
    }
    graph.set(relative(root, file), edges);
  }
  return graph;
}

/** Strongly connected groups of more than one file (Tarjan), each sorted; and self-imports. */
export function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to)) continue;
      if (!idx.has(to)) {
        strong(to);
        low.set(v, Math.min(low.get(v), low.get(to)));
      } else if (on.has(to)) low.set(v, Math.min(low.get(v), idx.get(to)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        group.push(w);
      } while (w !== v);
      const self = (graph.get(v) ?? []).some((e) => e.to === v);
      if (group.length > 1 || self) out.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The arrows inside one circle, as `a → b (kind)` lines. */
export function circleEdges(graph, group) {
  const inside = new Set(group);
  return group.flatMap((from) =>
    (graph.get(from) ?? [])
      .filter((e) => inside.has(e.to))
      .map((e) => `${from} → ${e.to}${e.kind === 'static' ? '' : ` (${e.kind})`}`),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? '.');
  const graph = importGraph(root);
  const found = circles(graph);
  for (const [i, group] of found.entries()) {
    console.log(`circle ${i + 1}: ${group.length} files`);
    for (const line of circleEdges(graph, group)) console.log(`  ${line}`);
  }
  console.log(`${graph.size} files, ${found.length} circle(s)`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
