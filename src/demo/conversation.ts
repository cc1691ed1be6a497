// Builds one logical conversation (a root session plus its compression,
// branch, reset and delegate children) as drafts on a relative clock. Times
// are seconds from the conversation's start; generate.ts places them in time.
//
// Why one file of ~780 lines: one job (a conversation's shape, turn by turn) whose
// steps share one seeded random stream; the texts live in corpus.json and tools.ts.

import {
  ASSISTANT_BODIES,
  ASSISTANT_BULLETS,
  ASSISTANT_CLOSINGS,
  ASSISTANT_OPENINGS,
  ASSISTANT_TOOL_PREAMBLES,
  CHINESE,
  EMOJI,
  JAPANESE,
  REASONING_TEMPLATES,
  SUBAGENT_GOALS,
  SUBAGENT_RESULTS,
  SUMMARY_TEMPLATE,
  USER_FOLLOWUPS,
  USER_OPENERS,
  type CjkCorpus,
  type CjkTopic,
  type Topic,
} from './corpus.js';
import { pyDumps, type JsonValue } from './pyjson.js';
import type { Rng } from './rng.js';
import type { Layout } from './schema.js';
import { fill } from './template.js';
import { callId, makeToolCall, toolCallsJson, toolOutput, type ToolCall } from './tools.js';

export type Lang = 'en' | 'zh' | 'ja';
export type Role = 'user' | 'assistant' | 'tool' | 'system';
export type SessionKind = 'root' | 'compression' | 'branch' | 'reset' | 'delegate';

export interface DraftMessage {
  role: Role;
  content: string | null;
  /** Logical time; insertion order follows it even when the stored clock regresses. */
  t: number;
  /** Seconds subtracted from the stored timestamp: a clock that stepped back. */
  skew: number;
  toolCalls?: string;
  toolName?: string;
  toolCallId?: string;
  reasoning?: string;
  reasoningContent?: string;
  reasoningDetails?: string;
  finishReason?: string;
  inactive?: boolean;
  /** Archived by in-place compaction (with `inactive`): history, not rewound. */
  compacted?: boolean;
  /** A compaction's copy of a protected-tail message: it takes the original's display_order. */
  copyOf?: DraftMessage;
  hidden?: boolean;
  summary?: boolean;
  platformId?: string;
}

export interface DraftSession {
  kind: SessionKind;
  parent: DraftSession | null;
  source: string;
  model: string;
  topic: Topic;
  lang: Lang;
  start: number;
  /** Relative ended_at; null while live. */
  end: number | null;
  endReason: string | null;
  messages: DraftMessage[];
  rewinds: number;
  toolNames: Set<string>;
}

export type Lineage = 'none' | 'chain' | 'branch' | 'reset';

/** Features a conversation must contain at least once (forced by the planner). */
export interface Forced {
  multimodal: boolean;
  rewind: boolean;
  hidden: boolean;
  /** In-place compaction (v30): earlier turns archived, a summary, the protected tail copied. */
  compaction: boolean;
  malformed: boolean;
  regression: boolean;
  huge: boolean;
  nullContent: boolean;
}

export type Mode = 'chat' | 'cron' | 'tool';

export interface ConversationSpec {
  mode: Mode;
  /** The job prompt of a cron run. */
  cronPrompt?: string;
  layout: Layout;
  rng: Rng;
  topic: Topic;
  /** Topic after a /reset (reset children usually change subject). */
  resetTopic: Topic;
  lang: Lang;
  source: string;
  model: string;
  budget: number;
  lineage: Lineage;
  segments: number;
  delegateTasks: number;
  forced: Forced;
  live: boolean;
  long: boolean;
  /** Approximate absolute start, only for timestamps printed inside logs. */
  epoch: number;
}

