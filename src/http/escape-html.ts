import escape from 'escape-html';

/**
 * Escapes text for HTML and XML (element content and quoted attribute values alike): `&`, `<`, `>`, `"` and `'`,
 * by escape-html, the library the sandbox banks' package escapes its pages with too.
 */
export function escapeHtml(value: string): string {
  return escape(value);
}
