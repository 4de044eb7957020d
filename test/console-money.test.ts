import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { data } from 'currency-codes';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoCurrency } from '@app/common';
import { createCharge, submit } from './support/charges.js';
import { newReviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

const SHOTS = join(process.cwd(), 'test-artifacts', 'review-console');

describe('amounts in the console, in each currency\'s own minor units', () => {
  describe('in a browser', () => {
    let stack: TestStack;
    let browser: Browser;
    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      stack = await startTestStack();
      browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-component-update'],
      });
    });
    afterAll(async () => {
      await browser?.close();
      await stack?.close();
    });

    it('holds the console\'s digits to ISO 4217 as the api reads it, for every currency of money', async () => {
      const page = await browser.newPage();
      await page.goto(`${stack.baseUrl}/review`);
      const codes = data.flatMap((record) => (isoCurrency(record.code) ? [record.code.toLowerCase()] : []));
      const consoleDigits = await page.evaluate(
        `import('/review/console/currency-digits.js').then(({ minorUnitsOf }) => ${JSON.stringify(codes)}.map((code) => [code, minorUnitsOf(code)]))`,
      );
      expect(Object.fromEntries(consoleDigits as Array<[string, number]>)).toEqual(Object.fromEntries(codes.map((code) => [code, isoCurrency(code)!.minorUnits])));
      await page.close();
    });

    it('shows jpy 500 as ¥500 and bhd 1250 as BHD 1.250 where a charge is found', async () => {
      const customerId = `cus_${randomUUID().slice(0, 12)}`;
      for (const [currency, amountCents] of [['jpy', 500], ['bhd', 1250], ['usd', 4990]] as const) {
        await submit(stack, (await createCharge(stack, { currency, amountCents, customerId })).id);
      }
      const reviewer = await newReviewer(stack, 'carol');
      const page = await browser.newPage({ viewport: { width: 1366, height: 768 }, locale: 'en-US' });
      await page.goto(`${stack.baseUrl}/review`);
      await page.fill('#token', reviewer.headers.Authorization.replace('Bearer ', ''));
      await page.click('button[type=submit]');
      await page.waitForSelector('#who-name');
      await page.goto(`${stack.baseUrl}/review#/lookup?q=${customerId}`);
      await page.waitForSelector('#lookup-results section[data-charge]:nth-of-type(3) h2');
      const headings = await page.$$eval('section[data-charge] h2', (nodes) => nodes.map((n) => (n.firstChild?.textContent ?? '').replace(/\s/g, ' ')));
      expect(headings.sort()).toEqual(['$49.90', 'BHD 1.250', '¥500']);
      await page.screenshot({ path: join(SHOTS, 'lookup-currencies.png'), fullPage: true });
      // Where the browser's CLDR digits are not ISO's (iqd: CLDR 0, ISO 3; mga: CLDR 0, ISO 2), ISO's decide.
      // A string, so the test runner does not rewrite the browser's own import().
      const formatted: string[] = await page.evaluate(`import('/review/console/dom.js').then(({ money }) => [money(1250, 'iqd'), money(1250, 'mga'), money(-5, 'usd')])`);
      expect(formatted.map((text) => text.replace(/\s/g, ' '))).toEqual(['IQD 1.250', 'MGA 12.50', '-$0.05']);
      await page.close();
    });
  });
});
