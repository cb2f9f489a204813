import type { Browser } from 'playwright-core';

export declare const chromiumPath: string;
export declare const chromiumArgs: readonly string[];
export declare function launchChromium(): Promise<Browser>;
