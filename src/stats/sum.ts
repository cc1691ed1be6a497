/**
 * The stats rows summed into the JSON `lookback stats --json` prints and the
 * MCP tool returns (its shape: docs in src/cli/helpTexts.ts and README). Days
 * are local dates of the process's time zone; a week starts on Monday
 * everywhere; conversations are counted distinct in every group (one that runs
 * over three days is one conversation in its week); active minutes are the
 * distinct five-minute slots with a message, so parallel conversations do not
 * add up to more time than passed.
 */
import type { Json } from '../store/recall.js';
import {
  SLOT_SECONDS,
  addTokens,
  tokenTotal,
  zeroTokens,
  type ActivityRow,
  type TokenNote,
  type Tokens,
  type UsageRow,
} from './model.js';
import { PRICES_DATE, PRICES_SOURCE, costOf, priceOf } from './prices.js';

type Obj = Record<string, Json>;

const pad = (n: number) => String(n).padStart(2, '0');

export function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The Monday of a local date's week (ISO weeks). */
export function weekOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  const back = (t.getUTCDay() + 6) % 7;
  t.setUTCDate(t.getUTCDate() - back);
  return t.toISOString().slice(0, 10);
}

class Group {
  convs = new Set<string>();
  slots = new Set<number>();
  messages = 0;
  tools = 0;
  tokens: Tokens = zeroTokens();
  hasTokens = false;
  cost = 0;
  addActivity(r: ActivityRow, conv: string): void {
    this.convs.add(conv);
    this.slots.add(r.slot);
    this.messages += r.messages;
    this.tools += r.tools;
  }
  addUsage(t: Tokens, cost: number): void {
    addTokens(this.tokens, t);
    this.hasTokens = true;
    this.cost += cost;
  }
  json(): Obj {
    return {
      conversations: this.convs.size,
      messages: this.messages,
      tool_calls: this.tools,
      active_minutes: (this.slots.size * SLOT_SECONDS) / 60,
      tokens: this.hasTokens ? tokensJson(this.tokens) : null,
      cost_usd: this.hasTokens ? round2(this.cost) : null,
    };
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function tokensJson(t: Tokens): Obj {
  const r = {
    input: Math.round(t.input),
    output: Math.round(t.output),
    cache_read: Math.round(t.cacheRead),
    cache_write: Math.round(t.cacheWrite),
    reasoning: Math.round(t.reasoning),
  };
  // The total is the sum of the columns shown, rounded as shown.
  return { ...r, total: r.input + r.output + r.cache_read + r.cache_write + r.reasoning };
}

function groupOf<K>(map: Map<K, Group>, key: K): Group {
  let g = map.get(key);
  if (!g) map.set(key, (g = new Group()));
  return g;
}

interface ModelSum {
  tokens: Tokens;
  agents: Set<string>;
  recorded: number;
  estimated: number;
  priced: number;
  unpriced: number;
  price: 'table' | 'none' | null;
}

export interface SumInput {
  activity: ActivityRow[];
  usage: UsageRow[];
  tokenNotes: TokenNote[];
  notes: string[];
  refused: string[];
  query: Obj;
  env?: NodeJS.ProcessEnv;
  /** How many of the busiest folders (default 10). */
  folders?: number;
}

export function sumStats(input: SumInput): Obj {
  const env = input.env ?? process.env;
  const dayOf = new Map<number, string>();
  const day = (slot: number) => {
    let d = dayOf.get(slot);
    if (d === undefined) dayOf.set(slot, (d = localDate(slot * SLOT_SECONDS * 1000)));
    return d;
  };
  const days = new Map<string, Group>();
  const weeks = new Map<string, Group>();
  const months = new Map<string, Group>();
  const agents = new Map<string, Group>();
  const agentDays = new Map<string, Map<string, Group>>();
  const profiles = new Map<string, Group>();
  const hosts = new Map<string, Group>();
  const folders = new Map<string, Group>();
  const total = new Group();
  for (const r of input.activity) {
    const conv = `${r.host}\u0000${r.agent}\u0000${r.profile ?? ''}\u0000${r.conv}`;
    const d = day(r.slot);
    for (const g of [
      groupOf(days, d),
      groupOf(weeks, weekOf(d)),
      groupOf(months, d.slice(0, 7)),
      groupOf(agents, r.agent),
      groupOf(hosts, r.host),
      total,
    ])
      g.addActivity(r, conv);
    let perDay = agentDays.get(r.agent);
    if (!perDay) agentDays.set(r.agent, (perDay = new Map()));
    groupOf(perDay, d).addActivity(r, conv);
    if (r.profile !== null) groupOf(profiles, `${r.host}\u0000${r.profile}`).addActivity(r, conv);
    if (r.cwd) groupOf(folders, r.cwd).addActivity(r, conv);
  }
  const models = new Map<string, ModelSum>();
  for (const u of input.usage) {
    let m = models.get(u.model);
    if (!m)
      models.set(
        u.model,
        (m = {
          tokens: zeroTokens(),
          agents: new Set(),
          recorded: 0,
          estimated: 0,
          priced: 0,
          unpriced: 0,
          price: null,
        }),
      );
    addTokens(m.tokens, u);
    m.agents.add(u.agent);
    let cost = 0;
    if (u.cost !== null) {
      cost = u.cost;
      if (u.costKind === 'recorded') m.recorded += cost;
      else m.estimated += cost;
    } else {
      const price = priceOf(u.model, env);
      if (price) {
        cost = costOf(u, price);
        m.priced += cost;
        m.price = 'table';
      } else {
        m.unpriced += tokenTotal(u);
        m.price = 'none';
      }
    }
    const d = localDate(u.at * 1000);
    for (const g of [
      groupOf(days, d),
      groupOf(weeks, weekOf(d)),
      groupOf(months, d.slice(0, 7)),
      groupOf(agents, u.agent),
      groupOf(hosts, u.host),
      total,
    ])
      g.addUsage(u, cost);
    if (u.profile !== null) groupOf(profiles, `${u.host}\u0000${u.profile}`).addUsage(u, cost);
  }
  const sorted = <K extends string>(map: Map<K, Group>, name: string) =>
    [...map.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, g]) => ({ [name]: k, ...g.json() }));
  const byMessages = (a: Obj, b: Obj) => (b.messages as number) - (a.messages as number);
  const modelList = [...models.entries()]
    .map(([model, m]) => {
      const usd = m.recorded + m.estimated + m.priced;
      const anyCost = m.recorded > 0 || m.estimated > 0 || m.priced > 0 || m.price === 'table';
      const kinds = [
        m.recorded > 0 && 'recorded',
        m.estimated > 0 && 'estimated',
        (m.priced > 0 || m.price === 'table') && 'priced',
      ].filter(Boolean) as string[];
      return {
        model,
        agents: [...m.agents].sort(),
        tokens: tokensJson(m.tokens),
        cost_usd: anyCost ? round2(usd) : null,
        cost_kind: kinds.length === 0 ? 'no price' : kinds.length === 1 ? kinds[0]! : 'mixed',
        recorded_usd: round2(m.recorded),
        estimated_usd: round2(m.estimated),
        priced_usd: round2(m.priced),
        unpriced_tokens: Math.round(m.unpriced),
      } satisfies Obj;
    })
    .sort((a, b) => (b.tokens.total as number) - (a.tokens.total as number));
  const totalJson = total.json();
  const costParts = {
    recorded_usd: round2(modelList.reduce((n, m) => n + m.recorded_usd, 0)),
    estimated_usd: round2(modelList.reduce((n, m) => n + m.estimated_usd, 0)),
    priced_usd: round2(modelList.reduce((n, m) => n + m.priced_usd, 0)),
  };
  return {
    success: true,
    ...input.query,
    time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    week_starts: 'monday',
    totals: {
      ...totalJson,
      days_active: days.size,
      first_day: days.size ? [...days.keys()].sort()[0]! : null,
      last_day: days.size ? [...days.keys()].sort().at(-1)! : null,
      cost: {
        ...costParts,
        usd: totalJson.cost_usd,
        estimated: costParts.estimated_usd > 0 || costParts.priced_usd > 0,
      },
      unpriced_models: modelList.filter((m) => m.unpriced_tokens > 0).map((m) => m.model),
    },
    days: sorted(days, 'date'),
    weeks: sorted(weeks, 'week'),
    months: sorted(months, 'month'),
    agents: [...agents.entries()]
      .map(([agent, g]) => ({
        agent,
        ...g.json(),
        days: sorted(agentDays.get(agent) ?? new Map<string, Group>(), 'date').map((d) => ({
          date: d.date,
          messages: d.messages,
          active_minutes: d.active_minutes,
        })),
      }))
      .sort(byMessages),
    profiles: [...profiles.entries()]
      .map(([k, g]) => {
        const [host, profile] = k.split('\u0000') as [string, string];
        return { profile, host, ...g.json() };
      })
      .sort(byMessages),
    hosts: sorted(hosts, 'host').sort(byMessages),
    models: modelList,
    folders: [...folders.entries()]
      .map(([cwd, g]) => {
        const j = g.json();
        return {
          cwd,
          conversations: j.conversations!,
          messages: j.messages!,
          active_minutes: j.active_minutes!,
        };
      })
      .sort(
        (a, b) => (b.active_minutes as number) - (a.active_minutes as number) || byMessages(a, b),
      )
      .slice(0, input.folders ?? 10),
    token_notes: input.tokenNotes.map((n) => ({ ...n })),
    pricing: { date: PRICES_DATE, source: PRICES_SOURCE, overrides: env.LOOKBACK_PRICES ?? null },
    refused: input.refused,
    notes: input.notes,
  };
}
