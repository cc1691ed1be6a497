/**
 * Other machines' agents (Claude Code, Codex, …) as the app lists them: each
 * host synced with `lookback sync --host` has its own derived index over its
 * mirror (src/hosts/paths.ts hostEnv), found by the composition root
 * (src/tui/otherProfiles.ts; src/app touches no files). Each host gets an id
 * range (slot, src/ids/app.ts) the first time it is listed and keeps it for the
 * session, so the main thread and the query worker agree; each index is read
 * through its own AgentSource, opened on first use, closed with the app.
 */
import { IndexReader } from '../../agents/appReads.js';
import type { Agent } from '../../agents/model.js';
import { MAX_HOST_SLOT } from '../../ids/app.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { AgentSource } from './agentSource.js';

/** A host's index as a request names it: the worker opens it by its file. */
export interface HostIndexRef {
  host: string;
  file: string;
  slot: number;
}

/** Opens a host's index (main thread or worker), once per file. */
export type IndexOpener = (ref: HostIndexRef) => AgentSource;

/** One AgentSource per host index file, for whoever answers. */
export function indexOpener(agents: readonly Agent[]): {
  open: IndexOpener;
  all: () => AgentSource[];
  close: () => void;
} {
  const open = new Map<string, AgentSource>();
  return {
    open: (ref) => {
      let a = open.get(ref.file);
      if (!a) {
        a = new AgentSource(new IndexReader(ref.file, agents), { host: ref.host, slot: ref.slot });
        open.set(ref.file, a);
      }
      return a;
    },
    all: () => [...open.values()],
    close: () => {
      for (const a of open.values()) a.close();
      open.clear();
    },
  };
}

export class HostAgents {
  private readonly slots = new Map<string, number>();
  /** Synced hosts the last listing left out: past the app's id blocks. */
  private past: string[] = [];
  private readonly opener: ReturnType<typeof indexOpener>;

  constructor(
    /** The synced hosts and their index files (relisted by the caller at most every HOSTS_RELIST_MS). */
    private readonly where: () => { host: string; file: string }[],
    agents: readonly Agent[],
  ) {
    this.opener = indexOpener(agents);
  }

  private slotOf(host: string): number | null {
    let slot = this.slots.get(host);
    if (slot === undefined) {
      slot = this.slots.size + 1;
      if (slot > MAX_HOST_SLOT) return null;
      this.slots.set(host, slot);
    }
    return slot;
  }

  /** Every synced host's index that holds a conversation, as requests name it. */
  refs(): HostIndexRef[] {
    const out: HostIndexRef[] = [];
    const past: string[] = [];
    for (const w of this.where()) {
      const slot = this.slotOf(w.host);
      if (slot === null) {
        past.push(w.host);
        continue;
      }
      const ref = { host: w.host, file: w.file, slot };
      if (this.opener.open(ref).hasConversations()) out.push(ref);
    }
    this.past = past;
    return out;
  }

  /**
   * The one line said when the last listing (refs) left synced hosts out:
   * each host's conversations get a block of ids (src/ids/app.ts), and there
   * are MAX_HOST_SLOT of them. null when every host is listed.
   */
  leftOut(): string | null {
    const n = this.past.length;
    if (n === 0) return null;
    const names = this.past.slice(0, 3).map(sanitizeLine).join(', ');
    return `${n} synced host${n === 1 ? '' : 's'} not shown (${names}${n > 3 ? ', …' : ''}): the app numbers the conversations of at most ${MAX_HOST_SLOT} hosts; lookback list --host NAME --agent AGENT lists any of them`;
  }

  /** The index of a synced host's agents, or null. */
  forHost(host: string): AgentSource | null {
    const w = this.where().find((x) => x.host === host);
    const slot = w ? this.slotOf(w.host) : null;
    return w && slot !== null ? this.opener.open({ ...w, slot }) : null;
  }

  /** The index whose message-id range is `slot`, or null. */
  forSlot(slot: number): AgentSource | null {
    const w = this.where().find((x) => this.slots.get(x.host) === slot);
    return w ? this.opener.open({ ...w, slot }) : null;
  }

  open(ref: HostIndexRef): AgentSource {
    return this.opener.open(ref);
  }

  /** Changes when any host's index was written (a later `lookback sync --host`). */
  version(): number {
    return this.opener.all().reduce((v, a) => v + a.version(), 0);
  }

  setShowTakenBack(on: boolean): void {
    for (const a of this.opener.all()) a.setShowTakenBack(on);
  }

  close(): void {
    this.opener.close();
  }
}
