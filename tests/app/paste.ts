/**
 * Pasting a copied form into the app's search line, as a person does after `y`
 * or `Y`: the line emptied, the text pasted whole, and the one jump row it
 * offers (a lone jump row opens at once).
 */
import { expect } from 'vitest';
import { focusedMessage } from '../../src/app/geometry/window.js';
import type { CopyOption, ResultItem } from '../../src/app/model.js';
import { KEY, type Harness } from './harness.js';

const short = (text: string): string => JSON.stringify(text.slice(0, 60));

/** Pastes `text` into an emptied search line and returns the jump row it offers. */
export async function pasteJump(h: Harness, text: string): Promise<ResultItem> {
  await h.press(KEY.esc, KEY.esc, '/', '\x15');
  await h.press(text);
  await h.waitFor(
    () => h.state().results.items[0]?.kind === 'jump',
    `the jump row for ${short(text)} (${h.state().results.message ?? 'no message'})`,
  );
  return h.state().results.items[0]!;
}

/** Pastes a message's form: the row names that message and the conversation opens focused on it. */
export async function pasteOpensMessage(
  h: Harness,
  text: string,
  messageId: number,
): Promise<void> {
  const row = await pasteJump(h, text);
  expect(row.messageId, short(text)).toBe(messageId);
  if (h.state().pane !== 'messages') await h.press(KEY.enter);
  await h.waitFor(
    () => h.state().pane === 'messages' && focusedMessage(h.state().view!.win)?.id === messageId,
    `opened at the message for ${short(text)}`,
  );
}

/** The options `Y` offers for what is focused (the menu shown, then closed), waiting for `label` in the menu. */
export async function copyForms(h: Harness, label: string): Promise<CopyOption[]> {
  await h.press('Y');
  await h.waitFor(() => h.frame().includes(label), 'the copy menu');
  const menu = h.state().overlay;
  await h.press(KEY.esc);
  return menu?.kind === 'copy' ? menu.options : [];
}
