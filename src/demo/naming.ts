// Session ids, unique titles and working directories: the human-visible
// naming a browser shows, kept apart from the generation mechanics.

import { CHINESE, JAPANESE, TITLE_SUFFIXES, type Topic } from './corpus.js';
import type { ConversationPlan } from './plan.js';
import type { Rng } from './rng.js';
import { sessionIdFor } from './store.js';
import { capitalize } from './template.js';

export class Naming {
  private readonly ids = new Set<string>();
  private readonly titles = new Set<string>();

  constructor(private readonly rng: Rng) {}

  id(startedAt: number): string {
    for (;;) {
      const id = sessionIdFor(startedAt, this.rng.hex(6));
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  /** Titles are UNIQUE in the store; repeats get " #2", " #3", ... like the agent's own numbering. */
  title(base: string): string {
    let title = base;
    for (let k = 2; this.titles.has(title); k++) title = `${base} #${k}`;
    this.titles.add(title);
    return title;
  }
}

export function baseTitle(plan: ConversationPlan, topic: Topic, start: number, rng: Rng): string {
  if (plan.cronJob)
    return `${plan.cronJob.name} ${new Date(start * 1000).toISOString().slice(0, 10)}`;
  if (plan.lang !== 'en') {
    const corpus = plan.lang === 'zh' ? CHINESE : JAPANESE;
    const entry = corpus.topics.find((e) => e.topic === topic.key) ?? corpus.topics[0];
    if (entry) return rng.pick(entry.titles);
  }
  if (plan.long) return `${topic.title} working session`;
  if (rng.chance(0.7)) return `${topic.title} ${rng.pick(TITLE_SUFFIXES)}`;
  const term = rng.pick(topic.terms);
  return rng.pick([
    `Debugging ${term}`,
    `Fix ${term} in ${topic.project}`,
    `${topic.title}: ${term}`,
    `${capitalize(topic.name)} and ${term}`,
  ]);
}

export function cwdFor(source: string, topic: Topic, rng: Rng): string | null {
  const root = `/home/dev/projects/${topic.project}`;
  switch (source) {
    case 'cli':
    case 'tui': {
      const file = rng.pick(topic.files);
      const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
      return rng.chance(0.85) || dir === '' ? root : `${root}/${dir}`;
    }
    case 'telegram':
    case 'discord':
      return rng.chance(0.5) ? null : '/home/dev';
    case 'cron':
      return '/home/dev';
    default:
      return null;
  }
}
