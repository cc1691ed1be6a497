// The agent is Python and stores JSON written by `json.dumps` with default
// settings: ", " and ": " separators and non-ASCII escaped as \uXXXX. Matching
// that byte for byte keeps FTS tokens and LIKE scans over tool_calls realistic.

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function escapeString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += s[i];
  }
  return out + '"';
}

export function pyDumps(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return '[' + value.map(pyDumps).join(', ') + ']';
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v !== undefined) parts.push(`${escapeString(key)}: ${pyDumps(v)}`);
  }
  return '{' + parts.join(', ') + '}';
}
