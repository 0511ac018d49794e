/** Bootstrap server lists compared as sets: the identity stored secrets are bound to (no editor types). */

/** The servers as a set: trimmed, lower-case, sorted, so a reordering or a change of case is the same servers. */
export function serverSet(servers: readonly string[]): string[] {
  return [...new Set(servers.map((s) => s.trim().toLowerCase()))].sort();
}

export function sameServers(a: readonly string[], b: readonly string[]): boolean {
  return JSON.stringify(serverSet(a)) === JSON.stringify(serverSet(b));
}
