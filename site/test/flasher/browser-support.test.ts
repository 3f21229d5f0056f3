import { describe, expect, test } from '@jest/globals';
import { detectBrowser } from '@/flasher/browser-support';

const UA = {
  chromeWin:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  edgeAndroid:
    'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.0.0 Mobile/15E148 Safari/604.1',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
};

describe('browser support', () => {
  test('desktop Chrome and Edge are supported', () => {
    expect(detectBrowser(UA.chromeWin)).toEqual({ supported: true, name: 'Google Chrome' });
    expect(detectBrowser(UA.edgeMac)).toEqual({ supported: true, name: 'Microsoft Edge' });
    expect(detectBrowser(UA.headless).supported).toBe(true);
  });

  test('mobile browsers, Firefox, Safari and other Chromium browsers are not', () => {
    for (const ua of [
      UA.chromeAndroid,
      UA.edgeAndroid,
      UA.firefox,
      UA.safari,
      UA.chromeIos,
      UA.opera,
      '',
    ]) {
      expect(detectBrowser(ua).supported).toBe(false);
    }
    expect(detectBrowser(UA.firefox).name).toBe('Firefox');
    expect(detectBrowser(UA.opera).name).toBe('Opera');
  });
});
