/**
 * "This folder or below it", the folder filter every door asks the same way
 * (`--here`, the app's `.`, MCP's `folder`): a trailing `/` on the filter's
 * folder, which src/store/filters.ts folderMatch reads as that folder or any
 * folder under it, never a sibling that only shares its start.
 */

/** The folder filter for `dir` and every folder below it. */
export function folderAndBelow(dir: string): string {
  return `${dir.replace(/\/+$/, '')}/`;
}

/** Is `folder` this folder or below it? */
export function isAtOrBelow(folder: string, dir: string): boolean {
  const d = dir.replace(/\/+$/, '');
  const f = folder.replace(/\/+$/, '');
  return d === '' || f === d || f.startsWith(`${d}/`);
}
