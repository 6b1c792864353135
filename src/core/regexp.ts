/** `s` as a regular-expression source that matches exactly `s` (valid with and without the `u` flag). */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
