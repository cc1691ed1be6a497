/**
 * One conversation, one lookup: src/app/data asks the recall core which source
 * holds a conversation (src/recall/conversation.ts `Conversations.of`) and never
 * routes by source kind itself. A reader may translate its own ids (a profile's
 * store maps `<profile>/<id>` to its native id, the index maps `codex:<id>` to
 * its row): that is a source knowing its storage, not a dispatch, so those two
 * files may use the split helpers for their own kind only.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { codeLines, sourceFiles } from './sourceFiles.js';

const DIR = join('src', 'app', 'data');

/** Each reader and the one id form it may decode: its own. */
const OWN: Record<string, RegExp> = {
  'agentSource.ts': /\b(splitAgentSession|isAgentMessageId|splitAgentMessageId)\b/g,
  'profileSource.ts': /\b(splitProfileSession|nativeMessageId)\b/g,
};

/** What routing by source kind looks like: asking an id which kind of source holds it. */
const DISPATCH = [
  /\b(splitAgentSession|splitProfileSession|isAgentSession|isAgentMessageId|isProfileMessageId|profileSlotOf|sessionRef|messageRef|splitAgentMessageId|nativeMessageId)\s*\(/,
  /\bkind\s*[!=]==?\s*['"`](hermes|profile|agent)['"`]/,
  /\bagent\s*[!=]==?\s*['"`]hermes['"`]/,
  /\b(isHermes|isProfile|isAgent|isOther|other)\s*\(\s*(sessionId|chain|win|row|messageId|id|m\.|item)/,
];

/** Lines of `text` (not comments) that route by source kind; `file` names the reader whose own ids are allowed. */
export function dispatchSites(text: string, file = ''): string[] {
  const own = OWN[file];
  return codeLines(text)
    .map(({ line, i }) => ({ line: own ? line.replace(own, 'own') : line, i }))
    .filter(({ line }) => !/^\s*import\b|^\s*[A-Za-z]+,\s*$/.test(line))
    .filter(({ line }) => DISPATCH.some((re) => re.test(line)))
    .map(({ i }) => `line ${i + 1}`);
}

describe('src/app/data asks the core which source holds a conversation', () => {
  it('no file of src/app/data routes by source kind', () => {
    const paths = sourceFiles([DIR], /\.ts$/);
    expect(paths.map((p) => basename(p))).toContain('source.ts');
    const found = paths.flatMap((p) =>
      dispatchSites(readFileSync(p, 'utf8'), basename(p)).map((s) => `${p}: ${s}`),
    );
    expect(found).toEqual([]);
  });

  it('the one lookup lives in the core and decodes the typed ref there', () => {
    const core = readFileSync(join('src', 'recall', 'conversation.ts'), 'utf8');
    expect(dispatchSites(core).length).toBeGreaterThan(0);
    expect(readFileSync(join(DIR, 'source.ts'), 'utf8')).toMatch(/new Conversations</);
  });

  it('finds a dispatch by hand (so the check can fail)', () => {
    // The shapes DataSource had before the core's lookup.
    expect(dispatchSites('    if (this.agents && other(sessionId)) return x;')).toEqual(['line 1']);
    expect(dispatchSites('    const p = splitProfileSession(sessionId);')).toEqual(['line 1']);
    expect(dispatchSites('    if (isAgentMessageId(messageId)) return y;')).toEqual(['line 1']);
    expect(dispatchSites("  if (ref.kind === 'agent') return z;")).toEqual(['line 1']);
    expect(dispatchSites("  if (item.agent !== 'hermes') return z;")).toEqual(['line 1']);
    // A reader's own ids are its storage; another kind in the same file is still found.
    expect(dispatchSites('    const s = splitAgentSession(sessionId);', 'agentSource.ts')).toEqual(
      [],
    );
    expect(
      dispatchSites('    const s = splitProfileSession(sessionId);', 'agentSource.ts'),
    ).toEqual(['line 1']);
    // Comments and anchor kinds (the parser's, not a source's) are not dispatch.
    expect(dispatchSites(' * splitProfileSession(x) decodes it')).toEqual([]);
    expect(dispatchSites("  if (anchor.kind === 'agentMessage') x();")).toEqual([]);
  });
});
