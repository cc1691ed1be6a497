/**
 * R: resume the open (or selected) conversation in its agent. The argv comes
 * from app/resume.ts (LOOKBACK_RESUME or Hermes' own form); the shell side
 * (src/tui/run.tsx) leaves the app, hands the terminal over and exits with
 * the agent's exit code.
 */
import { splitAgentSession } from '../../ids/app.js';
import { resumeCommand } from '../resume.js';
import type { Ctx } from './ctx.js';
import { target } from './copy.js';
import { say } from './status.js';

/** The session to resume: the newest segment of the conversation's compression chain. */
function resumeSession(ctx: Ctx): { sessionId: string; cwd: string | null } | null {
  const s = ctx.state;
  if (s.pane === 'messages' && s.view && !s.typing) {
    const chain = s.view.win.chain;
    const tip = chain[chain.length - 1];
    return tip === undefined ? null : { sessionId: tip, cwd: ctx.data.cwdOf(tip) };
  }
  const t = target(ctx);
  if (!t) return null;
  const id = t.kind === 'message' ? t.msg.session_id : t.sessionId;
  const chain = ctx.data.chainOf(id);
  const tip = chain[chain.length - 1] ?? id;
  return { sessionId: tip, cwd: ctx.data.cwdOf(tip) };
}

/** A remote conversation's machine: the agent's command then runs there, over `ssh -t`. */
function hostOf(ctx: Ctx, sessionId: string): { host?: string } {
  const host = ctx.data.hostOf(sessionId);
  return host ? { host } : {};
}

export function resume(ctx: Ctx): void {
  if (!ctx.o.resume) return ctx.setStatus(say.resumeUnavailable, 'warn');
  const at = resumeSession(ctx);
  if (!at) return ctx.setStatus(say.resumeWhere);
  // The demo store's sessions were written by lookback: no Hermes knows them.
  if (ctx.o.demo && !splitAgentSession(at.sessionId)) return ctx.setStatus(say.resumeDemo, 'warn');
  // Another agent's conversation resumes in that agent, under its own id; another
  // profile's in that profile, by its store's own id.
  const other = splitAgentSession(at.sessionId);
  const h = other ? null : ctx.data.hermesRef(at.sessionId, null);
  const plan = resumeCommand(
    {
      sessionId: other ? other.nativeId : (h?.sessionId ?? at.sessionId),
      profile: h?.profile ?? ctx.state.store.profile,
      cwd: at.cwd,
      ...(other ? { agent: other.agent } : {}),
      ...hostOf(ctx, at.sessionId),
    },
    { env: ctx.o.env ?? {} },
  );
  if (!plan.ok) return ctx.setStatus(plan.error, 'error');
  const refused = ctx.o.resume(plan.argv, plan.cwd, plan.cwdOptional === true);
  if (typeof refused === 'string') return ctx.setStatus(refused, 'error');
  ctx.setStatus(say.resuming(plan.display));
}