const REASONING_MODELS = new Set([
  'anthropic/claude-sonnet-4.5',
  'anthropic/claude-opus-4.1',
  'openai/gpt-5',
  'deepseek/deepseek-v3.1',
  'qwen/qwen3-coder',
]);
const GATEWAY = new Set(['telegram', 'discord']);
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
export const MULTIMODAL_PREFIX = '\u0000json:';

export function endReasonFor(source: string, rng: Rng): string {
  switch (source) {
    case 'tui':
      return rng.chance(0.85) ? 'tui_shutdown' : 'new_session';
    case 'telegram':
    case 'discord':
      return rng.weighted([
        ['idle', 5],
        ['daily', 2],
        ['new_session', 2],
        ['gateway_shutdown', 1],
      ]);
    case 'cron':
      return 'cron_complete';
    case 'subagent':
      return 'delegate_complete';
    case 'tool':
      return 'tool_complete';
    default:
      return rng.chance(0.85) ? 'cli_close' : 'new_session';
  }
}

class ConversationBuilder {
  private t = 0;
  private readonly sessions: DraftSession[] = [];
  private session: DraftSession;
  private total = 0;
  private readonly pending: Forced;
  private delegatesLeft: number;
  private skew = 0;
  private platformCounter: number;
  private topic: Topic;
  private readonly rng: Rng;

  constructor(private readonly spec: ConversationSpec) {
    this.rng = spec.rng;
    this.pending = { ...spec.forced };
    this.delegatesLeft = spec.delegateTasks;
    this.topic = spec.topic;
    this.platformCounter = this.rng.int(1000, 90000);
    this.session = this.open('root', null, 0);
  }

  build(): DraftSession[] {
    const { spec, rng } = this;
    if (spec.mode === 'cron') return this.buildCron();
    if (spec.mode === 'tool') return this.buildToolRun();
    const quotas = this.segmentQuotas();
    let segment = 0;
    let turn = 0;
    while (this.total < spec.budget) {
      const quota = quotas[segment];
      if (
        quota !== undefined &&
        segment < quotas.length - 1 &&
        this.session.messages.length >= quota
      ) {
        segment++;
        this.switchSession();
        turn = 0;
      }
      this.turn(
        turn === 0 && this.session.kind !== 'compression' && this.session.kind !== 'branch',
        turn,
      );
      turn++;
      if (spec.long && rng.chance(0.02)) this.t += rng.float(3600, 10 * 3600); // overnight gaps in a days-long session
    }
    this.close(this.session, spec.live ? null : endReasonFor(spec.source, rng));
    return this.sessions;
  }

  /** A scheduled job: the job prompt as the user turn, tool work, then a report. */
  private buildCron(): DraftSession[] {
    const { spec, rng, topic } = this;
    this.push({
      role: 'user',
      content: spec.cronPrompt ?? fill('Run `{cmd}` and report.', topic, rng),
    });
    const rounds = Math.max(1, Math.min(6, Math.floor((spec.budget - 2) / 2)));
    for (let r = 0; r < rounds; r++) this.toolRound();
    this.advance('assistant');
    const report = fill(
      'Job finished.\n\n- {n} items checked in {project}\n- {n2} need attention: `{error_short}`\n- next run scheduled as usual',
      topic,
      rng,
    );
    this.push({ role: 'assistant', content: report, finishReason: 'stop' });
    this.close(this.session, endReasonFor('cron', rng));
    return this.sessions;
  }

  /** A one-shot run made by a tool (title or commit-message generation). */
  private buildToolRun(): DraftSession[] {
    const { rng, topic } = this;
    if (rng.chance(0.5)) {
      this.push({
        role: 'user',
        content: fill(
          'Generate a short title for this conversation:\n\n{problem}. I suspect {term}.',
          topic,
          rng,
        ),
      });
      this.advance('assistant');
      this.push({
        role: 'assistant',
        content: fill('{title}: {term}', topic, rng),
        finishReason: 'stop',
      });
    } else {
      const diff = toolOutput(
        topic,
        rng,
        { id: '', name: 'terminal', args: { command: 'git diff' } },
        this.spec.epoch + this.t,
      );
      this.push({
        role: 'user',
        content: `Write a one-line commit message for this change:\n\n${diff}`,
      });
      this.advance('assistant');
      this.push({
        role: 'assistant',
        content: fill('fix({project}): handle {term} in {ident}', topic, rng),
        finishReason: 'stop',
      });
    }
    this.close(this.session, endReasonFor('tool', rng));
    return this.sessions;
  }

