/** OAuth scopes (interface spec, "Authentication"). */
export const SCOPES = ['payments:read', 'payments:write', 'providers:read'] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Space-separated scope string → distinct scopes (unknown ones returned separately). */
export function parseScopes(value: string): { scopes: Scope[]; unknown: string[] } {
  const words = [...new Set(value.split(' ').filter((word) => word !== ''))];
  return { scopes: words.filter(isScope), unknown: words.filter((word) => !isScope(word)) };
}

export function formatScopes(scopes: readonly Scope[]): string {
  return SCOPES.filter((scope) => scopes.includes(scope)).join(' ');
}
