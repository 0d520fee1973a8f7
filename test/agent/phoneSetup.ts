// Setting up answers from a phone as a user does, for the agent tests that answer on the page:
// nudges to a webhook after a second unseen, nothing revealed on its own, the answer page on.
import type { Workbench } from '../ui/workbench';

export async function turnOnPhoneAnswers(workbench: Workbench, webhook: string): Promise<void> {
  for (const [key, value] of [
    ['nudge.afterSeconds', 1],
    ['nudge.maxPerHour', 60],
    ['revealOnAsk', false],
  ] as const)
    await workbench.driver('config', { section: 'agentQuestions', key, value });
  await workbench.runCommand('Agent Questions: Set Where Nudges Go…');
  await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Webhook' }).click();
  await workbench.page.locator('.quick-input-widget input[type=password]').fill(webhook);
  await workbench.page.keyboard.press('Enter');
  await workbench.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await workbench.runCommand('Agent Questions: Turn On the Answer Page…');
  // code-server's links lead to its own origin (a loopback one here), so the command warns that a phone cannot reach them.
  // The smoke-test driver the harness needs keeps toasts hidden, so read the notification centre.
  await workbench.runCommand('Notifications: Show Notifications');
  await workbench.page.locator('.notifications-center .notification-list-item', { hasText: 'The answer page is on' }).waitFor();
  await workbench.runCommand('Notifications: Hide Notifications');
}