  private segmentQuotas(): number[] {
    const { spec, rng } = this;
    if (spec.lineage === 'none') return [spec.budget];
    const n = spec.lineage === 'chain' ? spec.segments : 2;
    const own = spec.budget - spec.delegateTasks * 8;
    const quotas: number[] = [];
    // Keep the early segments a bit short so the budget always reaches the last one.
    for (let i = 0; i < n; i++)
      quotas.push(Math.max(6, Math.round((own / n) * rng.float(0.8, 1.1))));
    return quotas;
  }

  private open(kind: SessionKind, parent: DraftSession | null, start: number): DraftSession {
    const s: DraftSession = {
      kind,
      parent,
      source: this.spec.source,
      model: this.spec.model,
      topic: this.topic,
      lang: this.spec.lang,
      start,
      end: null,
      endReason: null,
      messages: [],
      rewinds: 0,
      toolNames: new Set(),
    };
    this.sessions.push(s);
    this.t = start + this.rng.float(0.3, 3);
    return s;
  }

  private close(s: DraftSession, reason: string | null): void {
    const last = s.messages[s.messages.length - 1];
    s.endReason = reason;
    s.end = reason === null ? null : Math.max(this.t, last?.t ?? s.start) + this.rng.float(0.5, 25);
  }

  private switchSession(): void {
    const { spec, rng } = this;
    const prev = this.session;
    const reason =
      spec.lineage === 'chain'
        ? 'compression'
        : spec.lineage === 'branch'
          ? 'branched'
          : 'session_reset';
    this.close(prev, reason);
    const prevEnd = prev.end ?? this.t;
    if (spec.lineage === 'reset') this.topic = spec.resetTopic;
    const kind: SessionKind =
      spec.lineage === 'chain' ? 'compression' : spec.lineage === 'branch' ? 'branch' : 'reset';
    this.skew = 0;
    this.session = this.open(kind, prev, prevEnd + rng.float(1, 4));
    if (kind === 'compression') {
      this.push({ role: 'user', content: fill(SUMMARY_TEMPLATE, this.topic, rng), summary: true });
    } else if (kind === 'branch') {
      this.push({
        role: 'user',
        content: fill(
          "Let's try the other approach in this branch: {term2} instead of {term}. Keep {file} as it is.",
          this.topic,
          rng,
        ),
      });
      this.assistantFinal();
    }
  }

  // --- clock -------------------------------------------------------------

  private advance(kind: 'user' | 'assistant' | 'tool' | 'after_tool', tool = ''): number {
    const { rng, spec } = this;
    let gap: number;
    if (kind === 'user') {
      const median = GATEWAY.has(spec.source) ? 240 : 60;
      gap = Math.min(3600, Math.max(3, rng.logNormal(median, 1)));
    } else if (kind === 'assistant') gap = Math.min(120, Math.max(1, rng.logNormal(8, 0.6)));
    else if (kind === 'tool')
      gap =
        tool === 'terminal'
          ? Math.min(300, Math.max(0.2, rng.logNormal(4, 1)))
          : rng.float(0.05, 2.5);
    else gap = Math.min(60, Math.max(0.5, rng.logNormal(5, 0.6)));
    this.t += gap;
    return this.t;
  }

  private push(m: Omit<DraftMessage, 't' | 'skew'> & { t?: number }): DraftMessage {
    const msg: DraftMessage = { ...m, t: m.t ?? this.t, skew: this.skew };
    this.session.messages.push(msg);
    this.total++;
    return msg;
  }

