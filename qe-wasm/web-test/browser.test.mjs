// The page in a real browser (Debian's chromium, driven by playwright-core; no browser download):
// plays a whole 5-player Commodities game against the bots by clicking and typing, checks the
// reveal at the end against the engine's own outcome, saves the record, loads it back and steps
// through it, takes screenshots at a desktop and a phone width, and fails on any console error.
// Run by scripts/test-web, which builds the page and installs playwright-core.
//
// Environment: QE_WEB_DIR (the built page, default target/web), QE_WEB_TEST_DIR (where
// playwright-core is installed and the screenshots go, default target/web-test), QE_CHROMIUM
// (default /usr/bin/chromium), QE_NPM_DIR (the built package, for the engine's own outcome).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './serve.mjs';
import { loadPackage, ROOT } from '../tests/helpers.mjs';

const WEB_DIR = process.env.QE_WEB_DIR ?? path.join(ROOT, 'target', 'web');
const OUT_DIR = process.env.QE_WEB_TEST_DIR ?? path.join(ROOT, 'target', 'web-test');
const CHROMIUM = process.env.QE_CHROMIUM ?? '/usr/bin/chromium';
const MAX = 2n ** 64n - 1n;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const { chromium } = createRequire(path.join(OUT_DIR, 'package.json'))('playwright-core');
const { Game } = await loadPackage();
const shots = path.join(OUT_DIR, 'screenshots');
fs.mkdirSync(shots, { recursive: true });

