/**
 * The wire guard in front of the SDK on stdio, and the one-line rule on both
 * transports. A raw client that sends garbage, a batch, a message without
 * `jsonrpc`, or a line longer than MAX_LINE_BYTES gets one JSON-RPC error line
 * back (as JSON-RPC 2.0 asks) and the server reads on; the SDK alone would
 * drop such lines silently, or close the connection on an oversized one.
 * Every error message that leaves the server is one line (the SDK's
 * validation messages are pretty-printed JSON otherwise).
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { sanitizeLine } from '../text/sanitize.js';
import { MAX_LINE_BYTES, MCP_MESSAGE_MAX_CHARS } from '../budgets.js';
import { stage } from './stages.js';

export function oneLine(text: string, max = MCP_MESSAGE_MAX_CHARS): string {
  const line = sanitizeLine(String(text).replace(/\s+/g, ' ').trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

type Id = string | number | null;

export function errorLine(id: Id, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: oneLine(message) } })}\n`;
}

/** Why a line is not a JSON-RPC message the SDK should see, with the id to answer; null when it is one. */
export function refusal(line: string): { id: Id; code: number; message: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { id: null, code: -32700, message: 'parse error: a line is one JSON-RPC message' };
  }
  if (Array.isArray(value))
    return {
      id: null,
      code: -32600,
      message: 'invalid request: batches are not supported; send one message per line',
    };
  if (value === null || typeof value !== 'object')
    return { id: null, code: -32600, message: 'invalid request: a message is a JSON object' };
  const m = value as Record<string, unknown>;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return { id, code: -32600, message: 'invalid request: "jsonrpc" must be "2.0"' };
  const isResponse = 'result' in m || 'error' in m;
  if (!isResponse && typeof m.method !== 'string')
    return { id, code: -32600, message: 'invalid request: "method" must be a string' };
  if ('id' in m && m.id !== undefined && id === null && !isResponse)
    return {
      id: null,
      code: -32600,
      message: 'invalid request: "id" must be a string or a number',
    };
  if (
    m.params !== undefined &&
    (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))
  )
    return { id, code: -32602, message: 'invalid params: "params" must be an object' };
  return null;
}

/**
 * Splits `input` into lines; good ones go on to the returned stream (for the
 * SDK), bad ones are answered with `reply`. An oversized line is skipped as it
 * arrives, never held whole in memory.
 */
export function guardLines(input: Readable, reply: (line: string) => void): Readable {
  const out = new PassThrough();
  let pending: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const endLine = (tail: Buffer) => {
    if (skipping) {
      skipping = false;
      reply(
        errorLine(null, -32600, `invalid request: a message is at most ${MAX_LINE_BYTES} bytes`),
      );
    } else {
      const line = Buffer.concat([...pending, tail])
        .toString('utf8')
        .replace(/\r$/, '');
      if (line.trim() !== '') {
        const bad = refusal(line);
        if (bad) reply(errorLine(bad.id, bad.code, bad.message));
        else {
          stage('in');
          out.write(`${line}\n`);
        }
      }
    }
    pending = [];
    size = 0;
  };
  input.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      endLine(chunk.subarray(start, nl));
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (skipping || rest.length === 0) return;
    size += rest.length;
    if (size > MAX_LINE_BYTES) {
      skipping = true;
      pending = [];
      size = 0;
    } else pending.push(Buffer.from(rest));
  });
  input.on('end', () => {
    if (size > 0 || skipping) endLine(Buffer.alloc(0));
    out.end();
  });
  input.on('error', (err) => out.destroy(err));
  return out;
}

/** Makes an outgoing error's message one line; everything else passes untouched. */
export function flattenError<T>(message: T): T {
  const m = message as { error?: { message?: unknown } };
  if (m && typeof m === 'object' && m.error && typeof m.error.message === 'string')
    m.error.message = oneLine(m.error.message);
  return message;
}

/** The SDK's stdio transport over guarded stdin, sending one-line errors. */
export class GuardedStdioTransport extends StdioServerTransport {
  constructor(stdin: Readable, stdout: Writable) {
    super(
      guardLines(stdin, (line) => stdout.write(line)),
      stdout,
    );
  }

  override send(message: JSONRPCMessage): Promise<void> {
    stage('send');
    const sent = super.send(flattenError(message));
    stage('written');
    return sent;
  }
}