  /** A feature is due once past a point in the budget, or when the budget is nearly spent. */
  private due(feature: keyof Forced, at: number): boolean {
    if (!this.pending[feature]) return false;
    return this.total >= this.spec.budget * at || this.spec.budget - this.total <= 6;
  }

  // --- turns -------------------------------------------------------------

  private turn(first: boolean, turnIndex: number): void {
    const { rng, spec } = this;
    const startIndex = this.session.messages.length;
    if (spec.layout === 30 && (this.due('hidden', 0.3) || rng.chance(0.004)))
      this.hiddenScaffolding();
    const opening = this.session.messages.length === 0;
    if (this.due('regression', 0.5) && this.session.messages.length > 2) {
      this.pending.regression = false;
      const prev = this.session.messages[this.session.messages.length - 1];
      this.advance('user');
      const prevT = prev?.t ?? this.t;
      const room = Math.max(1, prevT - this.session.start - 1);
      this.skew = this.t - prevT + Math.min(rng.float(5, 300), room);
      this.push({ role: 'user', content: this.userText(false) });
    } else {
      if (!opening) this.advance('user');
      this.userMessage(first, turnIndex);
    }
    let rounds = 0;
    if (rng.chance(0.55) || this.pending.huge || this.pending.malformed || this.pending.nullContent)
      rounds = rng.weighted([
        [1, 50],
        [2, 30],
        [3, 15],
        [4, 5],
      ]);
    for (let r = 0; r < rounds && this.total + 3 <= spec.budget + 2; r++) this.toolRound();
    if (this.delegatesLeft > 0 && this.session.kind !== 'delegate' && turnIndex >= 1)
      this.delegate();
    this.assistantFinal();
    if (
      spec.layout >= 16 &&
      this.due('rewind', 0.4) &&
      this.session.messages.length - startIndex >= 2
    ) {
      this.pending.rewind = false;
      for (let i = startIndex; i < this.session.messages.length; i++) {
        const m = this.session.messages[i];
        if (m) m.inactive = true;
      }
      this.session.rewinds++;
      this.advance('user');
      this.push({
        role: 'user',
        content: `Actually, let me rephrase that. ${this.userText(false)}`,
      });
      this.assistantFinal();
    }
    if (spec.layout === 30 && this.due('compaction', 0.6) && this.session.messages.length >= 8) {
      this.pending.compaction = false;
      this.compactInPlace();
    }
  }

  /**
   * The agent's archive_and_compact: every live row so far becomes archived
   * history (active 0, compacted 1), a summary row opens the live context, and
   * the last two user/assistant messages (the protected tail) are copied after it.
   */
  private compactInPlace(): void {
    const msgs = this.session.messages;
    const tail = msgs
      .filter((m) => !m.inactive && !m.hidden && (m.role === 'user' || m.role === 'assistant'))
      .filter((m) => typeof m.content === 'string' && m.content.length > 0)
      .slice(-2);
    for (const m of msgs)
      if (!m.inactive) {
        m.inactive = true;
        m.compacted = true;
      }
    this.advance('user');
    this.push({
      role: 'user',
      content: `[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below.\n\n${fill(SUMMARY_TEMPLATE, this.topic, this.rng)}`,
      summary: true,
    });
    for (const m of tail) this.push({ role: m.role, content: m.content, copyOf: m });
  }

  private userMessage(first: boolean, turnIndex: number): void {
    const { rng, spec } = this;
    if (spec.source !== 'cron' && (this.due('multimodal', 0.2) || rng.chance(0.01))) {
      this.pending.multimodal = false;
      this.push({ role: 'user', content: this.multimodal(), platformId: this.platformId() });
      return;
    }
    this.push({
      role: 'user',
      content: this.userText(first && turnIndex === 0),
      platformId: this.platformId(),
    });
  }

