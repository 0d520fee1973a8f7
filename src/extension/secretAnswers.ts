// Turns secret answers into handles: a typed value (from the panel) or a trusted caller's value
// is stored first; "use the stored value" is checked against the vault. The model never gets a value.
import { envVarNeedsConfirmation } from '../broker/secrets/envVarPolicy';
import type { Answers, QuestionRequest } from '../broker/contract/schemas';
import { isSecretKind } from '../broker/contract/questionKinds';
import type { SecretVault } from './secretVault';

export interface SecretInput {
  /** Values by question id: typed in the panel, or given by a trusted API caller. */
  values: Record<string, string>;
  /** Question ids whose answer is the value already stored for their variable. */
  useStored: readonly string[];
  /** Question ids whose typed value the user marked for all workspaces (by default it is for this workspace only). */
  allWorkspaces?: readonly string[];
  /** Question ids whose variable, not a credential name (see envVarPolicy.ts), the user confirmed ("Set $NAME anyway"). */
  nameConfirmed?: readonly string[];
}

/** Resolves every answered secret question to `{ secret: { stored: true, envVar } }`, or explains why it cannot. */
export async function resolveSecretAnswers(request: QuestionRequest, sent: Answers, input: SecretInput, vault: SecretVault): Promise<{ answers: Answers } | { problem: string }> {
  const answers: Answers = {};
  // A handle or a value is only ever made here; whatever the sender put there is dropped.
  for (const [id, { secret: _handle, value: _value, ...answer }] of Object.entries(sent)) answers[id] = answer;
  for (const id of [...Object.keys(input.values), ...input.useStored, ...(input.allWorkspaces ?? []), ...(input.nameConfirmed ?? [])]) {
    const question = request.questions.find((q) => q.id === id);
    if (!question || !isSecretKind(question.kind) || !question.envVar) return { problem: `question "${id}" is not a secret question` };
    // Checked before anything is stored.
    if (Object.hasOwn(input.values, id) && envVarNeedsConfirmation(question.envVar) && !input.nameConfirmed?.includes(id)) {
      return { problem: `secret question "${id}": $${question.envVar} is not a credential name and the user did not confirm it` };
    }
  }
  for (const question of request.questions) {
    const answer = answers[question.id];
    if (!isSecretKind(question.kind) || !question.envVar || !answer || answer.skipped) continue;
    const typed = input.values[question.id];
    if (typed !== undefined) await vault.store(question.envVar, typed, input.allWorkspaces?.includes(question.id) ? 'all' : 'workspace');
    else if (!input.useStored.includes(question.id) || !vault.has(question.envVar)) return { problem: `secret question "${question.id}" has no value` };
    const value = question.returnValue ? (typed ?? (await vault.get(question.envVar))) : undefined;
    answers[question.id] = { ...answer, secret: { stored: true, envVar: question.envVar }, ...(value !== undefined ? { value } : {}) };
  }
  return { answers };
}
