/** JSON as the command line and the MCP server print it. */

// JSON.stringify escapes C0 controls but leaves C1 controls, bidi overrides and
// line separators raw; a terminal showing `--json` output would act on them.
// Escaping them as \uXXXX keeps the JSON identical once parsed.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** JSON text with every character a terminal could act on written as an escape. */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
