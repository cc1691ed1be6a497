// `{placeholder}` expansion against a topic. Each call draws fresh values, so
// the same template yields different sentences across a store.

import type { Topic } from './corpus.js';
import type { Rng } from './rng.js';

function pair(rng: Rng, items: readonly string[]): [string, string] {
  const [a, b] = rng.sample(items, 2);
  const first = a ?? '';
  return [first, b ?? first];
}

export function shortError(error: string): string {
  const line = error.split('\n')[0] ?? error;
  return line.length > 70 ? line.slice(0, 70).replace(/\s+\S*$/, '') : line;
}

export function fill(
  template: string,
  topic: Topic,
  rng: Rng,
  fixed: Readonly<Record<string, string>> = {},
): string {
  let terms: [string, string] | undefined;
  let files: [string, string] | undefined;
  let idents: [string, string] | undefined;
  let lines: [number, number] | undefined;
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const given = fixed[key];
    if (given !== undefined) return given;
    switch (key) {
      case 'name':
        return topic.name;
      case 'title':
        return topic.title;
      case 'project':
        return topic.project;
      case 'branch':
        return topic.branch;
      case 'lang':
        return topic.lang;
      case 'term':
      case 'term2':
        terms ??= pair(rng, topic.terms);
        return key === 'term' ? terms[0] : terms[1];
      case 'file':
      case 'file2':
        files ??= pair(rng, topic.files);
        return key === 'file' ? files[0] : files[1];
      case 'ident':
      case 'ident2':
        idents ??= pair(rng, topic.idents);
        return key === 'ident' ? idents[0] : idents[1];
      case 'cmd':
        return rng.pick(topic.commands);
      case 'error':
        return rng.pick(topic.errors);
      case 'error_short':
        return shortError(rng.pick(topic.errors));
      case 'decision':
        return rng.pick(topic.decisions);
      case 'label':
        return rng.pick(topic.labels);
      case 'problem':
        return rng.pick(topic.problems);
      case 'problem_lc':
        return rng.pick(topic.problems);
      case 'snippet':
        return rng.pick(topic.snippets);
      case 'n':
        return String(rng.int(3, 240));
      case 'n2':
        return String(rng.int(1, 9));
      case 'line':
      case 'line2':
        lines ??= [rng.int(12, 400), rng.int(12, 400)];
        return String(key === 'line' ? lines[0] : lines[1]);
      default:
        return whole;
    }
  });
}

export function capitalize(s: string): string {
  return s.length === 0 ? s : (s[0] ?? '').toUpperCase() + s.slice(1);
}
