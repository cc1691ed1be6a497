/**
 * What "inert" and "a one-line error" mean for output that reaches a terminal,
 * as checks the reliability tests share.
 */

/** Characters a terminal acts on rather than shows (or that reorder what it shows). */
export const UNSAFE: Record<string, RegExp> = {
  ESC: /\u001b/,
  BEL: /\u0007/,
  'C0 control': /[\u0000-\u0006\u0008\u000b-\u001a\u001c-\u001f\u007f]/,
  'C1 control': /[\u0080-\u009f]/,
  'bidi control': /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/,
  'lone surrogate': /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
};

/** The names of the unsafe classes found in `text` (empty when it is inert). */
export function unsafeIn(text: string): string[] {
  return Object.entries(UNSAFE)
    .filter(([, re]) => re.test(text))
    .map(([name]) => name);
}

/**
 * Problems with a command's stderr: every line must be one of lookback's own
 * `lookback: …` lines, and no stack trace may appear.
 */
export function stderrProblems(stderr: string): string[] {
  const problems: string[] = [];
  if (/\n\s+at\s/.test(stderr) || /^\s+at\s/m.test(stderr)) problems.push('stack trace');
  for (const line of stderr.split('\n'))
    if (line.length > 0 && !line.startsWith('lookback: '))
      problems.push(`stray line: ${line.slice(0, 200)}`);
  return problems;
}
