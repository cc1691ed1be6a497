/**
 * Reads one tensor of a `.safetensors` file: an 8-byte little-endian header
 * length, a JSON header naming each tensor's dtype, shape and byte range, then
 * the raw data. F32 and F16 become Float32Array; nothing is executed.
 */
import { readFileSync } from 'node:fs';
import { EmbedError } from './types.js';

export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

interface TensorInfo {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

function f16(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** The 2-D tensor `name` (or the only 2-D tensor when there is one) of the file at `path`. */
export function readMatrix(path: string, name?: string): Matrix {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new EmbedError(`${path}: ${(err as NodeJS.ErrnoException).code ?? 'cannot read'}`);
  }
  if (buf.length < 8) throw new EmbedError(`${path}: not a safetensors file (too short)`);
  const len = Number(buf.readBigUInt64LE(0));
  if (len <= 0 || 8 + len > buf.length)
    throw new EmbedError(`${path}: not a safetensors file (bad header length)`);
  let header: Record<string, TensorInfo>;
  try {
    header = JSON.parse(buf.toString('utf8', 8, 8 + len)) as Record<string, TensorInfo>;
  } catch {
    throw new EmbedError(`${path}: not a safetensors file (header is not JSON)`);
  }
  const tensors = Object.entries(header).filter(
    ([k, v]) => k !== '__metadata__' && v.shape?.length === 2,
  );
  const pick = name
    ? tensors.find(([k]) => k === name)
    : tensors.length === 1
      ? tensors[0]
      : undefined;
  if (!pick)
    throw new EmbedError(
      `${path}: no 2-D tensor ${name ? `"${name}"` : ''} (has ${tensors.map(([k]) => k).join(', ') || 'none'})`,
    );
  const [, t] = pick;
  const [rows, cols] = t.shape as [number, number];
  const [a, b] = t.data_offsets;
  const start = 8 + len + a;
  const bytes = b - a;
  const width = t.dtype === 'F32' ? 4 : t.dtype === 'F16' ? 2 : 0;
  if (!width) throw new EmbedError(`${path}: dtype ${t.dtype} is not supported (F32 and F16 are)`);
  if (bytes !== rows * cols * width || 8 + len + b > buf.length)
    throw new EmbedError(`${path}: tensor size does not match its shape`);
  const data = new Float32Array(rows * cols);
  if (width === 4) {
    const copy = Buffer.from(buf.subarray(start, start + bytes));
    data.set(new Float32Array(copy.buffer, copy.byteOffset, rows * cols));
  } else for (let i = 0; i < rows * cols; i++) data[i] = f16(buf.readUInt16LE(start + 2 * i));
  return { rows, cols, data };
}
