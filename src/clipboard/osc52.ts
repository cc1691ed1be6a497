/**
 * OSC 52 asks the terminal itself to set the clipboard, which is the only
 * route that works over SSH. Terminals cap the sequence (xterm's default is
 * around 100 KB, some less), and an oversized one is silently dropped, so we
 * refuse early and say why.
 */
import { OSC52_MAX_BYTES } from '../budgets.js';

/** GNU screen truncates DCS strings longer than this, so the payload goes in pieces. */
const SCREEN_CHUNK = 768;

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

export type Osc52Result = { ok: true; sequence: string } | { ok: false; reason: string };

export interface Osc52Options {
  /** Wrap in tmux passthrough (`ESC Ptmux; … ESC \`, inner ESCs doubled). */
  tmux?: boolean;
  /** Wrap in GNU screen DCS passthrough, chunked. Ignored when `tmux` is set. */
  screen?: boolean;
}

export function osc52Sequence(text: string, options: Osc52Options = {}): Osc52Result {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > OSC52_MAX_BYTES) {
    return {
      ok: false,
      reason: `too large: ${Math.ceil(bytes.length / 1024)} KB (limit ${OSC52_MAX_BYTES / 1024} KB)`,
    };
  }
  const osc = `${ESC}]52;c;${bytes.toString('base64')}${BEL}`;
  if (options.tmux === true) {
    return { ok: true, sequence: `${ESC}Ptmux;${osc.replaceAll(ESC, ESC + ESC)}${ST}` };
  }
  if (options.screen === true) {
    let sequence = '';
    for (let i = 0; i < osc.length; i += SCREEN_CHUNK) {
      sequence += `${ESC}P${osc.slice(i, i + SCREEN_CHUNK)}${ST}`;
    }
    return { ok: true, sequence };
  }
  return { ok: true, sequence: osc };
}
