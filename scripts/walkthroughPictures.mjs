// Writes the walkthrough's pictures (media/walkthrough/*-light.svg and *-dark.svg): small schematic
// drawings of the panel, the chat, a terminal and the secret field, in a light and a dark palette.
//   node scripts/walkthroughPictures.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = join(import.meta.dirname, '..', 'media', 'walkthrough');
const PALETTES = {
  dark: {
    bg: '#1f1f1f',
    surface: '#181818',
    border: '#3c3c3c',
    text: '#cccccc',
    muted: '#9d9d9d',
    accent: '#0078d4',
    onAccent: '#ffffff',
    input: '#313131',
    chip: '#2b3a4a',
    ok: '#89d185',
    term: '#0c0c0c',
  },
  light: {
    bg: '#f8f8f8',
    surface: '#ffffff',
    border: '#d4d4d4',
    text: '#3b3b3b',
    muted: '#6f6f6f',
    accent: '#005fb8',
    onAccent: '#ffffff',
    input: '#ffffff',
    chip: '#dbe7f5',
    ok: '#2e7d32',
    term: '#f3f3f3',
  },
};
const W = 480;
const H = 300;
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x, y, s, fill, size = 13, weight = 400, family = 'system-ui, sans-serif') =>
  `<text x="${x}" y="${y}" fill="${fill}" font-family="${family}" font-size="${size}" font-weight="${weight}">${esc(s)}</text>`;
const mono = (x, y, s, fill, size = 12) => text(x, y, s, fill, size, 400, 'ui-monospace, monospace');
const rect = (x, y, w, h, fill, stroke = 'none', r = 4) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}" stroke="${stroke}"/>`;
const radio = (p, x, y, on) =>
  `<circle cx="${x}" cy="${y}" r="7" fill="${p.input}" stroke="${on ? p.accent : p.muted}" stroke-width="1.5"/>${on ? `<circle cx="${x}" cy="${y}" r="3.5" fill="${p.accent}"/>` : ''}`;
const button = (p, x, y, label, w = 80) => rect(x, y, w, 26, p.accent, 'none', 2) + text(x + w / 2 - label.length * 3.4, y + 17, label, p.onAccent, 13);
const pane = (p, x, y, w, h, title) => rect(x, y, w, h, p.surface, p.border) + text(x + 12, y + 20, title, p.muted, 11, 600);
const chip = (p, x, y, label) => rect(x, y, label.length * 7.6 + 16, 20, p.chip, 'none', 10) + text(x + 8, y + 14, label, p.text, 11, 600);
/** One line in several colours: [text, fill, weight] runs. */
const runs = (x, y, parts, size = 12) =>
  `<text x="${x}" y="${y}" font-family="system-ui, sans-serif" font-size="${size}" xml:space="preserve">${parts.map(([s, fill, weight = 400]) => `<tspan fill="${fill}" font-weight="${weight}">${esc(s)}</tspan>`).join('')}</text>`;

const PICTURES = {
  'ask-sample': (p) => [
    pane(p, 20, 20, 440, 260, 'QUESTION'),
    chip(p, 36, 50, 'Database'),
    text(36, 88, 'Which database should the new service use?', p.text, 14, 600),
    radio(p, 46, 106, true),
    text(62, 110, 'PostgreSQL', p.text),
    chip(p, 142, 96, 'Recommended'),
    text(62, 126, 'Relational, the team already runs it.', p.muted, 11),
    radio(p, 46, 152, false),
    text(62, 156, 'SQLite', p.text),
    radio(p, 46, 184, false),
    text(62, 188, 'MongoDB', p.text),
    radio(p, 46, 216, false),
    text(62, 220, 'Other…', p.muted),
    button(p, 36, 240, 'Submit'),
    text(128, 257, 'Enter submits · Esc rejects', p.muted, 11),
  ],
  'let-agent-ask': (p) => [
    pane(p, 20, 20, 250, 260, 'CHAT · AGENT'),
    rect(34, 44, 222, 56, p.input, p.border),
    text(44, 66, 'Plan the migration, and', p.text, 12),
    runs(44, 84, [
      ['#askUser', p.accent, 600],
      [' before choosing a DB.', p.text],
    ]),
    text(34, 124, '✓ Ask the User: Database', p.muted, 12),
    rect(34, 226, 222, 40, p.input, p.accent),
    text(44, 251, '#askUser', p.accent, 13, 600),
    text(112, 251, '|', p.text, 13),
    pane(p, 286, 60, 174, 150, 'CONFIGURE TOOLS'),
    rect(298, 92, 14, 14, p.accent, 'none', 2),
    text(300, 104, '✓', p.onAccent, 12, 700),
    text(320, 104, 'Ask the User', p.text, 12, 600),
    text(320, 120, '#askUser', p.muted, 11),
    rect(298, 136, 14, 14, p.input, p.muted, 2),
    text(320, 148, 'Fetch web page', p.muted, 12),
    rect(298, 164, 14, 14, p.input, p.muted, 2),
    text(320, 176, 'Run in terminal', p.muted, 12),
  ],
  'connect-cli': (p) => [
    rect(20, 20, 250, 260, p.term, p.border),
    text(32, 40, 'TERMINAL', p.muted, 11, 600),
    mono(32, 68, '$ claude', p.text),
    mono(32, 92, '● ask_user (agent-questions)', p.ok),
    mono(32, 112, '  Waiting for your answer', p.muted),
    mono(32, 132, '  in VS Code…', p.muted),
    mono(32, 172, '$ echo $AGENT_QUESTIONS_MCP_URL', p.text),
    mono(32, 192, 'http://127.0.0.1:…/mcp', p.muted),
    pane(p, 286, 20, 174, 260, 'QUEUE'),
    text(298, 58, 'PERMISSIONS', p.muted, 10, 600),
    rect(294, 64, 158, 40, p.chip, 'none', 3),
    text(302, 82, 'Run npm test?', p.text, 12, 600),
    text(302, 97, 'Claude Code', p.muted, 11),
    text(298, 128, 'QUESTIONS', p.muted, 10, 600),
    rect(294, 136, 158, 40, p.input, p.border, 3),
    text(302, 154, 'Which port?', p.text, 12, 600),
    text(302, 169, 'Claude Code', p.muted, 11),
    text(298, 230, '127.0.0.1 only · token', p.muted, 11),
  ],
  'store-secret': (p) => [
    pane(p, 20, 20, 440, 180, 'QUESTION'),
    chip(p, 36, 48, 'Sample secret'),
    text(36, 86, 'Type a made-up token to see how a secret is stored.', p.text, 13, 600),
    rect(36, 96, 408, 30, p.input, p.accent, 2),
    text(46, 117, '••••••••••••••••', p.text, 14),
    text(36, 146, 'Kept in secret storage. The agent gets a handle, never the value.', p.muted, 11),
    button(p, 36, 160, 'Submit'),
    rect(20, 214, 440, 66, p.term, p.border),
    text(32, 232, 'NEW TERMINAL', p.muted, 11, 600),
    mono(32, 254, '$ test -n "$SAMPLE_API_KEY" && echo set', p.text),
    mono(32, 272, 'set', p.ok),
  ],
};

mkdirSync(folder, { recursive: true });
for (const [name, draw] of Object.entries(PICTURES)) {
  for (const [theme, palette] of Object.entries(PALETTES)) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${rect(0, 0, W, H, palette.bg, 'none', 6)}${draw(palette).join('')}</svg>\n`;
    writeFileSync(join(folder, `${name}-${theme}.svg`), svg);
  }
}
console.log(`media/walkthrough: ${Object.keys(PICTURES).length * 2} pictures`);
