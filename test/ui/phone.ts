// A phone for the answer page: a phone-sized touch screen in its own browser context, with the
// script errors it reports collected, and the checks a page on a phone must pass.
import * as assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { followDeadline } from '../harness/deadline';

export const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;

export interface Phone {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
}

/** A fresh phone (no cookies, nothing cached) in `scheme`. */
export async function openPhone(browser: Browser, scheme: 'light' | 'dark' = 'light'): Promise<Phone> {
  const context = await browser.newContext({ ...PHONE, colorScheme: scheme });
  // Every page of the phone (a test may open a second) waits until the test's deadline.
  followDeadline(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Fits the phone: nothing scrolls sideways, and every control is a large touch target. */
export async function assertPhoneLayout(page: Page): Promise<void> {
  const layout = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    small: Array.from(document.querySelectorAll('button, label.choice, summary'))
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.height < 44)
      .map((r) => `${r.width}x${r.height}`),
  }));
  assert.ok(layout.scrollWidth <= PHONE.viewport.width, `the page scrolls sideways: ${layout.scrollWidth}`);
  assert.deepEqual(layout.small, []);
}
