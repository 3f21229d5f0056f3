// Which browsers the flasher supports: desktop Chrome and Edge (Web Serial). Chromium itself
// reports the same user agent as Chrome and counts as Chrome; other Chromium-based browsers that
// name themselves, and every mobile browser, do not.

export interface BrowserSupport {
  supported: boolean;
  /** A short name for messages ("Firefox", "Safari", "Chrome on Android"…). */
  name: string;
}

const OTHER_CHROMIUM = /\b(OPR|Opera|SamsungBrowser|YaBrowser|UCBrowser|Vivaldi)\//;
const MOBILE = /Android|Mobi|iPhone|iPad|iPod/;

export function detectBrowser(userAgent: string): BrowserSupport {
  const mobile = MOBILE.test(userAgent);
  if (/\bEdg\//.test(userAgent)) return { supported: !mobile, name: 'Microsoft Edge' };
  if (/\bEdg(A|iOS)\//.test(userAgent))
    return { supported: false, name: 'Microsoft Edge (mobile)' };
  if (/\bFirefox\/|\bFxiOS\//.test(userAgent)) return { supported: false, name: 'Firefox' };
  const other = OTHER_CHROMIUM.exec(userAgent);
  if (other) return { supported: false, name: other[1] === 'OPR' ? 'Opera' : other[1]! };
  if (/\b(Headless)?Chrome\/|\bCriOS\//.test(userAgent)) {
    return mobile
      ? { supported: false, name: 'Chrome (mobile)' }
      : { supported: true, name: 'Google Chrome' };
  }
  if (/\bSafari\//.test(userAgent)) return { supported: false, name: 'Safari' };
  return { supported: false, name: 'this browser' };
}