  private userText(first: boolean): string {
    const { rng, spec, topic } = this;
    if (spec.lang !== 'en') return this.cjkUser(first);
    let text = fill(rng.pick(first ? USER_OPENERS : USER_FOLLOWUPS), topic, rng);
    if (!first && rng.chance(0.08)) {
      const logs = toolOutput(
        topic,
        rng,
        { id: '', name: 'terminal', args: { command: 'kubectl logs' } },
        spec.epoch + this.t,
      );
      text += `\n\nHere's what I see:\n\`\`\`\n${logs.split('\n').slice(0, 12).join('\n')}\n\`\`\``;
    }
    if (GATEWAY.has(spec.source) && rng.chance(0.25)) text += ` ${rng.pick(EMOJI)}`;
    return text;
  }

  private cjk(): { corpus: CjkCorpus; entry: CjkTopic } {
    const corpus = this.spec.lang === 'zh' ? CHINESE : JAPANESE;
    const entry = corpus.topics.find((e) => e.topic === this.topic.key) ?? corpus.topics[0];
    if (!entry) throw new Error('empty CJK corpus');
    return { corpus, entry };
  }

  private cjkUser(first: boolean): string {
    const { rng, topic } = this;
    const { corpus, entry } = this.cjk();
    const opening = entry.user[0];
    const line =
      first && opening !== undefined
        ? opening
        : rng.chance(0.4)
          ? rng.pick(entry.user)
          : rng.pick(corpus.followups);
    const text = fill(line, topic, rng);
    // people mix in the English term they would search for later
    return rng.chance(0.2) ? `${text}（${rng.pick(topic.terms)}）` : text;
  }

  private multimodal(): string {
    const { rng, topic } = this;
    let data = TINY_PNG;
    if (rng.chance(0.4)) {
      data = 'iVBORw0KGgoAAAANSUhEUgAA';
      const n = rng.int(500, 1500) * 4;
      while (data.length < n) data += B64[rng.int(0, 63)];
    }
    const text =
      this.spec.lang === 'zh'
        ? fill('这是 {title} 面板的截图，哪里不对？', topic, rng)
        : this.spec.lang === 'ja'
          ? fill(
              '{title} のダッシュボードのスクリーンショットです。どこがおかしいですか？',
              topic,
              rng,
            )
          : fill(
              "Here's a screenshot of the {name} dashboard after the {label} deploy. What looks wrong?",
              topic,
              rng,
            );
    const parts: JsonValue = [
      { type: 'text', text },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
    ];
    return MULTIMODAL_PREFIX + pyDumps(parts);
  }

  private platformId(): string | undefined {
    const { source } = this.spec;
    if (!GATEWAY.has(source)) return undefined;
    this.platformCounter += this.rng.int(1, 4);
    return source === 'telegram'
      ? String(this.platformCounter)
      : `13${String(this.platformCounter).padStart(9, '0')}${this.rng.int(10000000, 99999999)}`;
  }

  private reasoningFields(): Pick<
    DraftMessage,
    'reasoning' | 'reasoningContent' | 'reasoningDetails'
  > {
    const { rng, spec, topic } = this;
    if (!REASONING_MODELS.has(spec.model) || !rng.chance(0.4)) return {};
    const reasoning = fill(rng.pick(REASONING_TEMPLATES), topic, rng);
    const out: Pick<DraftMessage, 'reasoning' | 'reasoningContent' | 'reasoningDetails'> = {
      reasoning,
    };
    if (spec.model.startsWith('deepseek/') || spec.model.startsWith('qwen/'))
      out.reasoningContent = reasoning;
    if (spec.model.startsWith('anthropic/') && rng.chance(0.5)) {
      out.reasoningDetails = pyDumps([
        {
          type: 'reasoning.text',
          text: reasoning,
          signature: rng.hex(64),
          format: 'anthropic-claude-v1',
          index: 0,
        },
      ]);
    }
    return out;
  }