test('a whole game in the browser, the reveal, save, load and step through', { timeout: 600_000 }, async () => {
  const server = await serve(WEB_DIR);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'qe-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: DESKTOP,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const errors = [];
  const page = context.pages()[0] ?? (await context.newPage());
  try {
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`page: ${err.message}`));
    context.on('weberror', (err) => errors.push(`web: ${err.error().message}`));

    await page.goto(url);
    await page.locator('#setup').waitFor({ state: 'visible' });

    // Set up by keyboard and clicks: 5 players, Commodities, a bot of every search level.
    const lineup = ['search:hard', 'search:medium', 'search:easy', 'value'];
    const start = async () => {
      await page.selectOption('#players', '5');
      await page.check('#commodities');
      await page.locator('#seed').fill('');
      await page.locator('#seed').pressSequentially('20261206');
      for (const [i, name] of lineup.entries()) await page.selectOption(`#bot-${i + 1}`, name);
      await page.locator('#start').focus();
      await page.keyboard.press('Enter');
      await page.locator('#play').waitFor({ state: 'visible' });
    };
    // A game left while its bots think: the next game's bots must still play.
    await start();
    await page.locator('#bid').pressSequentially('3');
    await page.keyboard.press('Enter');
    assert.match(await page.locator('#thinking').textContent(), /thinking/);
    await page.click('#new-game');
    await start();

    let bids = 0;
    let piles = 0;
    let peeked = false;
    let bigBid = false;
    let phoneShot = false;
    for (let moves = 0; ; moves++) {
      assert.ok(moves < 400, 'the game did not end');
      // Wait until it is our move or the game is over (the bots think in the worker meanwhile).
      await page
        .waitForFunction(
          () =>
            !document.getElementById('reveal').hidden ||
            document.getElementById('action-error').textContent !== '' ||
            !document.getElementById('bid-form').hidden ||
            document.querySelector('#pile-buttons button') !== null,
          null,
          { timeout: 120_000 },
        )
        .catch(async (e) => {
          await page.screenshot({ path: path.join(shots, 'stuck.png'), fullPage: true });
          throw e;
        });
      if (await page.locator('#reveal').isVisible()) break;
      assert.equal(await page.locator('#action-error').textContent(), '', 'no error so far');
      if (!peeked && (await page.locator('#peek-buttons button').count()) > 0) {
        await page.locator('#peek-buttons button').first().click();
        peeked = true;
        continue;
      }
      if (await page.locator('#bid-form').isVisible()) {
        if (bids === 6 && !phoneShot) {
          // Our move, mid-game: the bid box, the table and the log, at both widths.
          await page.screenshot({ path: path.join(shots, 'desktop-play.png'), fullPage: true });
          await page.setViewportSize(PHONE);
          await page.screenshot({ path: path.join(shots, 'phone-play.png'), fullPage: true });
          await page.setViewportSize(DESKTOP);
          phoneShot = true;
        }
        const range = await page.locator('#bid-range').textContent();
        const opening = range.startsWith('From 1 ');
        // One secret bid of 2^64 - 1, typed in full: it wins, and makes us the biggest spender.
        let amount = opening ? '3' : '0';
        if (!opening && !bigBid && bids >= 4) {
          amount = String(MAX);
          bigBid = true;
        }
        await page.locator('#bid').pressSequentially(amount);
        await page.keyboard.press('Enter');
        bids++;
      } else {
        await page.locator('#pile-buttons button').first().click();
        piles++;
      }
    }
    assert.ok(bids > 5 && bigBid, `bids typed: ${bids}`);
    assert.ok(peeked, 'a peek was clicked');

    // The reveal (R-VIS-7): every seat's industry and score, who won and who was eliminated,
    // and every bid.
    const scores = page.locator('#scores tbody tr');
    assert.equal(await scores.count(), 5);
    const rows = await scores.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.equal(rows[0][0], 'You');
    // Our 2^64 - 1 bid won; what we paid is past 2^53, shown exact (checked against the engine
    // below). The biggest spender is eliminated (R-SCO-2).
    // Columns: seat, result, total, spent, nation, industry, the score's parts.
    assert.ok(BigInt(rows[0][3]) > 2n ** 53n, `our spent ${rows[0][3]}`);
    assert.ok(rows.some((r) => r[1] === 'eliminated'), 'someone is eliminated');
    assert.ok(rows.every((r) => r[5] !== 'hidden' && r[5] !== ''), 'every industry is revealed');
    const cells = await page.locator('#all-bids tbody td').allTextContents();
    const amounts = cells.flatMap((c) => c.split('; ')).filter((c) => c !== '').map((c) => c.split(': ').at(-1));
    assert.ok(amounts.length > 30 && amounts.every((a) => /^\d+$/.test(a)), `every bid amount is shown: ${amounts}`);
    assert.ok(amounts.includes(String(MAX)));
    await page.screenshot({ path: path.join(shots, 'desktop-reveal.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: path.join(shots, 'phone-reveal.png'), fullPage: true });
    await page.setViewportSize(DESKTOP);

    // Save the record; the engine's own outcome of it is what the page showed.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    const saved = path.join(OUT_DIR, 'saved-record.json');
    await download.saveAs(saved);
    const text = fs.readFileSync(saved, 'utf8');
    const outcome = Game.fromRecord(text).outcome();
    assert.deepEqual(
      rows.map((r) => [r[1], r[2], r[3], r[5]]),
      outcome.seats.map((s) => [s.winner ? 'winner' : s.eliminated ? 'eliminated' : '', String(s.total), String(s.spent), s.industry]),
    );

    // Load it back and step through it.
    await page.click('#new-game');
    await page.setInputFiles('#record-file', saved);
    await page.locator('#load').focus();
    await page.keyboard.press('Enter');
    await page.locator('#replay-bar').waitFor({ state: 'visible' });
    const steps = JSON.parse(text).commands.length;
    assert.equal(await page.locator('#step-label').textContent(), `step ${steps} of ${steps}`);
    assert.deepEqual(
      await page.locator('#scores tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent))),
      rows.map((r, i) => [`Seat ${i}`, ...r.slice(1)]),
    );
    await page.locator('#step-prev').focus();
    await page.keyboard.press('Home');
    assert.equal(await page.locator('#step-label').textContent(), `step 0 of ${steps}`);
    assert.ok(await page.locator('#reveal').isHidden());
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#step-label').textContent(), `step 2 of ${steps}`);
    // Seat 1 sees its own industry and not seat 2's (R-VIS-2); the spectator sees neither.
    await page.selectOption('#viewer', '1');
    const industries = await page.locator('#table tbody tr td:nth-child(5)').allTextContents();
    assert.notEqual(industries[1], 'hidden');
    assert.equal(industries[2], 'hidden');
    await page.selectOption('#viewer', '');
    assert.ok((await page.locator('#table tbody tr td:nth-child(5)').allTextContents()).every((t) => t === 'hidden'));
    await page.locator('#step-next').focus();
    await page.keyboard.press('End');
    assert.ok(await page.locator('#reveal').isVisible());

    const times = await page.evaluate(() => window.qeBotTimes);
    const report = Object.fromEntries(
      Object.entries(times).map(([name, t]) => [
        name,
        { decisions: t.decisions, meanMs: +(t.totalMs / t.decisions).toFixed(2), maxMs: +t.maxMs.toFixed(2) },
      ]),
    );
    fs.writeFileSync(path.join(OUT_DIR, 'bot-times.json'), JSON.stringify(report, null, 2) + '\n');
    console.log('bot time per decision in the browser (worker):', JSON.stringify(report));
    assert.deepEqual(Object.keys(report).sort(), [...lineup].sort());
  } catch (e) {
    await page.screenshot({ path: path.join(shots, 'failure.png'), fullPage: true });
    throw e;
  } finally {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  assert.deepEqual(errors, [], 'console errors');
});
