// Renders the marketplace icon (media/icon.png, 128x128) from the activity bar glyph
// (media/agent-questions.svg) in the Chromium the test harness provisions.
//   node scripts/renderIcon.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../test/harness/codeServer.mjs';

const root = join(import.meta.dirname, '..');
const SIZE = 128;
// The glyph draws in currentColor; the tile gives it the marketplace's colour (galleryBanner matches).
const glyph = readFileSync(join(root, 'media', 'agent-questions.svg'), 'utf8');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:${SIZE}px;height:${SIZE}px;border-radius:24px;background:linear-gradient(135deg,#2f6fde,#1b3f8f);color:#fff;display:flex;align-items:center;justify-content:center">
<div style="width:96px;height:96px">${glyph.replace('<svg ', '<svg style="width:100%;height:100%" ')}</div></div></body></html>`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(html);
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  writeFileSync(join(root, 'media', 'icon.png'), png);
  console.log(`media/icon.png: ${SIZE}x${SIZE}, ${png.length} bytes`);
} finally {
  await browser.close();
}
