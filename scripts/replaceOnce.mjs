/**
 * `source` with `find` replaced, or null unless `find` occurs exactly once: every
 * build-time patch (scripts/*Patch.mjs, appBundle.mjs) applies its hunks through
 * this, and a hunk that no longer matches once fails the build, never a silent skip.
 */
export function replaceOnce(source, find, replace) {
  const at = source.indexOf(find);
  if (at === -1 || source.indexOf(find, at + 1) !== -1) return null;
  return source.slice(0, at) + replace + source.slice(at + find.length);
}
