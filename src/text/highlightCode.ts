/**
 * Colours for fenced code: a small in-house tokenizer that finds keywords,
 * strings, comments and numbers for a few languages people paste into agent
 * conversations. It is deliberately shallow (no grammar, no nesting beyond
 * block comments and multi-line strings): enough to read code at a glance,
 * cheap on long blocks, and it never throws. Unknown languages stay plain.
 */
import type { Draft, Style } from './styled.js';

interface Lang {
  keywords: ReadonlySet<string>;
  /** Keywords are matched case-insensitively (SQL). */
  caseless?: boolean;
  lineComment?: readonly string[];
  block?: readonly [string, string];
  /** Quote characters of one-line strings (escape with a backslash, except SQL's doubled quote). */
  quotes: string;
  /** Quotes whose strings may span lines (JS template literals, Go raw strings). */
  multiQuotes?: string;
  /** Python's ''' and """. */
  triple?: boolean;
  /** `key:` at the start of a line is a key (YAML). */
  yamlKeys?: boolean;
  /** `"…"` directly followed by `:` is a key (JSON). */
  jsonKeys?: boolean;
  /** `$NAME`, `${…}` are variables (shell). */
  shellVars?: boolean;
}

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

const JS =
  words(`break case catch class const continue debugger default delete do else export extends
  finally for function if import in instanceof let new return super switch this throw try typeof var void
  while with yield async await of static get set true false null undefined interface type enum implements
  private protected public readonly declare namespace abstract as from keyof never unknown any`);

const LANGS: Record<string, Lang> = {
  js: { keywords: JS, lineComment: ['//'], block: ['/*', '*/'], quotes: `'"`, multiQuotes: '`' },
  python: {
    keywords: words(`and as assert async await break class continue def del elif else except finally
      for from global if import in is lambda nonlocal not or pass raise return try while with yield
      True False None self match case`),
    lineComment: ['#'],
    quotes: `'"`,
    triple: true,
  },
  sh: {
    keywords: words(`if then else elif fi for while until do done case esac function in return local
      export readonly unset shift exit set source alias echo cd sudo`),
    lineComment: ['#'],
    quotes: `'"`,
    shellVars: true,
  },
  json: { keywords: words('true false null'), quotes: '"', jsonKeys: true },
  sql: {
    keywords: words(`select from where and or not insert into values update set delete create table
      index view drop alter add column primary key foreign references join left right inner outer full
      on as group by order having limit offset union all distinct case when then else end is null like
      in exists between pragma begin commit rollback transaction with recursive returning default
      integer text real blob asc desc count sum avg min max trigger virtual using`),
    caseless: true,
    lineComment: ['--'],
    block: ['/*', '*/'],
    quotes: `'"`,
  },
  rust: {
    keywords:
      words(`as async await break const continue crate dyn else enum extern false fn for if impl
      in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe
      use where while Some None Ok Err`),
    lineComment: ['//'],
    block: ['/*', '*/'],
    quotes: '"',
  },
  go: {
    keywords:
      words(`break case chan const continue default defer else fallthrough for func go goto if
      import interface map package range return select struct switch type var nil true false iota`),
    lineComment: ['//'],
    block: ['/*', '*/'],
    quotes: `"'`,
    multiQuotes: '`',
  },
  yaml: {
    keywords: words('true false null yes no on off ~'),
    lineComment: ['#'],
    quotes: `'"`,
    yamlKeys: true,
  },
};

const ALIASES: Record<string, string> = {
  js: 'js',
  javascript: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  ts: 'js',
  typescript: 'js',
  tsx: 'js',
  py: 'python',
  python: 'python',
  python3: 'python',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  zsh: 'sh',
  console: 'sh',
  shellscript: 'sh',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  sql: 'sql',
  sqlite: 'sql',
  postgresql: 'sql',
  rust: 'rust',
  rs: 'rust',
  go: 'go',
  golang: 'go',
  yaml: 'yaml',
  yml: 'yaml',
};

/** The tokenizer's name for a fence's info string (`ts`, `Python {linenos}`), or null if unknown. */
export function codeLanguage(info: string | null | undefined): string | null {
  const first =
    (info ?? '')
      .trim()
      .split(/[\s{,]/)[0]
      ?.toLowerCase() ?? '';
  return ALIASES[first] ?? null;
}

/** Where a multi-line construct left off at the end of a line. */
type Carry = { kind: 'none' } | { kind: 'block' } | { kind: 'string'; close: string };

const NUMBER =
  /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[a-zA-Z0-9_]*/;
const IDENT = /^[\p{L}_$][\p{L}\p{N}_$]*/u;

function push(out: Draft, text: string, style: Style): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last && last.style === style) last.text += text;
  else out.push({ text, style });
}

/** End index (exclusive) of a string starting at `i` with quote `q`; -1 when it runs past the line. */
function stringEnd(line: string, i: number, close: string, backslash: boolean): number {
  let j = i;
  while (j < line.length) {
    if (backslash && line[j] === '\\') {
      j += 2;
      continue;
    }
    if (line.startsWith(close, j)) {
      // SQL doubles a quote to escape it.
      if (!backslash && close.length === 1 && line[j + 1] === close) {
        j += 2;
        continue;
      }
      return j + close.length;
    }
    j++;
  }
  return -1;
}

