// Driving VS Code's chat in the real workbench, for the agent-loop tests and benchmark.
import type { Locator } from 'playwright-core';
import { step } from '../harness/deadline';
import type { Workbench } from '../ui/workbench';

export type ChatPlace = 'view' | 'editor';

/** The chat in the secondary side bar, or a chat editor. */
export const chatIn = (workbench: Workbench, where: ChatPlace): Locator => workbench.page.locator(where === 'editor' ? '.part.editor' : '.part.auxiliarybar');

/** Opens a new chat (in the Chat view, or a new chat editor) and types the prompt, without sending it. */
export async function typePrompt(workbench: Workbench, prompt: string, where: ChatPlace = 'view'): Promise<Locator> {
  const { page, driver } = workbench;
  if (where === 'editor') await driver('command', { id: 'workbench.action.openChat' });
  else {
    // Focus the chat view first, or "new chat" acts on whichever chat had focus last.
    await driver('command', { id: 'workbench.action.chat.open' });
    await driver('command', { id: 'workbench.action.chat.newChat' });
  }
  const chat = chatIn(workbench, where);
  // A new chat has no responses yet; this keeps one test's replies out of the next.
  // Like every wait on the workbench page, these last until the test's deadline (followDeadline).
  step('a new chat, empty, to take the prompt');
  await chat.locator('.interactive-response').first().waitFor({ state: 'detached' });
  await chat.locator('.interactive-input-part .monaco-editor').first().click();
  await page.keyboard.type(prompt);
  return chat;
}

/** Opens a new chat and sends the prompt. */
export async function send(workbench: Workbench, prompt: string, where: ChatPlace = 'view'): Promise<Locator> {
  const chat = await typePrompt(workbench, prompt, where);
  await workbench.page.keyboard.press('Enter');
  return chat;
}

/** The text of the chat's last complete response that contains `marker`. */
export async function finalReply(chat: Locator, marker = 'MODEL RECEIVED'): Promise<string> {
  const reply = chat.locator('.interactive-item-container.interactive-response:not(.chat-response-loading)', { hasText: marker }).last();
  step(`the chat's complete reply containing "${marker}"`);
  await reply.waitFor();
  return reply.innerText();
}

/** What the scripted model received, request by request (see test/fixtures/scripted-model). */
export interface ReceivedRequest {
  at: number;
  parts: string;
  /** The names of the tools the agent offered. */
  tools: string[];
}

/** Sends another prompt in the same chat (the next turn). */
export async function sendFollowUp(workbench: Workbench, chat: Locator, prompt: string): Promise<void> {
  await chat.locator('.interactive-input-part .monaco-editor').first().click();
  await workbench.page.keyboard.type(prompt);
  await workbench.page.keyboard.press('Enter');
}
