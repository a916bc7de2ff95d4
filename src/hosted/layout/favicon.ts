/** Our icon, on every page we serve (payer pages, errors, the front door): an SVG of ours, no external request. */
export const FAVICON_PATH = '/favicon.svg';

/** A padlock on the service's blue: "secure payment". */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1e3a8a"/><path d="M11 14v-3a5 5 0 0 1 10 0v3" fill="none" stroke="#fff" stroke-width="2.5"/><rect x="8" y="14" width="16" height="12" rx="2.5" fill="#fff"/><circle cx="16" cy="20" r="2" fill="#1e3a8a"/></svg>`;
