/** What a tool call asks of the agent's sandbox, read from its input. */

/** The call's request to run outside the sandbox, as the input says it: Codex's
 * `sandbox_permissions: "require_escalated"` (or the older `with_escalated_permissions: true`),
 * Claude Code's `dangerouslyDisableSandbox: true`; undefined for a call run inside it. */
export function escalation(input: Record<string, unknown>): string | undefined {
  if (typeof input.sandbox_permissions === 'string' && /escalat/i.test(input.sandbox_permissions)) return `sandbox_permissions: "${input.sandbox_permissions}"`;
  if (input.with_escalated_permissions === true) return 'with_escalated_permissions: true';
  if (input.dangerouslyDisableSandbox === true) return 'dangerouslyDisableSandbox: true';
  return undefined;
}
