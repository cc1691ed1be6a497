import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { resolveRef } from '../../src/store/resolve.js';
import { parseAnchor } from '../../src/anchors/parse.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { loadSnapshot, visible } from '../helpers/oracle.js';

describe('resolving what a person pastes', () => {
  const path = fixtureCopy(30);
  const snap = loadSnapshot(path);
  const store = Store.open(path);
  const chainChild = [...snap.sessions.values()].find(
    (s) =>
      s.parent_session_id && snap.sessions.get(s.parent_session_id)?.end_reason === 'compression',
  )!;
  const childMsg = snap.bySession.get(chainChild.id)!.filter(visible)[2]!.id;

  it('a pasted scroll call lands on its message', () => {
    const a = parseAnchor(
      `session_search(session_id="${chainChild.id}", around_message_id=${childMsg}, window=5)`,
    );
    expect(a).toMatchObject({ kind: 'scroll', sessionId: chainChild.id, messageId: childMsg });
    expect(
      resolveRef(store, { kind: 'message', sessionId: chainChild.id, messageId: childMsg }),
    ).toEqual({
      ok: true,
      sessionId: chainChild.id,
      messageId: childMsg,
      note: null,
    });
  });

  it('a message in another segment of the same chain resolves to its owner', () => {
    const r = resolveRef(store, {
      kind: 'message',
      sessionId: chainChild.parent_session_id!,
      messageId: childMsg,
    });
    expect(r).toMatchObject({ ok: true, sessionId: chainChild.id, messageId: childMsg });
  });

  it('a unique prefix resolves; an ambiguous one lists candidates', () => {
    expect(resolveRef(store, { kind: 'prefix', prefix: chainChild.id.slice(0, 17) })).toMatchObject(
      { ok: true, sessionId: chainChild.id },
    );
    const r = resolveRef(store, { kind: 'prefix', prefix: '2026' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.candidates.length).toBeGreaterThan(1);
  });

  it('unknown sessions and messages are clear errors', () => {
    expect(resolveRef(store, { kind: 'session', sessionId: 'nope' })).toMatchObject({
      ok: false,
      error: 'session_id not found: nope',
    });
    expect(
      resolveRef(store, { kind: 'message', sessionId: chainChild.id, messageId: 99_999_999 }),
    ).toMatchObject({ ok: false });
  });
});
