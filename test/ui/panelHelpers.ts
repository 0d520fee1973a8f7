import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import type { Workbench } from './workbench';

export interface ToolCall {
  callId: number;
}

export async function invoke(workbench: Workbench, input: object): Promise<ToolCall> {
  return workbench.driver<ToolCall>('invoke', { input });
}

/** The tool's text result split into its line and JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it asserts on
export async function toolResult(workbench: Workbench, call: ToolCall): Promise<{ line: string; json: Record<string, any>; text: string }> {
  const { value, error } = await workbench.driver<{ value?: string; error?: string }>('await', { callId: call.callId });
  assert.equal(error, undefined, `the tool call failed: ${error}`);
  const text = value!;
  const newline = text.indexOf('\n');
  return { line: text.slice(0, newline), json: JSON.parse(text.slice(newline + 1)), text };
}

/** Waits until the panel shows the request whose first question has this header (or this permission title). */
export async function waitForRequest(panel: Frame, text: string): Promise<void> {
  // Not a held preview (inert: a call VS Code prepared but has not invoked yet).
  await panel.locator('.request:not([inert])', { hasText: text }).first().waitFor();
}

/**
 * Answers the lone single-choice question on screen with one click on an option (one decision, one
 * action). A click in the request's first moments only chooses, so this waits until clicks answer.
 */
export async function answerByClick(panel: Frame, value: string): Promise<void> {
  // One locator from the ready request to its option: a copy of the request drawn again (a pick from the Queue) is not ready yet.
  await panel.locator(`.request[data-one-action="ready"] vscode-radio[value="${value}"]`).click();
}

/** Answers a request with one choice whichever way it takes: one click when choosing sends it (one single-choice question), else the choice and Submit. */
export async function chooseAndSubmit(panel: Frame, value: string): Promise<void> {
  if ((await panel.locator('.request').first().getAttribute('data-one-action')) !== null) return answerByClick(panel, value);
  await panel.locator(`.request vscode-radio[value="${value}"]`).click();
  await button(panel, 'submit').click();
}

export const button = (panel: Frame, action: string) =>
  panel.locator(`.request vscode-button[data-action="${action}"]:visible, .confirm vscode-button[data-action="${action}"]`).first();

export const FOUR_KINDS = {
  context: 'Setting up the **billing** service.',
  questions: [
    { id: 'database', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }, { label: 'MongoDB' }] },
    { id: 'extras', header: 'Extras', question: 'Which extras?', kind: 'multi', options: [{ label: 'Redis' }, { label: 'Kafka' }, { label: 'S3' }] },
    { id: 'service_name', header: 'Name', question: 'What should the service be called?', kind: 'text', placeholder: 'e.g. billing-api' },
    { id: 'api_key', header: 'API key', question: 'Your Stripe test key?', kind: 'secret', envVar: 'STRIPE_TEST_KEY' },
  ],
};

/**
 * Types into a field of the panel as a user does (click, then keys) and checks that the text landed
 * there: under load, a command that finished late can take the focus back between the click and the
 * keys (the walkthrough's did), and the keys then go elsewhere. Then it clears the field and tries again.
 */
export async function typeIntoField(workbench: Workbench, panel: Frame, selector: string, text: string): Promise<void> {
  const field = panel.locator(selector).first();
  const value = () => field.evaluate((e) => (e as unknown as { value: string }).value);
  for (let attempt = 0; attempt < 3; attempt++) {
    await field.click();
    await workbench.page.keyboard.type(text);
    if ((await value()) === text) return;
    await field.evaluate((e) => ((e as unknown as { value: string }).value = ''));
  }
  assert.equal(await value(), text, `the text never landed in ${selector}`);
}
