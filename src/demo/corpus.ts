// Vocabulary for the demo conversations, kept as data in corpus.json. Each topic
// carries its own distinct terms, file names, identifiers, commands and decisions so
// that full-text queries ("pgbouncer", "chat-send", "P2.2", "we decided to") hit a
// believable subset of sessions instead of everything or nothing.
import corpus from './corpus.json' with { type: 'json' };

export interface Topic {
  key: string;
  /** Lower-case phrase used in prose ("the billing migration"). */
  name: string;
  title: string;
  project: string;
  branch: string;
  /** Code fence language of the snippets. */
  lang: string;
  terms: readonly string[];
  files: readonly string[];
  idents: readonly string[];
  commands: readonly string[];
  errors: readonly string[];
  /** Completions of "we decided to ...". */
  decisions: readonly string[];
  /** Versions, ticket labels and milestones. */
  labels: readonly string[];
  problems: readonly string[];
  snippets: readonly string[];
}

// CJK conversations. Short two-character terms (数据, 迁移) only match through
// LIKE; longer runs (连接池, 接続プール) exercise the trigram index. Each entry
// is tied to a topic so file names and identifiers in the text fit.
export interface CjkTopic {
  topic: string;
  titles: readonly string[];
  user: readonly string[];
  assistant: readonly string[];
}

export interface CjkCorpus {
  topics: readonly CjkTopic[];
  followups: readonly string[];
  /** Short lines on tool-calling turns. */
  preambles: readonly string[];
}

/** The corpus's parts, typed (JSON gives wide types: tuples and readonly are restored here). */
export const TOPICS: readonly Topic[] = corpus.TOPICS;
export const USER_OPENERS: readonly string[] = corpus.USER_OPENERS;
export const USER_FOLLOWUPS: readonly string[] = corpus.USER_FOLLOWUPS;
export const ASSISTANT_TOOL_PREAMBLES: readonly string[] = corpus.ASSISTANT_TOOL_PREAMBLES;
export const ASSISTANT_OPENINGS: readonly string[] = corpus.ASSISTANT_OPENINGS;
export const ASSISTANT_BODIES: readonly string[] = corpus.ASSISTANT_BODIES;
export const ASSISTANT_BULLETS: readonly string[] = corpus.ASSISTANT_BULLETS;
export const ASSISTANT_CLOSINGS: readonly string[] = corpus.ASSISTANT_CLOSINGS;
export const REASONING_TEMPLATES: readonly string[] = corpus.REASONING_TEMPLATES;
/** The summary a compression continuation (and an in-place compaction) opens with. */
export const SUMMARY_TEMPLATE: string = corpus.SUMMARY_TEMPLATE;
export const SUBAGENT_GOALS: readonly string[] = corpus.SUBAGENT_GOALS;
export const SUBAGENT_RESULTS: readonly string[] = corpus.SUBAGENT_RESULTS;
export const CRON_JOBS: readonly { name: string; prompt: string; hour: number }[] =
  corpus.CRON_JOBS;
export const TITLE_SUFFIXES: readonly string[] = corpus.TITLE_SUFFIXES;
/** Model names with their weight in the mix (rng.weighted). */
export const MODELS: readonly (readonly [string, number])[] = corpus.MODELS as [string, number][];
export const EMOJI: readonly string[] = corpus.EMOJI;
export const PEOPLE: readonly string[] = corpus.PEOPLE;
export const CHINESE: CjkCorpus = corpus.CHINESE;
export const JAPANESE: CjkCorpus = corpus.JAPANESE;
