// Where the Question view sits. By default it joins the Chat view's own container (in the secondary
// side bar, stacked with the Chat), so a question shows where the user is looking without hiding the
// transcript. The manifest cannot say so: views contributed under the Chat's container id land in
// the Explorer, and a secondary side bar container of our own is a tab that replaces the Chat. So
// the view is moved once with VS Code's `vscode.moveViews`; after that the user's moves and resets stand.
import * as vscode from 'vscode';

/** VS Code's Chat view container (secondary side bar by default). */
export const CHAT_CONTAINER = 'workbench.panel.chat';
/** Our own container: the activity bar item, which keeps the Queue and its badge. */
export const OWN_CONTAINER = 'workbench.view.extension.agentQuestions';
const QUESTION_VIEW = 'agentQuestions.panel';
const PLACED_KEY = 'agentQuestions.placedNextToChat';

/** Moves the Question view into a view container; VS Code remembers it like a drag and opens that container. */
export async function moveQuestionView(destinationId: string): Promise<void> {
  await vscode.commands.executeCommand('vscode.moveViews', { viewIds: [QUESTION_VIEW], destinationId });
}

/** The first time Agent Questions runs in a profile, puts the Question view next to the Chat. */
export async function placeNextToChatOnce(state: vscode.Memento): Promise<void> {
  // With AI features off there is no Chat to sit beside; try again once they are back.
  if (state.get(PLACED_KEY) === true || vscode.workspace.getConfiguration('chat').get('disableAIFeatures') === true) return;
  await state.update(PLACED_KEY, true);
  // This once, VS Code opens the Chat's container with focus (moveViews always does): the empty panel shows itself.
  await moveQuestionView(CHAT_CONTAINER);
}