function tokenizeLine(line: string, lang: Lang, carry: Carry): { draft: Draft; carry: Carry } {
  const out: Draft = [];
  let i = 0;
  const backslash = lang !== LANGS.sql;
  if (carry.kind === 'block' && lang.block) {
    const end = line.indexOf(lang.block[1]);
    if (end < 0) return { draft: [{ text: line, style: 'comment' }], carry };
    push(out, line.slice(0, end + lang.block[1].length), 'comment');
    i = end + lang.block[1].length;
  } else if (carry.kind === 'string') {
    const end = stringEnd(line, 0, carry.close, backslash);
    if (end < 0) return { draft: [{ text: line, style: 'string' }], carry };
    push(out, line.slice(0, end), 'string');
    i = end;
  }
  if (lang.yamlKeys && i === 0) {
    const m = /^(\s*(?:-\s+)?)([^\s#:'"][^#:]*?|"[^"]*"|'[^']*')(\s*:)(?=\s|$)/.exec(line);
    if (m) {
      push(out, m[1] as string, 'plain');
      push(out, m[2] as string, 'key');
      push(out, m[3] as string, 'punct');
      i = m[0].length;
    }
  }
  while (i < line.length) {
    const rest = line.slice(i);
    const ch = line[i] as string;
    const comment = lang.lineComment?.find((c) => rest.startsWith(c));
    // A shell or YAML `#` starts a comment only at a word start (`a#b` is a word).
    if (comment && (comment !== '#' || i === 0 || /\s/.test(line[i - 1] as string))) {
      push(out, rest, 'comment');
      return { draft: out, carry: { kind: 'none' } };
    }
    if (lang.block && rest.startsWith(lang.block[0])) {
      const end = line.indexOf(lang.block[1], i + lang.block[0].length);
      if (end < 0) {
        push(out, rest, 'comment');
        return { draft: out, carry: { kind: 'block' } };
      }
      push(out, line.slice(i, end + lang.block[1].length), 'comment');
      i = end + lang.block[1].length;
      continue;
    }
    if (lang.triple && (rest.startsWith('"""') || rest.startsWith("'''"))) {
      const close = rest.slice(0, 3);
      const end = stringEnd(line, i + 3, close, true);
      if (end < 0) {
        push(out, rest, 'string');
        return { draft: out, carry: { kind: 'string', close } };
      }
      push(out, line.slice(i, end), 'string');
      i = end;
      continue;
    }
    if (lang.quotes.includes(ch) || (lang.multiQuotes ?? '').includes(ch)) {
      const end = stringEnd(line, i + 1, ch, backslash && ch !== '`');
      if (end < 0) {
        push(out, rest, 'string');
        const multi = (lang.multiQuotes ?? '').includes(ch);
        return { draft: out, carry: multi ? { kind: 'string', close: ch } : { kind: 'none' } };
      }
      const isKey = lang.jsonKeys === true && /^\s*:/.test(line.slice(end));
      push(out, line.slice(i, end), isKey ? 'key' : 'string');
      i = end;
      continue;
    }
    if (lang.shellVars && ch === '$') {
      const m = /^\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@#?*$!-])/.exec(rest);
      if (m) {
        push(out, m[0], 'key');
        i += m[0].length;
        continue;
      }
    }
    if (/[0-9.]/.test(ch) && (i === 0 || !/[\p{L}\p{N}_$]/u.test(line[i - 1] as string))) {
      const m = NUMBER.exec(rest);
      if (m && /\d/.test(m[0])) {
        push(out, m[0], 'number');
        i += m[0].length;
        continue;
      }
    }
    const id = IDENT.exec(rest);
    if (id) {
      const word = id[0];
      const isKeyword = lang.keywords.has(lang.caseless ? word.toLowerCase() : word);
      // Shell words like `done-file` or `if.txt` are not keywords.
      const glued = lang.shellVars === true && /^[-.\w/]/.test(line.slice(i + word.length));
      push(out, word, isKeyword && !glued ? 'keyword' : 'plain');
      i += word.length;
      continue;
    }
    push(out, ch, /[{}[\]();,:.=<>+\-*/%!&|^~?]/.test(ch) ? 'punct' : 'plain');
    i++;
  }
  return { draft: out, carry: { kind: 'none' } };
}

/**
 * The lines of `code` (split at "\n") as styled drafts for `language` (a
 * fence info string or a name). Unknown languages: each line one plain
 * segment. Input should be sanitized; this adds nothing but styles.
 */
export function highlightCode(code: string, language: string | null | undefined): Draft[] {
  const lines = (typeof code === 'string' ? code : '').split('\n');
  const name = codeLanguage(language);
  const lang = name === null ? undefined : LANGS[name];
  if (!lang) return lines.map((l) => (l === '' ? [] : [{ text: l, style: 'plain' as Style }]));
  let carry: Carry = { kind: 'none' };
  return lines.map((line) => {
    const r = tokenizeLine(line, lang, carry);
    carry = r.carry;
    return r.draft;
  });
}
