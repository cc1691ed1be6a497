/**
 * Export: the open (or selected) conversation, or the marked messages, as a
 * Markdown or JSON file (src/export: the one form shared with the copy menu)
 * in the current directory or LOOKBACK_EXPORT_DIR, never overwriting a file.
 */
import { marksInOrder } from './copy.js';
import {
  conversationJson,
  conversationMarkdown,
  markedJson,
  markedMarkdown,
} from '../../export/conversation.js';
import { uniqueExportPath } from '../../export/fileName.js';
import { plural } from '../../text/format.js';
import type { CopyOption, ExportForm } from '../model.js';
import type { Ctx } from './ctx.js';
import { target } from './copy.js';
import { say } from './status.js';

/** The conversation an export is about: the open one, else the selected row's. */
function conversationTarget(ctx: Ctx): { chain: readonly string[]; title: string } | null {
  const s = ctx.state;
  if (s.pane === 'messages' && s.view && !s.typing)
    return { chain: s.view.win.chain, title: s.view.title };
  const t = target(ctx);
  if (!t) return null;
  const sessionId = t.kind === 'message' ? t.msg.session_id : t.sessionId;
  return { chain: ctx.data.chainOf(sessionId), title: t.title };
}

export function openExportMenu(ctx: Ctx): void {
  if (!ctx.o.files) return ctx.setStatus(say.exportUnavailable, 'warn');
  const options: CopyOption[] = [];
  const conv = conversationTarget(ctx);
  const dir = ctx.o.files.dir;
  if (conv) {
    options.push({ form: 'conversation.md', label: 'conversation as Markdown', text: dir });
    options.push({ form: 'conversation.json', label: 'conversation as JSON', text: dir });
  }
  const n = ctx.state.marks.length;
  if (n > 0) {
    options.push({
      form: 'marks.md',
      label: `${plural(n, 'marked message')} as Markdown`,
      text: dir,
    });
    options.push({
      form: 'marks.json',
      label: `${plural(n, 'marked message')} as JSON`,
      text: dir,
    });
  }
  if (options.length === 0) return ctx.setStatus(say.nothingToExport);
  ctx.dispatch({ type: 'openCopyMenu', options, menu: 'export' });
}

/** Writes one export and says where it went. */
export function runExport(ctx: Ctx, form: ExportForm): void {
  const files = ctx.o.files;
  if (!files) return ctx.setStatus(say.exportUnavailable, 'warn');
  const ext = form.endsWith('.json') ? 'json' : 'md';
  let text: string;
  let nameInfo: { sessionId: string; title?: string | null; startedAt?: number | null };
  if (form.startsWith('conversation')) {
    const conv = conversationTarget(ctx);
    const group = conv ? ctx.data.exportConversation(conv.chain, conv.title) : null;
    if (!group) return ctx.setStatus(say.nothingToExport);
    text =
      ext === 'md'
        ? conversationMarkdown(group.info, group.messages, {
            anchorId: ctx.state.view?.win.anchorId ?? null,
          }).text
        : `${JSON.stringify(conversationJson(group.info, group.messages), null, 2)}\n`;
    nameInfo = group.info;
  } else {
    const groups = ctx.data.exportMarks(marksInOrder(ctx, ctx.state.marks));
    if (groups.length === 0) return ctx.setStatus(say.nothingToExport);
    text =
      ext === 'md'
        ? markedMarkdown(groups).text
        : `${JSON.stringify(markedJson(groups), null, 2)}\n`;
    nameInfo = { sessionId: 'marked', title: 'marked messages', startedAt: ctx.now() / 1000 };
  }
  try {
    const path = uniqueExportPath(files.dir, nameInfo, ext, (p) => files.exists(p));
    files.write(path, text);
    ctx.setStatus(say.exported(path), 'ok');
  } catch (err) {
    ctx.setStatus(say.exportFailed((err as Error)?.message ?? String(err)), 'error');
  }
}
