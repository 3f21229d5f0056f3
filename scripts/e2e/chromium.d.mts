// Types of chromium.mjs for the TypeScript harnesses that use it.
import type { Browser } from 'playwright-core';

export declare const chromiumPath: string;
export declare const chromiumArgs: readonly string[];
export declare function launchChromium(extraArgs?: readonly string[]): Promise<Browser>;
