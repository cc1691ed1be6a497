/**
 * `lookback stats` on a terminal: totals, a calendar heat map of messages a
 * day (weeks as columns, Monday first, a legend), a sparkline per agent, bars
 * per model for tokens with their cost and how it is known, profiles, hosts,
 * the busiest folders, and one line for each source that records no tokens.
 * Drawn from the same JSON `--json` prints, to `width` columns (80 at least
 * where the terminal allows); colour only when asked (a TTY without NO_COLOR).
 * Every name that comes from a source is sanitized before it is drawn.
 */
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';
import { displayWidth, padEnd, truncate } from '../text/width.js';
import { weekOf } from './sum.js';

type Obj = Record<string, Json>;

export interface RenderOptions {
  width: number;
  color: boolean;
}

const ANSI = /\x1b\[[0-9;]*m/g;

const LEVELS = ['·', '░', '▒', '▓', '█'];
const SPARK = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const GREENS = [240, 22, 28, 34, 40];

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** 1234 → 1.2k, 1234567 → 1.2M. */
export function short(n: number): string {
  if (n < 1000) return String(Math.round(n));
  for (const [d, s] of [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ] as const)
    if (n >= d) {
      const v = n / d;
      return `${v >= 100 ? Math.round(v) : v.toFixed(1).replace(/\.0$/, '')}${s}`;
    }
  return String(n);
}

export function hours(minutes: number): string {
  if (minutes < 60) return `${Math.round(minutes)} min`;
  return `${(minutes / 60).toFixed(minutes < 600 ? 1 : 0)} h`;
}

const count = (n: Json | undefined, what: string) =>
  `${int(n as number)} ${what}${n === 1 ? '' : 's'}`;

const money = (n: number) => (n >= 100 ? `$${int(n)}` : `$${n.toFixed(2)}`);

const clean = (v: Json | undefined) => sanitizeLine(String(v ?? ''));

export function renderStats(j: Obj, o: RenderOptions): string {
  const width = Math.max(40, o.width);
  const paint = (code: string, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const bold = (s: string) => paint('1', s);
  const dim = (s: string) => paint('2', s);
  // Colour codes take no columns: a line that fits is kept with them, a longer one loses them.
  const fit = (s: string) => {
    const plain = s.replace(ANSI, '');
    return displayWidth(plain) <= width ? s : truncate(plain, width);
  };
  const out: string[] = [];
  const t = j.totals as Obj;
  const tz = clean(j.time_zone);
  const range = t.first_day ? `${clean(t.first_day)} … ${clean(t.last_day)}` : 'no activity';
  out.push(fit(`${bold('lookback stats')}  ${range}  ${dim(`(${tz}, weeks start Monday)`)}`));
  out.push(
    fit(
      `${count(t.conversations, 'conversation')} · ${count(t.messages, 'message')} · ${count(t.tool_calls, 'tool call')} · ${hours(t.active_minutes as number)} active · ${count(t.days_active, 'day')}`,
    ),
  );
  const tok = t.tokens as Obj | null;
  const cost = t.cost as Obj;
  if (tok) {
    out.push(
      fit(
        `tokens ${short(tok.total as number)}  in ${short(tok.input as number)}  out ${short(tok.output as number)}  cache read ${short(tok.cache_read as number)}  write ${short(tok.cache_write as number)}  reasoning ${short(tok.reasoning as number)}`,
      ),
    );
    if (cost.usd !== null)
      out.push(
        fit(
          `cost ${money(cost.usd as number)}${cost.estimated ? ' est.' : ''}  recorded ${money(cost.recorded_usd as number)}  agents' estimates ${money(cost.estimated_usd as number)}  priced ${money(cost.priced_usd as number)}`,
        ),
      );
  }
  const days = j.days as Obj[];
  if (days.length > 0)
    out.push(
      '',
      ...heatMap(days, t.first_day as string, t.last_day as string, width, o.color, dim),
    );
  const agents = j.agents as Obj[];
  if (agents.length > 0) {
    const nameW = Math.min(12, Math.max(...agents.map((a) => displayWidth(clean(a.agent)))));
    const stats = agents.map(
      (a) =>
        `${short(a.messages as number)} msgs · ${int(a.conversations as number)} conv · ${hours(a.active_minutes as number)}`,
    );
    const statW = Math.max(...stats.map((s) => s.length));
    const sparkW = Math.max(10, width - nameW - statW - 4);
    // The whole range in sparkW cells of `per` days each, the newest at the right.
    const first = Date.parse(`${String(t.first_day)}T00:00:00Z`);
    const last = Date.parse(`${String(t.last_day)}T00:00:00Z`);
    const spanDays = Math.round((last - first) / 86_400_000) + 1;
    const per = Math.max(1, Math.ceil(spanDays / sparkW));
    const cells = Math.min(sparkW, Math.ceil(spanDays / per));
    const cellOf = (date: string) =>
      cells -
      1 -
      Math.floor(Math.round((last - Date.parse(`${date}T00:00:00Z`)) / 86_400_000) / per);
    out.push(
      '',
      fit(
        bold('Agents') +
          dim(
            `  messages ${per === 1 ? 'a day' : `per ${per} days`}, ${String(t.first_day)} to ${String(t.last_day)}`,
          ),
      ),
    );
    agents.forEach((a, i) => {
      const sums = new Array<number>(cells).fill(0);
      for (const d of a.days as Obj[]) {
        const c = cellOf(d.date as string);
        if (c >= 0 && c < cells) sums[c]! += d.messages as number;
      }
      const max = Math.max(1, ...sums);
      const line = sums
        .map((v) => (v === 0 ? ' ' : SPARK[Math.min(7, Math.floor((v / max) * 7.999))]!))
        .join('')
        .padEnd(sparkW);
      out.push(
        fit(`${padEnd(truncate(clean(a.agent), nameW), nameW)}  ${paint('36', line)}  ${stats[i]}`),
      );
    });
  }
  const models = j.models as Obj[];
  if (models.length > 0) {
    out.push(
      '',
      fit(bold('Tokens by model') + dim("  cost recorded, the agent's estimate, or priced")),
    );
    const costs = models.map((m) =>
      m.cost_usd === null
        ? 'no price'
        : `${money(m.cost_usd as number)} ${m.cost_kind === 'mixed' ? 'est.' : String(m.cost_kind)}${(m.unpriced_tokens as number) > 0 ? '*' : ''}`,
    );
    const costW = Math.max(...costs.map((c) => c.length));
    const nameW = Math.min(28, Math.max(...models.map((m) => displayWidth(clean(m.model)))));
    const totals = models.map((m) => short((m.tokens as Obj).total as number));
    const totW = Math.max(...totals.map((x) => x.length));
    const barW = Math.max(8, width - nameW - totW - costW - 6);
    const max = Math.max(1, ...models.map((m) => (m.tokens as Obj).total as number));
    models.forEach((m, i) => {
      const n = Math.round((((m.tokens as Obj).total as number) / max) * barW);
      const bar = '█'.repeat(n) + ' '.repeat(barW - n);
      const c =
        m.cost_usd === null ? paint('33', padEnd(costs[i]!, costW)) : padEnd(costs[i]!, costW);
      out.push(
        fit(
          `${padEnd(truncate(clean(m.model), nameW), nameW)}  ${paint('35', bar)}  ${totals[i]!.padStart(totW)}  ${c}`,
        ),
      );
    });
    const unpriced = (t.unpriced_models as Json[]).length;
    if (unpriced > 0)
      out.push(
        fit(
          dim(
            `no price: ${unpriced} model${unpriced === 1 ? '' : 's'} (* part of the tokens) not in the table, not counted as $0`,
          ),
        ),
      );
  }
  for (const n of j.token_notes as Obj[])
    out.push(
      fit(
        `${clean(n.agent)}${n.profile ? `/${clean(n.profile)}` : ''}${n.host !== 'local' ? `@${clean(n.host)}` : ''}: ${clean(n.note)}`,
      ),
    );
  const profiles = j.profiles as Obj[];
  if (profiles.length > 1) {
    out.push('', bold('Hermes profiles'));
    for (const p of profiles)
      out.push(fit(row(`${clean(p.profile)}${p.host !== 'local' ? `@${clean(p.host)}` : ''}`, p)));
  }
  const hosts = j.hosts as Obj[];
  if (hosts.length > 1) {
    out.push('', bold('Hosts'));
    for (const h of hosts) out.push(fit(row(clean(h.host), h)));
  }
  const months = (j.months as Obj[]).slice(-6);
  if (months.length > 1) {
    out.push('', bold('Months'));
    for (const m of months) out.push(fit(row(clean(m.month), m)));
  }
  const folders = (j.folders as Obj[]).slice(0, 5);
  if (folders.length > 0) {
    out.push('', bold('Busiest folders'));
    for (const f of folders)
      out.push(
        fit(
          `${hours(f.active_minutes as number).padStart(7)}  ${short(f.messages as number).padStart(5)} msgs  ${truncate(clean(f.cwd), Math.max(10, width - 22))}`,
        ),
      );
  }
  for (const r of j.refused as Json[]) out.push(fit(`refused: ${clean(r)}`));
  for (const n of j.notes as Json[]) out.push(fit(dim(clean(n))));
  const pricing = j.pricing as Obj;
  if (models.length > 0)
    out.push(
      '',
      fit(
        dim(
          `prices: lookback's table of ${clean(pricing.date)}${pricing.overrides ? ` + ${clean(pricing.overrides)}` : ''}; costs are estimates`,
        ),
      ),
    );
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}

function row(name: string, g: Obj): string {
  const tok = g.tokens as Obj | null;
  return `${padEnd(truncate(name, 16), 16)} ${int(g.conversations as number).padStart(6)} conv ${short(g.messages as number).padStart(6)} msgs ${hours(g.active_minutes as number).padStart(7)}${tok ? `  ${short(tok.total as number).padStart(6)} tok` : ''}${g.cost_usd !== null ? `  ${money(g.cost_usd as number)}` : ''}`;
}

/** Weeks as columns (the newest at the right), Monday to Sunday as rows, as many weeks as fit. */
function heatMap(
  days: Obj[],
  firstDay: string,
  lastDay: string,
  width: number,
  color: boolean,
  dim: (s: string) => string,
): string[] {
  const per = new Map(days.map((d) => [d.date as string, d.messages as number]));
  const lastWeek = new Date(`${weekOf(lastDay)}T00:00:00Z`).getTime();
  // As many weeks as fit (a year at most), but no more than a quarter before the first day.
  const span =
    Math.round(
      (lastWeek - new Date(`${weekOf(firstDay)}T00:00:00Z`).getTime()) / (7 * 86_400_000),
    ) + 1;
  const weeks = Math.max(4, Math.min(53, Math.floor((width - 4) / 2), Math.max(13, span)));
  const start = lastWeek - (weeks - 1) * 7 * 86_400_000;
  const shown: number[] = [];
  for (let w = 0; w < weeks; w++)
    for (let d = 0; d < 7; d++) {
      const date = new Date(start + (w * 7 + d) * 86_400_000).toISOString().slice(0, 10);
      if (per.has(date)) shown.push(per.get(date)!);
    }
  // Levels by quartile of the busy days shown, as GitHub's calendar does.
  const sorted = shown.filter((v) => v > 0).sort((a, b) => a - b);
  const q = [0.25, 0.5, 0.75].map((p) => sorted[Math.floor(p * (sorted.length - 1))] ?? 1);
  const level = (v: number) => (v <= 0 ? 0 : v <= q[0]! ? 1 : v <= q[1]! ? 2 : v <= q[2]! ? 3 : 4);
  const cell = (l: number) => (color ? `\x1b[38;5;${GREENS[l]}m${LEVELS[l]}\x1b[0m` : LEVELS[l]!);
  let months = '    ';
  let lastMonth = '';
  for (let w = 0; w < weeks; w++) {
    const d = new Date(start + w * 7 * 86_400_000);
    const m = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
    if (m !== lastMonth && months.length <= 4 + w * 2) {
      months = months.padEnd(4 + w * 2) + m;
      lastMonth = m;
    }
  }
  const lines = [dim(months.slice(0, width))];
  const names = ['Mon', '', 'Wed', '', 'Fri', '', 'Sun'];
  for (let d = 0; d < 7; d++) {
    let line = (names[d] ?? '').padEnd(4);
    for (let w = 0; w < weeks; w++) {
      const t = start + (w * 7 + d) * 86_400_000;
      const date = new Date(t).toISOString().slice(0, 10);
      line += date > lastDay ? '  ' : `${cell(level(per.get(date) ?? 0))} `;
    }
    lines.push(line.trimEnd());
  }
  lines.push(
    `    ${dim('less')} ${[0, 1, 2, 3, 4].map(cell).join(' ')} ${dim('more')}   ${dim(`messages a day; busiest ${Math.max(0, ...shown)}`)}`,
  );
  return lines;
}
