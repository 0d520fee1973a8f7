import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentQuestionsApi, ApiChange, PendingRequest } from '../../src/extension/api';

export const EXTENSION_ID = 'openoxide.agent-questions';

export async function getApi(): Promise<AgentQuestionsApi> {
  const extension = vscode.extensions.getExtension<AgentQuestionsApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this extension host`);
  return extension.activate();
}

/** Resolves with the next change of the given type. */
export function nextChange<T extends ApiChange['type']>(api: AgentQuestionsApi, type: T): Promise<Extract<ApiChange, { type: T }>> {
  return new Promise((resolve) => {
    const subscription = api.onDidChange((change) => {
      if (change.type !== type) return;
      subscription.dispose();
      resolve(change as Extract<ApiChange, { type: T }>);
    });
  });
}

export const nextAdded = async (api: AgentQuestionsApi): Promise<PendingRequest> => (await nextChange(api, 'added')).request;

export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart)
    .map((part) => part.value)
    .join('');
}

/** Splits a tool result into its readable line and its JSON. */
export function parseResult(text: string): { line: string; json: Record<string, unknown> } {
  const newline = text.indexOf('\n');
  assert.ok(newline > 0, `expected "line\\nJSON", got ${JSON.stringify(text)}`);
  return { line: text.slice(0, newline), json: JSON.parse(text.slice(newline + 1)) as Record<string, unknown> };
}

export const invokeAskUser = (input: object, token?: vscode.CancellationToken) => vscode.lm.invokeTool('ask_user', { input, toolInvocationToken: undefined }, token);

export const DATABASE_QUESTION = {
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database?',
      options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }],
    },
  ],
};
