// API_TOKEN in the browser: kept in the cookie the API accepts (tributary_token), which the
// browser also sends with the WebSocket upgrades. Secure (HTTPS only), SameSite=Strict.
export const TOKEN_COOKIE = 'tributary_token';
const YEAR_S = 365 * 24 * 3600;

export function saveToken(token: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${YEAR_S}; SameSite=Strict${secure}`;
}

export function clearToken(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${TOKEN_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`;
}

export function hasToken(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${TOKEN_COOKIE}=`));
}
