/**
 * The two tokenizer models static and small sentence models ship in a
 * Hugging Face `tokenizer.json`: WordPiece (BERT vocabularies, potion-base)
 * and Unigram (SentencePiece vocabularies, multilingual models). Pure
 * TypeScript, so a model2vec folder needs no native code. Only what turning
 * text into vocabulary ids needs: no offsets, no special-token templates.
 */
import { EmbedError } from './types.js';

export interface Tokenizer {
  /** Vocabulary ids of `text`, at most `max` of them. */
  encode(text: string, max?: number): number[];
  readonly vocabSize: number;
  /** Ids a sentence model wraps a text in ([CLS] … [SEP], <s> … </s>), when it has them. */
  readonly cls: number | null;
  readonly sep: number | null;
}

interface TokenizerJson {
  model?: {
    type?: string;
    vocab?: Record<string, number> | [string, number][];
    unk_token?: string;
    unk_id?: number | null;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
  normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null } | null;
  added_tokens?: { id: number; content: string }[];
}

const CJK_CHAR = /[\u4E00-\u9FFF\u3400-\u4DBF\u{20000}-\u{2A6DF}\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/u;

/** Lower case and accents off, as BertNormalizer does when asked to (lowercase implies strip). */
function bertNormalise(text: string, lower: boolean, strip: boolean): string {
  let s = text.replace(/[\u0000\uFFFD]|\p{Cc}/gu, (c) => (/\s/.test(c) ? ' ' : ''));
  if (lower) s = s.toLowerCase();
  if (strip) s = s.normalize('NFD').replace(/\p{Mn}/gu, '');
  return s;
}

/** BERT's pre-tokenizer: whitespace splits, each punctuation mark and each CJK character is its own word. */
function bertWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of s) {
    if (/\s/u.test(ch)) {
      if (cur) out.push(cur);
      cur = '';
    } else if (/[\p{P}\p{S}]/u.test(ch) || CJK_CHAR.test(ch)) {
      if (cur) out.push(cur);
      out.push(ch);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function wordPiece(json: TokenizerJson): Tokenizer {
  const m = json.model!;
  const vocab = new Map(Object.entries((m.vocab ?? {}) as Record<string, number>));
  const unkToken = m.unk_token ?? '[UNK]';
  const unk = vocab.get(unkToken) ?? null;
  const prefix = m.continuing_subword_prefix ?? '##';
  const maxChars = m.max_input_chars_per_word ?? 100;
  const n = json.normalizer;
  const lower = n?.lowercase ?? false;
  const strip = n?.strip_accents ?? lower;
  return {
    vocabSize: vocab.size,
    cls: vocab.get('[CLS]') ?? null,
    sep: vocab.get('[SEP]') ?? null,
    encode(text, max = Infinity) {
      const ids: number[] = [];
      for (const word of bertWords(bertNormalise(text, lower, strip))) {
        if (ids.length >= max) break;
        const chars = Array.from(word);
        if (chars.length > maxChars) {
          if (unk !== null) ids.push(unk);
          continue;
        }
        // Greedy longest match first, as WordPiece does; a word with an unknown piece is [UNK].
        const pieces: number[] = [];
        let start = 0;
        let bad = false;
        while (start < chars.length) {
          let end = chars.length;
          let found: number | undefined;
          while (start < end) {
            const sub = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
            found = vocab.get(sub);
            if (found !== undefined) break;
            end--;
          }
          if (found === undefined) {
            bad = true;
            break;
          }
          pieces.push(found);
          start = end;
        }
        if (bad) {
          if (unk !== null) ids.push(unk);
        } else ids.push(...pieces);
      }
      return ids.slice(0, max);
    },
  };
}

/** SentencePiece's Unigram model: the segmentation with the highest total log-probability (Viterbi). */
function unigram(json: TokenizerJson): Tokenizer {
  const m = json.model!;
  const list = (m.vocab ?? []) as [string, number][];
  const vocab = new Map<string, { id: number; score: number }>();
  let longest = 1;
  list.forEach(([piece, score], id) => {
    vocab.set(piece, { id, score });
    longest = Math.max(longest, Array.from(piece).length);
  });
  const unk = m.unk_id ?? null;
  const minScore = Math.min(0, ...list.map(([, s]) => s)) - 10;
  const lower = json.normalizer?.lowercase ?? false;
  const id = (p: string): number | null => vocab.get(p)?.id ?? null;
  return {
    vocabSize: list.length,
    cls: id('<s>'),
    sep: id('</s>'),
    encode(text, max = Infinity) {
      const ids: number[] = [];
      let s = text.normalize('NFKC');
      if (lower) s = s.toLowerCase();
      for (const word of s.split(/\s+/).filter(Boolean)) {
        if (ids.length >= max) break;
        const chars = Array.from('\u2581' + word);
        // best[i]: the best score of chars[0..i) and the piece ending there.
        const best = new Float64Array(chars.length + 1).fill(-Infinity);
        const from = new Int32Array(chars.length + 1).fill(-1);
        const piece = new Int32Array(chars.length + 1).fill(-1);
        best[0] = 0;
        for (let i = 0; i < chars.length; i++) {
          if (best[i] === -Infinity) continue;
          let matched = false;
          for (let len = 1; len <= longest && i + len <= chars.length; len++) {
            const v = vocab.get(chars.slice(i, i + len).join(''));
            if (!v) continue;
            matched = matched || len === 1;
            const sc = best[i]! + v.score;
            if (sc > best[i + len]!) {
              best[i + len] = sc;
              from[i + len] = i;
              piece[i + len] = v.id;
            }
          }
          // An unknown character: the unknown piece, heavily penalised.
          if (!matched && best[i]! + minScore > best[i + 1]!) {
            best[i + 1] = best[i]! + minScore;
            from[i + 1] = i;
            piece[i + 1] = unk ?? -1;
          }
        }
        const out: number[] = [];
        for (let at = chars.length; at > 0; at = from[at]!)
          if (piece[at]! >= 0) out.push(piece[at]!);
        ids.push(...out.reverse());
      }
      return ids.slice(0, max);
    },
  };
}

/** A tokenizer from the text of a `tokenizer.json`; an unsupported model is one clear line. */
export function parseTokenizer(text: string, where: string): Tokenizer {
  let json: TokenizerJson;
  try {
    json = JSON.parse(text) as TokenizerJson;
  } catch {
    throw new EmbedError(`${where}: not valid JSON`);
  }
  const type = json.model?.type ?? (json.model?.continuing_subword_prefix ? 'WordPiece' : '');
  if (type === 'WordPiece') return wordPiece(json);
  if (type === 'Unigram') return unigram(json);
  throw new EmbedError(
    `${where}: tokenizer model "${type || 'unknown'}" is not supported (WordPiece and Unigram are)`,
  );
}