  private toolRound(): void {
    const { rng, topic } = this;
    this.advance('assistant');
    const count = rng.weighted([
      [1, 80],
      [2, 15],
      [3, 5],
    ]);
    const calls: ToolCall[] = [];
    for (let i = 0; i < count; i++) calls.push(makeToolCall(topic, rng));
    let content: string | null = rng.weighted<string | null>([
      ['', 45],
      [null, 20],
      ['text', 35],
    ]);
    if (this.pending.nullContent) {
      this.pending.nullContent = false;
      content = null;
    }
    if (content === 'text') {
      const preambles =
        this.spec.lang === 'en' ? ASSISTANT_TOOL_PREAMBLES : this.cjk().corpus.preambles;
      content = fill(rng.pick(preambles), topic, rng);
    }
    let json = toolCallsJson(calls);
    if (this.due('malformed', 0.3) || rng.chance(0.003)) {
      this.pending.malformed = false;
      json = json.slice(0, rng.int(Math.min(20, json.length - 1), json.length - 5)); // a write cut off mid-JSON
    }
    this.push({
      role: 'assistant',
      content,
      toolCalls: json,
      finishReason: 'tool_calls',
      ...this.reasoningFields(),
    });
    for (const call of calls) {
      this.advance('tool', call.name);
      const huge = this.due('huge', 0.4) || rng.chance(0.0015);
      if (huge) this.pending.huge = false;
      const output = rng.chance(0.008)
        ? null
        : toolOutput(topic, rng, call, this.spec.epoch + this.t, huge);
      this.session.toolNames.add(call.name);
      this.push({ role: 'tool', content: output, toolName: call.name, toolCallId: call.id });
    }
    this.advance('after_tool');
  }

  private assistantFinal(): void {
    const { rng, topic } = this;
    this.advance('assistant');
    let content: string;
    if (this.spec.lang === 'en') content = this.englishAnswer();
    else {
      content = fill(rng.pick(this.cjk().entry.assistant), topic, rng);
      // engineers code-switch: the decision often lands in English
      if (rng.chance(0.35)) content += `\n\n${fill(rng.pick(ASSISTANT_CLOSINGS), topic, rng)}`;
    }
    this.push({
      role: 'assistant',
      content,
      finishReason: rng.chance(0.01) ? 'length' : 'stop',
      platformId: this.platformId(),
      ...this.reasoningFields(),
    });
  }

  private englishAnswer(): string {
    const { rng, topic } = this;
    const parts = [fill(rng.pick(ASSISTANT_OPENINGS), topic, rng)];
    if (rng.chance(0.5))
      parts.push(
        `${fill(rng.pick(ASSISTANT_BODIES), topic, rng)}\n\n\`\`\`${topic.lang}\n${rng.pick(topic.snippets)}\n\`\`\``,
      );
    if (rng.chance(0.4)) {
      const bullets = rng
        .sample(ASSISTANT_BULLETS, rng.int(2, 4))
        .map((b) => `- ${fill(b, topic, rng)}`);
      parts.push(bullets.join('\n'));
    }
    if (rng.chance(0.75)) parts.push(fill(rng.pick(ASSISTANT_CLOSINGS), topic, rng));
    return parts.join('\n\n');
  }

  private hiddenScaffolding(): void {
    const { rng, topic } = this;
    this.pending.hidden = false;
    this.advance('assistant');
    const kind = rng.int(0, 2);
    if (kind === 0) {
      this.push({
        role: 'user',
        content:
          'Review the conversation above and consider saving to memory anything worth remembering about the user or the project.',
        hidden: true,
      });
      this.advance('assistant');
      this.push({
        role: 'assistant',
        content: rng.chance(0.5)
          ? 'Nothing new worth saving.'
          : fill('Saved: in {project} we decided to {decision}.', topic, rng),
        hidden: true,
      });
    } else if (kind === 1) {
      this.push({
        role: 'user',
        content: `[Background process proc_${rng.hex(6)} exited with code ${rng.pick([0, 0, 1])}]\n${fill('{cmd}', topic, rng)}`,
        hidden: true,
      });
    } else {
      this.push({
        role: 'user',
        content:
          '[System note: the previous turn was interrupted by the user. Do not repeat the interrupted tool call.]',
        hidden: true,
      });
    }
  }

