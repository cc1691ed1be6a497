/**
 * Per-call stage timers for the stdio server, off unless
 * `LOOKBACK_MCP_STAGES=FILE`. Each answered call is cut into stages, each with
 * its wall and CPU time (ms): `sdkIn` (the request line to the tool: the
 * guard's check, the SDK's parse and validation), `tool` (the tool's own
 * argument parse and recall, what the library does), `text` (the answer's JSON
 * text), `sdkOut` (the SDK's result validation and routing) and `write`
 * (serialising the message and writing it to stdout). One JSON line a call is
 * appended to FILE when the server stops. It finds where an MCP call's time
 * goes beyond the library's (see tests/bench/mcp.ts); off, it costs one branch
 * per stage. Calls are timed one at a time (a client that waits for each answer).
 */
import { appendFileSync } from 'node:fs';

const FILE = process.env.LOOKBACK_MCP_STAGES;
export const stagesOn = Boolean(FILE);

const STAGES = ['in', 'call', 'ran', 'text', 'send', 'written'] as const;
type Stage = (typeof STAGES)[number];
type Mark = { wall: number; cpu: number };
let current: Partial<Record<Stage, Mark>> = {};
const done: string[] = [];

const NAMES: Record<Exclude<Stage, 'in'>, string> = {
  call: 'sdkIn',
  ran: 'tool',
  text: 'text',
  send: 'sdkOut',
  written: 'write',
};

/** Notes the time a stage of the call in flight ends. */
export function stage(name: Stage): void {
  if (!stagesOn) return;
  if (name === 'in') current = {};
  const u = process.cpuUsage();
  current[name] = { wall: performance.now(), cpu: (u.user + u.system) / 1000 };
  if (name !== 'written') return;
  const marks = STAGES.map((s) => current[s]);
  current = {};
  // A call that never reached a stage (an error before the tool ran) is not a timed call.
  if (marks.some((m) => m === undefined)) return;
  const line: Record<string, number> = {};
  const round = (x: number) => Number(x.toFixed(3));
  for (let i = 1; i < STAGES.length; i++) {
    const name = NAMES[STAGES[i] as Exclude<Stage, 'in'>];
    line[name] = round(marks[i]!.wall - marks[i - 1]!.wall);
    line[`${name}Cpu`] = round(marks[i]!.cpu - marks[i - 1]!.cpu);
  }
  line.total = round(marks.at(-1)!.wall - marks[0]!.wall);
  line.totalCpu = round(marks.at(-1)!.cpu - marks[0]!.cpu);
  done.push(JSON.stringify(line));
}

/** Appends the calls' stage times to FILE (when the server stops). */
export function flushStages(): void {
  if (!FILE || done.length === 0) return;
  appendFileSync(FILE, `${done.join('\n')}\n`);
  done.length = 0;
}