  // --- delegation --------------------------------------------------------

  private delegate(): void {
    const { rng, topic, spec } = this;
    const n = Math.min(this.delegatesLeft, rng.int(1, 3));
    this.delegatesLeft -= n;
    this.advance('assistant');
    const goals = Array.from({ length: n }, () => fill(rng.pick(SUBAGENT_GOALS), topic, rng));
    const call: ToolCall = {
      id: callId(rng),
      name: 'delegate_task',
      args:
        n === 1
          ? {
              goal: goals[0] ?? '',
              context: fill('We are working on the {name} in {project}.', topic, rng),
            }
          : { tasks: goals.map((goal) => ({ goal, toolsets: ['terminal', 'file'] })) },
    };
    this.push({
      role: 'assistant',
      content: rng.chance(0.5) ? '' : `Delegating ${n === 1 ? 'this' : `${n} tasks`} to subagents.`,
      toolCalls: toolCallsJson([call]),
      finishReason: 'tool_calls',
    });
    this.session.toolNames.add('delegate_task');
    const parent = this.session;
    const parentT = this.t;
    const results: JsonValue[] = [];
    let lastEnd = parentT;
    goals.forEach((goal, index) => {
      const child = new ConversationBuilder({
        ...spec,
        mode: 'chat',
        rng: rng.fork(index + 1),
        topic,
        source: 'subagent',
        model: rng.chance(0.6)
          ? spec.model
          : rng.pick(['openai/gpt-5-mini', 'google/gemini-2.5-flash']),
        lang: 'en',
        budget: rng.int(4, 12),
        lineage: 'none',
        delegateTasks: 0,
        forced: {
          multimodal: false,
          rewind: false,
          hidden: false,
          compaction: false,
          malformed: false,
          regression: false,
          huge: false,
          nullContent: false,
        },
        live: false,
        long: false,
      });
      const drafts = child.runDelegate(parent, parentT + rng.float(0.3, 2), goal);
      for (const d of drafts) {
        this.sessions.push(d);
        this.total += d.messages.length;
        lastEnd = Math.max(lastEnd, d.end ?? lastEnd);
      }
      results.push({
        task_index: index,
        status: 'completed',
        summary: fill(rng.pick(SUBAGENT_RESULTS), topic, rng),
      });
    });
    this.t = lastEnd + rng.float(0.2, 1.5);
    this.push({
      role: 'tool',
      content: pyDumps({ results, total_duration_seconds: Number((lastEnd - parentT).toFixed(2)) }),
      toolName: 'delegate_task',
      toolCallId: call.id,
    });
    this.advance('after_tool');
  }

  /** Runs this builder as a delegate child of `parent`, started while the parent is live. */
  runDelegate(parent: DraftSession, start: number, goal: string): DraftSession[] {
    const { rng, spec, topic } = this;
    this.sessions.length = 0;
    this.session = this.open('delegate', parent, start);
    this.session.source = 'subagent';
    this.push({
      role: 'user',
      content: `${goal}\n\nContext: ${fill('the parent agent is working on the {name} in {project} (branch {branch}).', topic, rng)}`,
    });
    const rounds = Math.max(1, Math.min(4, Math.floor((spec.budget - 2) / 2)));
    for (let r = 0; r < rounds; r++) this.toolRound();
    this.advance('assistant');
    this.push({
      role: 'assistant',
      content: fill(rng.pick(SUBAGENT_RESULTS), topic, rng),
      finishReason: 'stop',
    });
    this.close(this.session, endReasonFor('subagent', rng));
    return this.sessions;
  }
}

export function buildConversation(spec: ConversationSpec): DraftSession[] {
  return new ConversationBuilder(spec).build();
}
